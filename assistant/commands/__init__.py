"""Subcommands of `assistant`, one module each, imported only when called.

Each module has `main(argv: list[str]) -> int`. Adding a command is one line here.
"""

from __future__ import annotations

import importlib

# name -> (module under assistant.commands, one-line help shown by `assistant --help`)
COMMANDS: dict[str, tuple[str, str]] = {
    "history": ("history", "past conversations: history [ID] [--json]"),
}


def run(name: str, argv: list[str]) -> int:
    module = importlib.import_module(f"assistant.commands.{COMMANDS[name][0]}")
    return module.main(argv)


def summary() -> str:
    width = max(len(name) for name in COMMANDS) + 2
    return "\n".join(f"  assistant {name:<{width}}{text}" for name, (_, text) in COMMANDS.items())
