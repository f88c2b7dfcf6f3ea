"""The keyboard: typing text (any language, emoji included), single keys and shortcuts."""

from __future__ import annotations

import time
from typing import Any

from assistant.computer import clipboard
from assistant.computer.capability import pyautogui

__all__ = ["hotkey", "press", "typewrite", "write"]

_TYPABLE = set(" \t\n") | {chr(c) for c in range(0x21, 0x7F)}


def _gui() -> Any:
    gui = pyautogui()
    gui.PAUSE = 0
    return gui


def write(text: str, into: str | None = None, interval: float = 0.0) -> None:
    """Type `text` into the focused field, or `into="Customer"`: the field of that name
    (found in the window's accessibility tree), which then holds `text`.

    Plain ASCII is typed key by key; anything else (é, ü, 中, emoji) cannot be typed on
    every keyboard layout, so it is pasted through the clipboard, which keeps it after.
    `interval` (pyautogui's) is taken and not needed: keys go at once.
    """
    del interval
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


def typewrite(message: str | list[str], interval: float = 0.0) -> None:
    """pyautogui's name: a text is typed as write() types it; a list is keys pressed."""
    if isinstance(message, str):
        write(message, interval=interval)
    else:
        for name in message:
            press(name)


# What people and models call keys that pyautogui names otherwise.
ALIASES = {"control": "ctrl", "return": "enter", "escape": "esc", "del": "delete",
           "cmd": "command", "super": "win", "pgup": "pageup", "pgdn": "pagedown",
           "spacebar": "space", "arrowup": "up", "arrowdown": "down", "arrowleft": "left",
           "arrowright": "right"}


def split(keys: str) -> list[str]:
    """One key or a combination written as one ("ctrl+s", "Ctrl+Shift+T"): key names."""
    parts = [p.strip() for p in keys.split("+")] if len(keys) > 1 else [keys]
    parts = [p for p in parts if p] or [keys]
    return [ALIASES.get(p.lower(), p.lower() if len(p) > 1 else p) for p in parts]


def is_key(name: str) -> bool:
    """Whether `name` is a key or a combination of keys ("enter", "ctrl+s")."""
    known = _gui().KEYBOARD_KEYS
    return all(k.lower() in known for k in split(name)) and (len(name) > 1 or not name.isalnum())


def press(key: str | list[str], presses: int = 1, interval: float = 0.0) -> None:
    """Press and release one key ("enter", "tab", "esc", "f5", "a", ...) `presses` times;
    a combination ("ctrl+s") is pressed together, a list one key after the other."""
    del interval  # pyautogui's: keys go at once
    if not isinstance(key, str):
        for each in key:
            press(each, presses)
        return
    names = split(key)
    if len(names) > 1:
        for _ in range(presses):
            hotkey(*names)
        return
    gui = _gui()
    name = names[0].lower()
    if name not in gui.KEYBOARD_KEYS:
        raise ValueError(f"unknown key {key!r}: use names such as enter, tab, esc, left, f5, "
                         "or ctrl+s for keys together")
    gui.press(name, presses=presses, interval=0.0)


def hotkey(*keys: str, interval: float = 0.0) -> None:
    """Press keys together, in order, and release them in reverse: hotkey("ctrl", "s"),
    or hotkey("ctrl+s")."""
    del interval  # pyautogui's: keys go at once
    names = [name for each in keys for name in split(each)]
    gui = _gui()
    unknown = [k for k in names if k.lower() not in gui.KEYBOARD_KEYS]
    if unknown:
        raise ValueError(f"unknown key(s) {unknown}: use names such as ctrl, shift, alt, s")
    gui.hotkey(*(k.lower() for k in names), interval=0.0)
