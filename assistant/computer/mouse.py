"""The mouse, in view coordinates (see display), or by the text under it.

Moves are instant. pyautogui's fail-safe stays on for the user (slam the pointer into a
corner to stop a runaway script), but a corner this module moved to itself does not trip it.
"""

from __future__ import annotations

import time
from typing import Any

from assistant.computer import display, ocr, textmatch, views
from assistant.computer.capability import load

__all__ = ["click", "double_click", "drag", "move", "position", "right_click", "scroll"]

_ours: list[tuple[int, int]] = []  # where this process last put the pointer itself


def _gui() -> Any:
    gui = load("pyautogui")
    gui.PAUSE = 0
    gui.MINIMUM_DURATION = 0
    return gui


def _act(action: str, *args: Any, **kwargs: Any) -> Any:
    """Call pyautogui, skipping the fail-safe only when the pointer sits where we put it."""
    gui = _gui()
    here = tuple(gui.position())
    if here in gui.FAILSAFE_POINTS and _ours and _ours[-1] == here:
        gui.FAILSAFE, saved = False, gui.FAILSAFE
        try:
            return getattr(gui, action)(*args, **kwargs)
        finally:
            gui.FAILSAFE = saved
    return getattr(gui, action)(*args, **kwargs)


def _moved(x: int, y: int) -> None:
    _ours[:] = [(x, y)]


def _target(text_or_x: str | float | None, y: float | None, index: int | None,
            near: str | None, id: int | None) -> tuple[int, int]:
    """The physical pixel meant by coordinates, a text on screen, or a text-map id."""
    port = display.viewport()
    if id is not None:
        current = views.latest()
        items = current.items if current else None
        if not items:
            raise LookupError("no text map yet: call computer.display.text_map() first")
        chosen = next((item for item in items if item["id"] == id), None)
        if chosen is None:
            raise LookupError(f"id={id} is not in the latest text map (ids 1..{len(items)})")
        return port.to_physical(*textmatch.center(chosen["box"]))
    if isinstance(text_or_x, str):
        image = display.capture(port)
        if near is not None:
            ocr.read(image, near)  # cached per screen: the next read keeps what this one found
        items = ocr.read(image, text_or_x)
        chosen = textmatch.pick(items, text_or_x, index=index, near=near)
        return port.to_physical(*textmatch.center(chosen["box"]))
    if text_or_x is None and y is None:
        return tuple(_act("position"))
    if text_or_x is None or y is None:
        raise ValueError("give both x and y, or a text to click (click('Save'))")
    return port.to_physical(float(text_or_x), float(y))


def move(x: float, y: float) -> None:
    """Put the pointer at (x, y) instantly."""
    px, py = display.viewport().to_physical(x, y)
    _act("moveTo", px, py)
    _moved(px, py)


def click(  # noqa: PLR0913 - generated code's one call: a text, a point or an id, and how
        text_or_x: str | float | None = None, y: float | None = None, *,
          button: str = "left", clicks: int = 1, index: int | None = None,
          near: str | None = None, id: int | None = None) -> tuple[int, int]:
    """Click a text (`click("Save")`), a point (`click(120, 40)`), a text-map id
    (`click(id=7)`), or where the pointer is (`click()`).

    Exact text beats text that merely contains it; when several match equally,
    `index=N` picks one and `near="other text"` picks the closest to that text.
    Returns the physical pixel clicked.
    """
    px, py = _target(text_or_x, y, index, near, id)
    _act("click", px, py, clicks=clicks, interval=0.05 if clicks > 1 else 0.0, button=button)
    _moved(px, py)
    return px, py


def double_click(text_or_x: str | float | None = None, y: float | None = None,
                 **kwargs: Any) -> tuple[int, int]:
    """Double-click, taking the same arguments as click()."""
    return click(text_or_x, y, clicks=2, **kwargs)


def right_click(text_or_x: str | float | None = None, y: float | None = None,
                **kwargs: Any) -> tuple[int, int]:
    """Right-click, taking the same arguments as click()."""
    return click(text_or_x, y, button="right", **kwargs)


def drag(x1: float, y1: float, x2: float, y2: float, button: str = "left") -> None:
    """Press at (x1, y1), move to (x2, y2) in a few steps, release there."""
    port = display.viewport()
    start, end = port.to_physical(x1, y1), port.to_physical(x2, y2)
    _act("moveTo", *start)
    _moved(*start)
    _act("mouseDown", button=button)
    for step in range(1, 6):
        point = (start[0] + (end[0] - start[0]) * step // 5,
                 start[1] + (end[1] - start[1]) * step // 5)
        time.sleep(0.01)
        _act("moveTo", *point)
        _moved(*point)
    _act("mouseUp", button=button)


def scroll(amount: int, x: float | None = None, y: float | None = None) -> None:
    """Scroll up (positive) or down (negative) by `amount` notches, at (x, y) if given."""
    if x is not None and y is not None:
        move(x, y)
    _act("scroll", int(amount))


def position() -> tuple[int, int]:
    """Where the pointer is, in view coordinates."""
    px, py = _act("position")
    return display.viewport().to_view(px, py)
