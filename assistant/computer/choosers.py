"""A file named in a file chooser that opens one: given to it as a whole path.

A GTK chooser that opens a file starts on its recent files, so the file a person names
("open report.txt") is seldom a row on screen, and a small model has no way to reach it
key by key. A person types its location (Ctrl+L); so does `choose("report.txt")` or
`type("report.txt", into=...)` in such a chooser, with the working folder's path as
everywhere else in a run. The chooser's own button (OK, Open) then opens it: the file
is not opened unasked.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from assistant.computer import finding, keyboard, tree
from assistant.computer.tree import Control, Window
from assistant.computer.verbs import _fill, _front

__all__ = ["locate"]

WAIT_S = 3.0  # for the location field to show after Ctrl+L
POLL_S = 0.1


def locate(name: str, window: str | None = None) -> str | None:
    """Type the file `name` (the working folder's unless a whole path) into the location
    of the file chooser titled like `window` (else the focused window); what was done,
    or None when that window is no file chooser."""
    target = tree.window(window)
    if target is None or target.role != "file chooser" or not name.strip():
        return None
    path = Path(os.path.expanduser(name.strip()))
    path = path if path.is_absolute() else Path.cwd() / path
    field = _location(target)
    _fill(field, target, str(path))
    buttons = finding.names(target, "button")
    return (f"Typed {str(path)!r} into the location of {target.kind()}; its buttons: "
            f"{buttons}.")


def _location(chooser: Window) -> Control:
    """The chooser's name field (a Save chooser has one), else its location field, shown
    by Ctrl+L."""
    named = finding.matches(chooser.controls, "Name", "field")
    if named:
        return named[0]
    _front(chooser)
    keyboard.hotkey("ctrl", "l")
    deadline = time.monotonic() + WAIT_S
    while True:
        shown = tree.window(chooser.title)
        fields = [c for c in shown.controls if c.field and c.enabled] if shown else []
        if fields:
            return fields[0]
        if time.monotonic() > deadline:
            raise finding.NotOnScreen(f"{chooser.kind()} shows no location field (ctrl+l)")
        time.sleep(POLL_S)
