"""Top-level windows on X11: list them, see which is active, bring one forward.

Uses the window manager's EWMH properties; without a window manager (a bare X server)
it falls back to the X server's own window tree and input focus.
"""

from __future__ import annotations

import builtins
import contextlib
import os
import threading
from collections.abc import Iterable
from contextlib import contextmanager
from typing import Any

from assistant.computer.capability import Unavailable, gone, load, require_display

__all__ = ["active", "close", "focus", "list", "of_programs", "stacking"]


OWN = "assistant"
"""How the assistant's own windows (popup, panel, entry) are titled, alone or before ": ":
never part of the screen it reads for the model or hears hints from (its panel shows the
request itself)."""

_connections = threading.local()  # (DISPLAY, connection) per thread: opening one takes ms


@contextmanager
def _x() -> Any:
    """This thread's X connection; one that fails is dropped, and the next call reconnects."""
    if os.environ.get("WAYLAND_DISPLAY") and not os.environ.get("DISPLAY"):
        raise Unavailable("windows cannot be listed on Wayland: log in to an X11 session")
    load("Xlib")
    from Xlib import display

    where = os.environ.get("DISPLAY", "")
    held = getattr(_connections, "held", None)
    if held is not None and (held[0] != where or gone(held[1])):  # a new server, same name
        with contextlib.suppress(Exception):  # that server may be gone already
            held[1].close()
        held = None
    if held is None:
        held = _connections.held = (where, display.Display())
    try:
        yield held[1]
    except BaseException:
        _connections.held = None
        held[1].close()
        raise


def own(title: str) -> bool:
    """Whether a window so titled is one of the assistant's own."""
    return title == OWN or title.startswith(OWN + ": ")


def _name(connection: Any, window: Any) -> str:
    try:
        utf8 = connection.intern_atom("UTF8_STRING")
        prop = window.get_full_property(connection.intern_atom("_NET_WM_NAME"), utf8)
        if prop and prop.value:
            value = prop.value
            return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
        name = window.get_wm_name()
        return name.decode("latin-1") if isinstance(name, bytes) else (name or "")
    except Exception:  # the window may vanish while we look at it
        return ""


def _describe(connection: Any, window: Any) -> dict[str, Any]:
    geometry = window.get_geometry()
    origin = window.translate_coords(connection.screen().root, 0, 0)
    return {"id": window.id, "title": _name(connection, window),
            "x": -origin.x, "y": -origin.y, "width": geometry.width, "height": geometry.height}


def _clients(connection: Any) -> builtins.list[Any]:
    from Xlib import X

    root = connection.screen().root
    listed = root.get_full_property(connection.intern_atom("_NET_CLIENT_LIST"), X.AnyPropertyType)
    if listed is not None:
        return [connection.create_resource_object("window", wid) for wid in listed.value]
    found = []
    for window in root.query_tree().children:
        try:
            if window.get_attributes().map_state == X.IsViewable and _name(connection, window):
                found.append(window)
        except Exception:
            continue
    return found


# computer.windows.list() is the API code calls: it shadows the builtin here, hence builtins.list
def list() -> builtins.list[dict[str, Any]]:
    """Every top-level window with a title: {"id", "title", "x", "y", "width", "height"}."""
    from Xlib import error

    described = []
    with _x() as connection:
        for window in _clients(connection):
            try:
                described.append(_describe(connection, window))
            except (error.BadDrawable, error.BadWindow):  # it closed while listed
                continue
    return described


def active() -> dict[str, Any] | None:
    """The window that has the keyboard focus, or None."""
    from Xlib import X

    with _x() as connection:
        root = connection.screen().root
        prop = root.get_full_property(connection.intern_atom("_NET_ACTIVE_WINDOW"),
                                      X.AnyPropertyType)
        if prop is not None and prop.value and prop.value[0]:
            return _describe(connection, connection.create_resource_object("window",
                                                                           prop.value[0]))
        window = connection.get_input_focus().focus
        tops = {w.id for w in _clients(connection)}
        while not isinstance(window, int) and window.id not in tops:
            parent = window.query_tree().parent
            if not parent or parent.id == root.id:
                return None
            window = parent
        return None if isinstance(window, int) else _describe(connection, window)


