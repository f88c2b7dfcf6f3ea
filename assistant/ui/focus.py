"""A window shown without taking the keyboard: the panel of a spoken turn.

Tk cannot ask the window manager not to focus a window it maps (it drops the
_NET_WM_USER_TIME of 0 that says so), and openbox, like most window managers, focuses a
new window: the panel took the keyboard from the dialog the person was speaking about.
So the window that had the focus when the panel was shown gets it back, through the
window manager (EWMH _NET_ACTIVE_WINDOW, asked as a pager asks), when the panel is given
the focus within a moment of being shown. Where X cannot say which window had it (no
window manager, Wayland), nothing is done.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

GIVE_BACK_S = 5.0  # later, the person gave it (a click); on a busy machine the window
# manager's focus can reach the panel seconds after it was shown
PAGER = 2  # EWMH source indication: a pager, which window managers always obey


def _x(action: Callable[[Any], int]) -> int:
    """`action` on a connection of its own (closed after), 0 where X cannot be reached."""
    with contextlib.suppress(Exception):
        from Xlib import display

        connection = display.Display()
        try:
            return action(connection)
        finally:
            connection.close()
    return 0


def _active(connection: Any) -> int:
    from Xlib import X

    found = connection.screen().root.get_full_property(
        connection.intern_atom("_NET_ACTIVE_WINDOW"), X.AnyPropertyType)
    return int(found.value[0]) if found is not None and len(found.value) else 0


def _activate(window: int) -> Callable[[Any], int]:
    def ask(connection: Any) -> int:
        from Xlib import X, protocol

        request = protocol.event.ClientMessage(
            window=connection.create_resource_object("window", window),
            client_type=connection.intern_atom("_NET_ACTIVE_WINDOW"),
            data=(32, [PAGER, X.CurrentTime, 0, 0, 0]))
        connection.screen().root.send_event(
            request, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
        connection.flush()
        return window
    return ask


class FocusKeeper:
    """Notes the window with the focus before a window is shown, and gives it back once."""

    def __init__(self) -> None:
        self._held = 0
        self._at = 0.0

    def note(self) -> None:
        """Remember the window that has the focus now."""
        self._held, self._at = _x(_active), time.monotonic()

    def forget(self) -> None:
        """The window is meant to have the focus (a proposal waits for Run)."""
        self._held = 0

    def give_back(self) -> None:
        """The shown window got the focus: back to the noted one, if that was just now."""
        held, self._held = self._held, 0
        if held and time.monotonic() - self._at < GIVE_BACK_S:
            _x(_activate(held))
