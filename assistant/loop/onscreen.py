"""The program on screen a request asks for: what the model's code does there instead of
beside it.

A person who says "in the open terminal, run echo ready > status.txt" or "fill the email
box on the Newsletter page" with that terminal or page on screen means that window: its
shell and folder, its form. A small model writes the command as shell code, which runs in
the assistant's own shell (asked to close the terminal by typing exit in it, it ended its
own shell, and the terminal stayed open), and posts the form with `requests` to an
address it invents. So:
- rule screen.terminal: shell code for a request that asks for the terminal on screen
  becomes the verbs' code that types each line into that window, Enter after it; it is
  shown, rated (typed text is rated as the shell command it is, safety/desktop.py) and
  approved like any other proposal;
- rule screen.page: code that fetches or posts a page itself, or opens another browser,
  for a request about the page on screen, is not run; the model is told to act on the
  page there.
The words and programs are data: onscreen.toml.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from assistant.tomlread import tomllib

_DATA = tomllib.loads(Path(__file__).with_name("onscreen.toml").read_text())
FETCHES = re.compile(_DATA["page"]["fetches"])


@dataclass(frozen=True)
class Sort:
    """A sort of program a request asks for by a word: terminals, browsers."""

    words: re.Pattern[str]
    programs: frozenset[str]


def _sort(name: str) -> Sort:
    words = "|".join(re.escape(word) for word in _DATA[name]["words"])
    return Sort(re.compile(rf"\b(?:{words})\b", re.IGNORECASE),
                frozenset(_DATA[name]["programs"]))


TERMINAL = _sort("terminal")
PAGE = _sort("page")


def asked_for(request: str, sort: Sort) -> str | None:
    """The title of the window of `sort` the request asks for: it says its word (terminal,
    page...) with one such window on screen, or names one of several by its title; None
    otherwise, or without a display. A title alone asks for nothing: a terminal titled
    "bash" is not what "write a bash script" means."""
    if not sort.words.search(request):
        return None
    from assistant.computer import windows
    from assistant.computer.capability import require_display

    try:
        require_display()
        titles = windows.of_programs(sort.programs)
    except Exception:  # no display, or no X (Wayland, no Xlib): no such window to use
        return None
    named = [t for t in titles if re.search(rf"\b{re.escape(t)}\b", request, re.IGNORECASE)]
    if named:
        return named[0]
    return titles[0] if len(titles) == 1 else None


def titles() -> list[str]:
    """The titles of the windows on screen; none without a display."""
    from assistant.computer import windows
    from assistant.computer.capability import require_display

    try:
        require_display()
        return [w["title"] for w in windows.list() if w["title"]]
    except Exception:  # no display, or no X (Wayland, no Xlib)
        return []


def typed(code: str, title: str) -> str:
    """The verbs' code that types the shell `code` into the window `title`, Enter after
    each line."""
    lines = [line for line in code.strip().splitlines() if line.strip()]
    return "\n".join(f"computer.type({line + chr(10)!r}, window={title!r})" for line in lines)


def fetches(code: str) -> bool:
    """Whether `code` fetches or posts a page itself, or opens another browser."""
    return bool(FETCHES.search(code))
