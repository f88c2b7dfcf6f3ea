"""A window shown without taking the keyboard: the panel of a spoken turn.

Tk cannot ask the window manager not to focus a window it maps (it drops the
_NET_WM_USER_TIME of 0 that says so), and openbox, like most window managers, focuses a
new window: the panel took the keyboard from the dialog the person was speaking about.
So the window that had the focus when the panel was shown gets it back, through the
window manager (EWMH _NET_ACTIVE_WINDOW, asked as a pager asks), when the panel is given
the focus within a moment of being shown. Where X cannot say which window had it (no
window manager, Wayland), nothing is done.

A turn reads the screen as soon as its panel is up; while the panel holds the keyboard,
no window the person sees is the focused one, and "click Yes" has no dialog to act on. So
the turn waits (`FocusKeeper.settle`) until the focus is out of the panel: given back, or
never taken where no window manager focuses new windows.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

GIVE_BACK_S = 5.0  # later, the person gave it (a click); on a busy machine the window
# manager's focus can reach the panel seconds after it was shown
QUIET_S = 0.25  # the focus stayed out of the shown window this long: the window manager
# focuses a new window as it maps it, in the same step, so it is not going to take it now
ASK_AGAIN_S = 0.25  # while the shown window holds the focus (settle)
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


def _within(frame: int) -> Callable[[Any], int]:
    """1 when the X input focus is in `frame` (a top-level window or its frame), else 0."""
    def ask(connection: Any) -> int:
        root = connection.screen().root.id
        window = connection.get_input_focus().focus
        while hasattr(window, "id") and window.id not in (0, root):  # else None/PointerRoot
            if window.id == frame:
                return 1
            window = window.query_tree().parent
        return 0
    return ask


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
        self._noted = 0  # the window to give the focus back to once settled

    def note(self) -> None:
        """Remember the window that has the focus now."""
        self._held, self._at = _x(_active), time.monotonic()
        self._noted = self._held

    def forget(self) -> None:
        """The window is meant to have the focus (a proposal waits for Run)."""
        self._held = self._noted = 0

    def give_back(self) -> None:
        """The shown window got the focus: back to the noted one, if that was just now."""
        held, self._held = self._held, 0
        if held and time.monotonic() - self._at < GIVE_BACK_S:
            _x(_activate(held))

    def settle(self, frame: int, shown: Callable[[], bool]) -> None:
        """Wait, until GIVE_BACK_S after `note`, for the keyboard focus to be out of the
        window just shown (`frame`: its X id, or its window manager's frame; either holds
        any focus it has; on screen once `shown`) for QUIET_S,
        asking the window manager again every ASK_AGAIN_S while it is in. Returns at once
        unless a window had the focus when it was shown.

        Asked again because a window manager may take the first request before it has
        seen its own focus reach the new window: openbox then finds the noted window
        focused already, does nothing, and the new window keeps the focus."""
        held, self._noted = self._noted, 0
        if not held:
            return
        deadline = self._at + GIVE_BACK_S
        out_since = asked = 0.0
        while (now := time.monotonic()) < deadline:
            if not shown():
                out_since = 0.0
            elif _x(_within(frame)):
                out_since = 0.0
                if now - asked >= ASK_AGAIN_S:
                    _x(_activate(held))
                    asked = now
            elif not out_since:
                out_since = now
            elif now - out_since >= QUIET_S:
                return
            time.sleep(0.05)
