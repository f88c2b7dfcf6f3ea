"""The panel of a spoken turn under a window manager that focuses every new window
(openbox): once `begin` returns, the person's dialog has the keyboard again, so the turn
that reads the screen next finds it focused (ui/focus.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from assistant.computer import tree
from assistant.ui.popup import Popup
from tests.support.desktop import Program, desktop
from tests.support.display import wait_until
from tests.support.popup_thread import popup_thread


@pytest.fixture(scope="module")
def panel(a11y_bus: str) -> Iterator[Popup]:
    with desktop(), popup_thread() as shown:
        yield shown


def focused(title: str) -> bool:
    return any(w.title == title and w.active for w in tree.windows(title))


def _active(connection: Any) -> int:
    """The window the window manager says has the focus (EWMH _NET_ACTIVE_WINDOW)."""
    from Xlib import X

    found = connection.screen().root.get_full_property(
        connection.intern_atom("_NET_ACTIVE_WINDOW"), X.AnyPropertyType)
    return int(found.value[0]) if found is not None and len(found.value) else 0


def active() -> int:
    from Xlib import display

    connection = display.Display()
    try:
        return _active(connection)
    finally:
        connection.close()


def held_for(window: int, seconds: float) -> bool:
    """Whether `window` keeps the focus at every look for `seconds`: a look is one round
    trip on an open connection, well under a millisecond, and the panel held the focus
    for milliseconds on a quiet machine."""
    from Xlib import display

    connection = display.Display()
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if _active(connection) != window:
                return False
        return True
    finally:
        connection.close()


def test_the_dialog_has_the_focus_again_when_the_panel_s_begin_returns(panel: Popup) -> None:
    with Program("zenity", "--question", "--title=Export",
                 "--text=Export the quarterly report now?") as dialog:
        dialog.focused("Export")
        window = active()
        for request in ("Click yes.", "Click no.", "Press yes."):
            assert panel.begin(request)
            assert held_for(window, 1.0), f"the panel took the focus after begin({request!r})"
            assert panel.call(lambda w: w.visible())
            assert focused("Export"), f"the dialog is not the focused one after {request!r}"
            panel.call(lambda w: w.hide())
            wait_until(lambda: not panel.call(lambda w: w.visible()), "the panel hides", 5)

