"""Every setting that takes one of a few words, declared once.

Each is a `Literal`: the type checker holds code to it, `config` validates values on entry
and words its errors from it, and argparse takes its `choices` from it.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

CodeStyle = Literal["auto", "tools", "fenced"]
HotkeyMode = Literal["hold", "toggle"]
SpeakProposals = Literal["code", "summary", "both"]
ScreenContext = Literal["auto", "always", "never"]
ScreenFormat = Literal["auto", "image", "text"]
# Which models get the first lines of the files a request names: local ones, any, none.
PeekFiles = Literal["local", "always", "never"]
# The approval mode: ask before every run, run low risk unasked (auto, `-y`), or never run.
ApprovalMode = Literal["ask", "auto", "never"]
# guard: runs see the system but cannot change the assistant's own files; on: the full
# bubblewrap sandbox; off: neither. TOML's true and false mean on and off.
SandboxMode = Literal["on", "guard", "off"]
# The daemon's one visible state (assistant.daemon.state moves it; the tray shows it).
State = Literal["idle", "listening", "transcribing", "thinking", "awaiting_approval", "running",
                "speaking", "error"]
STATES: tuple[State, ...] = get_args(State)
# A risk rating, lowest first: the risk check's, and the one a user gives a tool
# ([mcp_servers.NAME] risk).
Level = Literal["low", "medium", "high", "blocked"]
LEVELS: tuple[Level, ...] = ("low", "medium", "high", "blocked")


def choices(kind: Any) -> tuple[str, ...]:
    """The words a Literal allows, in their declared order (for argparse `choices`)."""
    return tuple(get_args(kind))


def one_of(words: tuple[str, ...]) -> str:
    """"a, b or c", for messages."""
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]