def _pid(connection: Any, window: Any) -> int:
    try:
        prop = window.get_full_property(connection.intern_atom("_NET_WM_PID"), 0)
        return int(prop.value[0]) if prop is not None and len(prop.value) else 0
    except Exception:  # the window may vanish while we look at it
        return 0


def stacking() -> builtins.list[dict[str, Any]]:
    """The windows on screen from the bottom to the top: as list(), with "pid" (0 when the
    window does not say) and "class" (WM_CLASS), so what covers a point can be told."""
    from Xlib import X

    with _x() as connection:
        root = connection.screen().root
        ordered = root.get_full_property(connection.intern_atom("_NET_CLIENT_LIST_STACKING"),
                                         X.AnyPropertyType)
        if ordered is not None:
            found = [connection.create_resource_object("window", w) for w in ordered.value]
        else:  # no window manager: the X server's own order, bottom first
            found = _clients(connection)
        stacked = []
        for window in found:
            try:
                described = _describe(connection, window)
                wm_class = window.get_wm_class() or ("", "")
            except Exception:  # gone while we looked
                continue
            stacked.append({**described, "pid": _pid(connection, window),
                            "class": " ".join(wm_class)})
        return stacked


def of_programs(programs: Iterable[str]) -> builtins.list[str]:
    """The titles of the windows of `programs` (their WM_CLASS, lower-case), the top first."""
    wanted = {name.lower() for name in programs}
    return [w["title"] for w in reversed(stacking())
            if w["title"] and set(w["class"].lower().split()) & wanted]


def shown(programs: Iterable[str] | None = None) -> builtins.list[str]:
    """The titles of the windows on screen, or of those of `programs` (their X window
    class), the top one first; none without a display, or where they cannot be listed."""
    try:
        require_display()
        if programs is not None:
            return of_programs(programs)
        return [w["title"] for w in list() if w["title"]]
    except Exception:  # no display, or no X (Wayland, no Xlib)
        return []


def _titled(connection: Any, title: str) -> Any:
    """The window whose title is `title`, else the first whose title contains it."""
    wanted = title.casefold().strip()
    clients = _clients(connection)
    named = [(w, _name(connection, w).casefold().strip()) for w in clients]
    exact = [w for w, name in named if name == wanted]
    matches = exact or [w for w, name in named if wanted in name]
    if not matches:
        titles = [_name(connection, w) for w in clients]
        raise LookupError(f"no window titled like {title!r}; open windows: {titles}")
    return matches[-1]  # the newest of equals


def close(title: str) -> dict[str, Any]:
    """Close the window whose title contains `title`, as its close button would: the
    window manager asks it (_NET_CLOSE_WINDOW), or without one the window itself."""
    from Xlib import X, protocol

    with _x() as connection:
        window = _titled(connection, title)
        described = _describe(connection, window)
        root = connection.screen().root
        if root.get_full_property(connection.intern_atom("_NET_SUPPORTED"), X.AnyPropertyType):
            event = protocol.event.ClientMessage(
                window=window, client_type=connection.intern_atom("_NET_CLOSE_WINDOW"),
                data=(32, [X.CurrentTime, 2, 0, 0, 0]))
            root.send_event(event, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
        else:
            protocols = connection.intern_atom("WM_PROTOCOLS")
            event = protocol.event.ClientMessage(
                window=window, client_type=protocols,
                data=(32, [connection.intern_atom("WM_DELETE_WINDOW"), X.CurrentTime, 0, 0, 0]))
            window.send_event(event)
        connection.sync()
        return described


def focus(title: str) -> dict[str, Any]:
    """Bring forward the window whose title contains `title` (case-insensitive)."""
    from Xlib import X, protocol

    with _x() as connection:
        window = _titled(connection, title)
        root = connection.screen().root
        atom = connection.intern_atom("_NET_ACTIVE_WINDOW")
        if root.get_full_property(connection.intern_atom("_NET_SUPPORTED"), X.AnyPropertyType):
            event = protocol.event.ClientMessage(window=window, client_type=atom,
                                                 data=(32, [2, X.CurrentTime, 0, 0, 0]))
            root.send_event(event, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
        else:
            window.configure(stack_mode=X.Above)
            window.set_input_focus(X.RevertToParent, X.CurrentTime)
        connection.sync()
        return _describe(connection, window)
