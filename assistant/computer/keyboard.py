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


def write(text: str, into: str | None = None) -> None:
    """Type `text` into the focused field, or `into="Customer"`: the field of that name
    (found in the window's accessibility tree), which then holds `text`.

    Plain ASCII is typed key by key; anything else (é, ü, 中, emoji) cannot be typed on
    every keyboard layout, so it is pasted through the clipboard, which keeps it after.
    """
    if into is not None and _fill(into, text):
        return
    if set(text) <= _TYPABLE:
        _gui().write(text, interval=0.0)
        return
    clipboard.write(text)
    _gui().hotkey("ctrl", "v")
    time.sleep(0.05)  # the window asks for the clipboard after the key press


def _fill(name: str, text: str) -> bool:
    """Put `text` in the field named `name`: through its editable-text interface (True),
    else clicked (the one focus every toolkit and window manager honours) with its old
    text selected, for the keys to replace (False)."""
    from assistant.computer import a11y, display, widgets

    port = display.viewport()
    field = widgets.field(name, port, display.capture(port))
    if a11y.put_text(field, text):
        return True
    _gui().click(*field.center())
    _gui().hotkey("ctrl", "a")
    return False


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
