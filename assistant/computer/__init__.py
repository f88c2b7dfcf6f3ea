"""What code run by the assistant uses to see and drive the desktop.

    from assistant import computer
    computer.press("Yes")                  # a button by its name, the focused window first
    computer.type("Ana", into="Name:")     # a field by its label
    computer.screen()                      # the windows and their controls, as text

The verbs (verbs.py) name a control by its role and name; the submodules (display,
mouse, keyboard, clipboard, windows, os, ocr) do the rest. Coordinates are those of the
last screen the LLM was shown (see display.view); they are mapped to real pixels here.
This package imports nothing else of `assistant`, and its heavy libraries (mss,
pyautogui, OCR) load on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from assistant.computer.capability import Unavailable

_SUBMODULES = {"clipboard", "display", "keyboard", "mouse", "ocr", "os", "windows"}
# The verbs, and the names models write anyway (pyautogui's, the submodules'), each the
# module that holds it and its name there.
VERBS = {
    "press": ("verbs", "press"), "choose": ("verbs", "choose"), "tick": ("verbs", "tick"),
    "untick": ("verbs", "untick"), "type": ("verbs", "type"), "fill": ("verbs", "fill"),
    "close": ("verbs", "close"), "focus": ("verbs", "focus"), "read": ("verbs", "read"),
    "key": ("verbs", "key"), "screen": ("screen_text", "screen"),
    "replace": ("editing", "replace"), "save": ("editing", "save"),
    "save_as": ("editing", "save_as"),
    "click": ("mouse", "click"), "double_click": ("mouse", "double_click"),
    "write": ("verbs", "type"), "typewrite": ("keyboard", "typewrite"),
    "hotkey": ("verbs", "key"), "select": ("verbs", "choose"),
    "get": ("values", "get"), "set": ("values", "set"),
}
# What a miss lists: the verbs themselves, not the other names for them.
OWN = ("press", "choose", "tick", "untick", "type", "fill", "replace", "save", "save_as",
       "close", "focus", "read", "key", "screen", "click")
__all__ = ["Unavailable", *sorted(_SUBMODULES), *sorted(VERBS)]


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"assistant.computer.{name}")
    if name in VERBS:
        module, attribute = VERBS[name]
        return getattr(importlib.import_module(f"assistant.computer.{module}"), attribute)
    raise AttributeError(f"computer has no {name!r}: its verbs are {', '.join(OWN)} "
                         "(computer.screen() shows what is on screen)")
