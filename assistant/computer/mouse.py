"""The mouse, in view coordinates (see display), or by the text under it.

Moves are instant. pyautogui's fail-safe stays on for the user (slam the pointer into a
corner to stop a runaway script), but a corner this module moved to itself does not trip it.
"""

from __future__ import annotations

import time
from typing import Any

from assistant.computer import a11y, display, textmatch, views, widgets
from assistant.computer.capability import pyautogui

__all__ = ["click", "double_click", "drag", "move", "position", "right_click", "scroll"]

_ours: list[tuple[int, int]] = []  # where this process last put the pointer itself


def _gui() -> Any:
    gui = pyautogui()
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


class Clicked(tuple[int, int]):
    """The physical pixel a click went to, and how its target was found: `via` is
    "coordinates", "pointer", "text map", "accessibility" (the window's own control),
    "accessibility action 'NAME'" (the control's action, no pointer: it was covered) or
    "ocr" (text read off the screen)."""

    via: str
    what: str

    def __new__(cls, x: int, y: int, via: str, what: str = "") -> Clicked:
        clicked = super().__new__(cls, (x, y))
        clicked.via, clicked.what = via, what
        return clicked

    def __repr__(self) -> str:
        what = f", {self.what}" if self.what else ""
        return f"Clicked(({self[0]}, {self[1]}), via={self.via!r}{what})"


def _target(text_or_x: str | float | None, y: float | None, id: int | None,
            wanted: widgets.Wanted | None) -> widgets.Target:
    """The physical pixel meant by coordinates, a name on screen, or a text-map id."""
    port = display.viewport()
    if id is not None:
        chosen = views.item(id)
        if chosen is None:
            raise LookupError(f"id={id} is in no screen read so far: read it with "
                              "computer.screen(), or name the control: computer.press('OK')")
        return widgets.Target(port.to_physical(*textmatch.center(chosen["box"])), "text map")
    if wanted is not None:
        return widgets.locate(wanted, port, display.capture(port))
    if text_or_x is None and y is None:
        return widgets.Target(tuple(_act("position")), "pointer")
    if text_or_x is None or y is None:
        raise ValueError("give both x and y, or a text to click (click('Save'))")
    return widgets.Target(port.to_physical(float(text_or_x), float(y)), "coordinates")


def _press(target: widgets.Target, button: str, clicks: int) -> Clicked:
    """A control behind another window: its own action does what one left click would."""
    element = target.element
    assert element is not None
    where = f"{element.describe()} is behind {target.covered_by!r}"
    if button != "left" or clicks != 1:
        raise widgets.Covered(f"{where}: only a single left click can be done through its "
                              f"action; bring it forward with computer.windows.focus("
                              f"{element.window!r})")
    try:
        action = a11y.act(element)
    except LookupError:
        raise widgets.Covered(f"{where} and offers no action: bring it forward with "
                              f"computer.windows.focus({element.window!r})") from None
    return Clicked(*target.point, via=f"accessibility action {action!r}",
                   what=element.describe())


def move(x: float, y: float) -> None:
    """Put the pointer at (x, y) instantly."""
    px, py = display.viewport().to_physical(x, y)
    _act("moveTo", px, py)
    _moved(px, py)


def click(  # noqa: PLR0913 - generated code's one call: a name, a point or an id, and how
        text_or_x: str | float | tuple[float, float] | None = None, y: float | None = None, *,
        x: float | None = None, button: str = "left", clicks: int = 1,
        index: int | None = None, near: str | None = None, id: int | None = None,
        role: str | None = None, window: str | None = None, **pyautogui: Any) -> Clicked:
    """Click a control or text by name, found in the windows' accessibility tree (icons
    too) and else by OCR (`click("Settings")`; `role="button"` takes only buttons), a
    point (`click(120, 40)`, `click(x=120, y=40)`), a text-map id (`click(id=7)`), or
    where the pointer is.

    Exact beats contains; among equals a button, link, check box, tab or field beats plain
    text. `role` is "button", "link", "checkbox", "entry", "label", "tab", "menu item"...;
    `window="Title"` looks only in that window, even behind others (a covered control's
    own action is used then); `index=N` or `near="other text"` chooses among equal
    matches. pyautogui's own arguments (`duration`, `interval`, `tween`) are taken and
    not needed. Returns the physical pixel, with `.via` saying how the target was found.
    """
    _pyautogui_only(pyautogui)
    if isinstance(text_or_x, (tuple, list)):
        if len(text_or_x) != 2 or y is not None:
            raise ValueError("give a point as click((x, y)) or click(x, y)")
        text_or_x, y = text_or_x  # pyautogui's click((x, y))
    if x is not None:
        if text_or_x is not None:
            raise ValueError("give the point once: click(x=120, y=40) or click(120, 40)")
        text_or_x = x
    wanted = widgets.Wanted(text_or_x, role, window, index, near) \
        if isinstance(text_or_x, str) else None
    target = _target(text_or_x, y, id, wanted)
    if target.covered_by:
        return _press(target, button, clicks)
    px, py = target.point
    _act("click", px, py, clicks=clicks, interval=0.05 if clicks > 1 else 0.0, button=button)
    _moved(px, py)
    return Clicked(px, py, target.via, target.element.describe() if target.element else "")


PYAUTOGUI_ONLY = {"duration", "interval", "tween", "logScreenshot", "_pause"}


def _pyautogui_only(given: dict[str, Any]) -> None:
    """pyautogui's arguments that change nothing here are taken; any other is a mistake."""
    unknown = sorted(set(given) - PYAUTOGUI_ONLY)
    if unknown:
        raise TypeError(f"click() got unexpected argument(s) {', '.join(unknown)}: it takes a "
                        "name (click('Save')), a point (click(x=120, y=40)) or an id "
                        "(click(id=7))")


def double_click(text_or_x: str | float | None = None, y: float | None = None,
                 **kwargs: Any) -> Clicked:
    """Double-click, taking the same arguments as click()."""
    return click(text_or_x, y, clicks=2, **kwargs)


def right_click(text_or_x: str | float | None = None, y: float | None = None,
                **kwargs: Any) -> Clicked:
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
