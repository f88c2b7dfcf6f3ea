"""Rule screen.terminal: a command asked to run in the terminal on screen is typed there.

A person who says "in the open terminal, run echo ready > status.txt" with a terminal
window on screen means that terminal: its shell, its folder, what it shows. A small model
writes the command as shell code, which would run in the assistant's own shell instead
(asked to close the terminal by typing exit in it, it ended its own shell, and the
terminal stayed open). Its shell proposal becomes the verbs' code that types each line
into that window. It is shown, rated (typed text is rated as the shell command it is,
safety/desktop.py) and approved like any other proposal.
"""

from __future__ import annotations

import re
from pathlib import Path

from assistant.tomlread import tomllib

_DATA = tomllib.loads(Path(__file__).with_name("terminal.toml").read_text())
ASKS = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in _DATA["words"]) + r")\b",
                  re.IGNORECASE)
PROGRAMS = frozenset(_DATA["programs"])


def asked_for(request: str) -> str | None:
    """The title of the terminal window the request asks for: it says terminal (or
    console...) and one terminal is on screen, or it names one of several by its title;
    None otherwise, or without a display."""
    if not ASKS.search(request):
        return None
    from assistant.computer import windows
    from assistant.computer.capability import require_display

    try:
        require_display()
        stacked = windows.stacking()
    except Exception:  # no display, or no X (Wayland, no Xlib): no terminal to type into
        return None
    titles: list[str] = [w["title"] for w in reversed(stacked)  # the top one first
                         if w["title"] and set(w["class"].lower().split()) & PROGRAMS]
    named = [t for t in titles if re.search(rf"\b{re.escape(t)}\b", request, re.IGNORECASE)]
    if named:
        return named[0]
    return titles[0] if len(titles) == 1 else None


def typed(code: str, title: str) -> str:
    """The verbs' code that types the shell `code` into the window `title`, Enter after
    each line."""
    lines = [line for line in code.strip().splitlines() if line.strip()]
    return "\n".join(f"computer.type({line + chr(10)!r}, window={title!r})" for line in lines)
