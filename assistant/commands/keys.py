"""`assistant keys set|delete|list NAME`: API keys in the system keyring, not in files.

NAME is the provider's variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...). A key in the
environment wins; a stored one is used when the environment has none.
"""

from __future__ import annotations

import argparse
import getpass
import re
import sys

from assistant.safety.keys import KeyringError, delete_key, store_key, stored_names


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="assistant keys",
                                     description="Keep API keys in the system keyring.")
    parser.add_argument("action", choices=("set", "delete", "list"))
    parser.add_argument("name", nargs="?", help="e.g. OPENAI_API_KEY")
    args = parser.parse_args(argv)
    if args.action != "list" and not (args.name and re.fullmatch(r"[A-Z][A-Z0-9_]*", args.name)):
        return _fail("give the key's variable name in capitals, e.g. OPENAI_API_KEY")
    try:
        if args.action == "list":
            for name in stored_names():
                print(name)
        elif args.action == "delete":
            delete_key(args.name)
            print(f"deleted {args.name}")
        else:
            value = _read_secret(args.name)
            if not value:
                return _fail("no key given: paste it at the prompt or pipe it in")
            store_key(args.name, value)
            print(f"stored {args.name} in the keyring")
    except KeyringError as exc:
        return _fail(str(exc))
    return 0


def _read_secret(name: str) -> str:
    """From the keyboard without echo, or the first line of piped stdin (never an argument,
    which would land in the shell history and the process list)."""
    if sys.stdin.isatty():
        return getpass.getpass(f"{name}: ").strip()
    return sys.stdin.readline().strip()


def _fail(message: str) -> int:
    print(f"assistant keys: {message}", file=sys.stderr)
    return 2
