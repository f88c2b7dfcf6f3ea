"""Subcommands of `assistant`, one module each, imported only when called.

Each module has `main(argv: list[str]) -> int`. Adding a command is one line here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.config import Settings
    from assistant.servers.started import Servers

# name -> (module under assistant.commands, one-line help shown by `assistant --help`)
COMMANDS: dict[str, tuple[str, str]] = {
    "history": ("history", "past conversations: history [ID] [--json]"),
    "check": ("check", "rate a snippet's risk as JSON: check [--language L] FILE|-"),
    "preview": ("preview", "what a snippet would do to files, nothing changed: "
                           "preview [--language L] [--json] FILE|-"),
    "undo": ("undo", "put back what a run changed: undo [--json] [--list] [RUN]"),
    "keys": ("keys", "API keys in the system keyring: keys set|delete|list [NAME]"),
    "transcribe": ("transcribe", "speech to text: transcribe FILE.wav [--json]"),
    "say": ("say", "speak text: say \"text\" [--out FILE.wav] [--engine NAME]"),
    "devices": ("devices", "list audio input and output devices"),
    "voice": ("voice", "push-to-talk conversation in the terminal"),
    "daemon": ("daemon", "tray icon, hotkey, popup: daemon [--install-autostart]"),
    "serve": ("serve", "the web page and its API: serve [--port N] [--new-token]"),
    "models": ("models", "models installed and in use: models [pull NAME|status|stop] [--json]"),
    "doctor": ("doctor", "check each component and print the command that fixes it"),
    "tools": ("tools", "tools the LLM may call, with source and risk: tools [--json]"),
    "plugins": ("plugins", "installed plugins and what each adds: plugins [--json]"),
    "mcp": ("mcp", "serve execute and computer to MCP clients on stdio; you approve each call"),
}


def run(name: str, argv: list[str]) -> int:
    if name not in COMMANDS:  # a plugin's command
        from assistant.plugins.registry import installed

        return installed().commands[name][2](argv)
    module = importlib.import_module(f"assistant.commands.{COMMANDS[name][0]}")
    return module.main(argv)


def exists(name: str) -> bool:
    """A built-in command, or one an installed plugin adds (built-in names win)."""
    if name in COMMANDS:
        return True
    if not name or name.startswith("-") or " " in name:
        return False
    from assistant.plugins.registry import installed

    return name in installed().commands


def summary() -> str:
    width = max(len(name) for name in COMMANDS) + 2
    return "\n".join(f"  assistant {name:<{width}}{text}" for name, (_, text) in COMMANDS.items())


def with_model(settings: Settings, tell: Callable[[str], None],
               body: Callable[[Settings, Servers], int]) -> int:
    """`body` once the model is ready (a local server found, the embedded one started),
    with the Servers that keep what was started, for its Assistants; a model that cannot
    be made ready is told in one line: exit status 2, or 1 when the embedded model fails."""
    from assistant.servers import embedded, local
    from assistant.servers.started import Servers

    try:
        with Servers(tell) as servers:
            return body(local.ready(settings, servers), servers)
    except local.LocalError as exc:
        tell(str(exc))
        return 2
    except embedded.EmbeddedError as exc:
        tell(str(exc))
        return 1
