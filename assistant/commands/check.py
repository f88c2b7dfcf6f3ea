"""`assistant check [--language L] FILE|-`: the static risk check on a snippet, as JSON.

So the policy can be tried and scripted: the same rating, deny rules and protected
folders a conversation uses, without an LLM or a run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from assistant.config import load_settings

SUFFIXES = {".py": "python", ".sh": "shell", ".bash": "shell", ".js": "javascript",
            ".mjs": "javascript", ".cjs": "javascript"}
LANGUAGES = ("python", "shell", "javascript")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="assistant check",
        description="Rate a snippet's risk: prints {\"risk\": ..., \"reasons\": [...]}.",
    )
    parser.add_argument("file", help="the code to check, or - to read it from stdin")
    parser.add_argument("--language", "-l", choices=LANGUAGES,
                        help="the snippet's language (default: from the file name)")
    args = parser.parse_args(argv)

    language = args.language or SUFFIXES.get(Path(args.file).suffix.lower())
    if language is None:
        return _fail(f"cannot tell the language of {args.file!r}: pass --language "
                     f"{'|'.join(LANGUAGES)}")
    try:
        data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}")
    try:
        code = data.decode("utf-8")
    except UnicodeDecodeError:
        where = "stdin" if args.file == "-" else args.file
        return _fail(f"{where} is not UTF-8 text: give it source code")

    from assistant.safety.risk import DenyRules, assess

    settings = load_settings()
    assessment = assess(code, language, DenyRules.parse(settings.deny), settings.own_paths)
    print(json.dumps({"risk": assessment.risk, "reasons": list(assessment.reasons)}, indent=2))
    return 0


def _fail(message: str) -> int:
    print(f"assistant check: {message}", file=sys.stderr)
    return 2
