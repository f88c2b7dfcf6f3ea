"""`assistant history [ID] [--json]`: the journal's conversations, for people and scripts."""

from __future__ import annotations

import argparse
import sys

from assistant.config import load_settings


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="assistant history",
                                     description="List conversations, or show one in full.")
    parser.add_argument("id", nargs="?", help="a conversation id (a prefix is enough)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--limit", type=int, default=20, help="how many conversations to list")
    args = parser.parse_args(argv)

    from assistant.journal import Journal, JournalError
    from assistant.ui.history import print_conversation, print_list

    journal = Journal.in_dir(load_settings().data_path)
    try:
        if args.id:
            print_conversation(journal.conversation(args.id), as_json=args.json)
        else:
            print_list(journal.conversations(args.limit), as_json=args.json)
    except JournalError as exc:
        print(f"assistant: {exc}", file=sys.stderr)
        return 1
    finally:
        journal.close()
    return 0
