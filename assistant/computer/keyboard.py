"""The keyboard: typing text (any language, emoji included), single keys and shortcuts."""

from __future__ import annotations

import time
from typing import Any

from assistant.computer import clipboard
from assistant.computer.capability import load

__all__ = ["hotkey", "press", "write"]

_TYPABLE = set(" \t\n") | {chr(c) for c in range(0x21, 0x7F)}


def _gui() -> Any:
    gui = load("pyautogui")
    gui.PAUSE = 0
    return gui


def write(text: str) -> None:
    """Type `text` into the focused field.

    Plain ASCII is typed key by key; anything else (é, ü, 中, emoji) cannot be typed on
    every keyboard layout, so it is pasted through the clipboard, which keeps it after.
    """
    if set(text) <= _TYPABLE:
        _gui().write(text, interval=0.0)
        return
    clipboard.write(text)
    _gui().hotkey("ctrl", "v")
    time.sleep(0.05)  # the window asks for the clipboard after the key press


def press(key: str, presses: int = 1) -> None:
    """Press and release one key ("enter", "tab", "esc", "f5", "a", ...) `presses` times."""
    gui = _gui()
    if key.lower() not in gui.KEYBOARD_KEYS:
        raise ValueError(f"unknown key {key!r}: use names such as enter, tab, esc, left, f5")
    gui.press(key.lower(), presses=presses, interval=0.0)


def hotkey(*keys: str) -> None:
    """Press keys together, in order, and release them in reverse: hotkey("ctrl", "s")."""
    gui = _gui()
    unknown = [k for k in keys if k.lower() not in gui.KEYBOARD_KEYS]
    if unknown:
        raise ValueError(f"unknown key(s) {unknown}: use names such as ctrl, shift, alt, s")
    gui.hotkey(*(k.lower() for k in keys), interval=0.0)
