"""What code run by the assistant uses to see and drive the desktop.

    from assistant import computer
    computer.mouse.click("Save")           # finds the text on screen and clicks it
    computer.keyboard.write("ACME")
    computer.display.view()                # the LLM sees the screen in its next message

Submodules: display, mouse, keyboard, clipboard, windows, os, ocr. Coordinates are
those of the last screen the LLM was shown (see display.view); they are mapped to real
pixels here. This package imports nothing else of `assistant`, and its heavy libraries
(mss, pyautogui, OCR) load on first use.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from assistant.computer.capability import Unavailable

__all__ = ["Unavailable", "clipboard", "display", "keyboard", "mouse", "ocr", "os", "windows"]

_SUBMODULES = {"clipboard", "display", "keyboard", "mouse", "ocr", "os", "windows"}


def __getattr__(name: str) -> ModuleType:
    if name in _SUBMODULES:
        return importlib.import_module(f"assistant.computer.{name}")
    raise AttributeError(f"module 'assistant.computer' has no attribute {name!r}")
