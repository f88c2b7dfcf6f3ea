"""The accessibility tree (AT-SPI): the widgets that windows publish for screen readers.

GTK, Qt, Firefox, LibreOffice and Chromium/Electron (with accessibility on) publish each
control's name, role, states and box over D-Bus. That is exact where OCR guesses, knows
icons that show no text, and costs milliseconds. Where there is no accessibility bus, or
a window publishes nothing (Tk, games, remote desktops), every answer here is empty.

A read is bounded by a time budget (what was read by then is kept) and cached per window
and screen content: the caller passes a key of the pixels, so a changed screen reads again.
Boxes are physical screen pixels, as windows and mouse use them.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from assistant.computer.coords import Rect

BUDGET_S = 1.0  # one read of the tree; a larger window is cut off there
CALL_MS = 300  # one D-Bus call: an application that hangs costs at most this
_CACHE_SIZE = 4
PACKAGES = ("at-spi2-core", "gir1.2-atspi-2.0", "libatk-adaptor")
FIX = f"sudo apt-get install {' '.join(PACKAGES)}"
# Roles a person clicks or types into: preferred over text that merely says the same.
ACTIONABLE = frozenset({
    "push button", "toggle button", "radio button", "check box", "menu item",
    "check menu item", "radio menu item", "link", "page tab", "entry", "text",
    "password text", "spin button", "combo box", "list item", "tree item", "table cell",
    "slider", "push button menu", "icon",
})
EDITABLE = frozenset({"entry", "text", "password text", "spin button", "combo box",
                      "terminal", "paragraph", "document text"})
_STATES = {"enabled": "SENSITIVE", "focused": "FOCUSED", "checked": "CHECKED"}
_lock = threading.Lock()
_bus: dict[str, Any] = {}  # the Atspi module once connected, or the reason it is not
_cache: OrderedDict[tuple[str, str], list[Element]] = OrderedDict()


@dataclass(frozen=True)
class Element:
    """One control that is showing: its box is in physical pixels."""

    name: str
    role: str
    box: Rect
    states: frozenset[str]
    window: str  # the title of its top-level window
    pid: int
    ref: Any = field(default=None, compare=False, repr=False)  # the Atspi.Accessible

    @property
    def enabled(self) -> bool:
        return "enabled" in self.states

    @property
    def actionable(self) -> bool:
        return self.role in ACTIONABLE

    def center(self) -> tuple[int, int]:
        return self.box.left + self.box.width // 2, self.box.top + self.box.height // 2

    def describe(self) -> str:
        state = "" if self.enabled else " (disabled)"
        return f"{self.role} {self.name!r}{state} in {self.window!r}"


def _bus_key() -> str:
    return "|".join(os.environ.get(name, "") for name in
                    ("AT_SPI_BUS_ADDRESS", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR",
                     "DISPLAY"))


def _session_bus() -> str:
    """The session bus's address ("" when there is none: asking for the accessibility
    bus then would start a bus through X11 autolaunch, or wait)."""
    address = os.environ.get("DBUS_SESSION_BUS_ADDRESS", "")
    socket = os.path.join(os.environ.get("XDG_RUNTIME_DIR", f"/run/user/{os.getuid()}"), "bus")
    if not address and os.path.exists(socket):
        address = f"unix:path={socket}"
    return address


def _check_bus() -> str:
    """Why the accessibility bus cannot be had ("" when it can). Asked through GIO first:
    libatspi aborts the whole process when it finds no bus."""
    if os.environ.get("AT_SPI_BUS_ADDRESS"):
        return ""
    address = _session_bus()
    if not address:
        return "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
    from gi.repository import Gio, GLib

    flags = (Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
             | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
    try:
        session = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
        try:  # a desktop without a running one starts it now (D-Bus activation)
            reply = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus",
                                      "GetAddress", None, GLib.VariantType("(s)"),
                                      Gio.DBusCallFlags.NONE, CALL_MS * 10, None)
        finally:
            session.close_sync(None)
    except GLib.Error as exc:
        return f"no accessibility bus on the session bus ({exc.message}): {FIX}"
    try:  # the bus it names may still be out of reach (another namespace, a dead launcher)
        Gio.DBusConnection.new_for_address_sync(reply.unpack()[0], flags, None,
                                                None).close_sync(None)
    except GLib.Error as exc:
        return f"the accessibility bus does not answer ({exc.message}): {FIX}"
    return ""


def _atspi() -> Any:
    """The Atspi module connected to the accessibility bus, or None (the reason is kept)."""
    key = _bus_key()
    with _lock:
        if key in _bus:
            return _bus[key] if not isinstance(_bus[key], str) else None
        _bus.clear()
        try:
            import gi

            gi.require_version("Atspi", "2.0")
            problem = _check_bus()
            if problem:
                _bus[key] = problem
                return None
            from gi.repository import Atspi

            Atspi.set_timeout(CALL_MS, CALL_MS * 10)
            Atspi.get_desktop(0).get_child_count()
        except (ImportError, ValueError) as exc:
            _bus[key] = f"PyGObject cannot load Atspi 2.0 ({exc}): {FIX}"
            return None
        except Exception as exc:  # GLib.Error: the bus did not answer
            _bus[key] = f"the accessibility bus does not answer: {exc}"
            return None
        _bus[key] = Atspi
        return Atspi


def status() -> tuple[bool, str]:
    """Whether the accessibility bus is up here, and what publishes on it (or why not)."""
    atspi = _atspi()
    if atspi is None:
        return False, _bus.get(_bus_key(), "not connected")
    desktop = atspi.get_desktop(0)
    names = []
    for index in range(desktop.get_child_count()):
        try:
            names.append(desktop.get_child_at_index(index).get_name() or "?")
        except Exception:  # an application that went away or hangs
            continue
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return True, f"up; {len(names)} applications publish their widgets ({shown or 'none yet'})"


def _rect(component: Any, atspi: Any) -> Rect:
    extents = component.get_extents(atspi.CoordType.SCREEN)
    return Rect(extents.x, extents.y, extents.width, extents.height)


def _frames(atspi: Any, window: str | None) -> list[tuple[Any, str, int]]:
    """Top-level windows that are showing (or whose title contains `window`)."""
    desktop = atspi.get_desktop(0)
    found = []
    wanted = window.casefold() if window else None
    for index in range(desktop.get_child_count()):
        try:
            app = desktop.get_child_at_index(index)
            pid = app.get_process_id()
            for child in range(app.get_child_count()):
                frame = app.get_child_at_index(child)
                title = frame.get_name() or ""
                if wanted is not None:
                    if wanted in title.casefold():
                        found.append((frame, title, pid))
                elif frame.get_state_set().contains(atspi.StateType.SHOWING):
                    found.append((frame, title, pid))
        except Exception:  # an application that went away or hangs: it shows nothing
            continue
    return found


def _matches(atspi: Any, frame: Any, *states: Any) -> list[Any]:
    """Descendants of `frame` in all of `states`: one D-Bus call for the whole window."""
    rule = atspi.MatchRule.new(
        atspi.StateSet.new(list(states)), atspi.CollectionMatchType.ALL, {},
        atspi.CollectionMatchType.NONE, [], atspi.CollectionMatchType.NONE, [],
        atspi.CollectionMatchType.NONE, False)
    return list(frame.get_matches(rule, atspi.CollectionSortOrder.CANONICAL, 0, True))


def _label(node: Any, atspi: Any) -> str:
    """The name an unnamed control gets from the label that points at it ("Customer" for
    the field beside it), else its description (an icon's tooltip)."""
    for relation in node.get_relation_set() or []:
        if relation.get_relation_type() == atspi.RelationType.LABELLED_BY:
            names = [relation.get_target(i).get_name() for i in range(relation.get_n_targets())]
            joined = " ".join(n for n in names if n)
            if joined:
                return joined
    return node.get_description() or ""


def _read_frame(atspi: Any, frame: Any, title: str, pid: int,
                deadline: float) -> list[Element]:
    """A window's named controls. States come from one Collection call per state rather
    than one call per control (libatspi hands out one object per control, so identity
    tells them apart); name, role and box cost a call each."""
    showing = atspi.StateType.SHOWING
    nodes = _matches(atspi, frame, showing, atspi.StateType.VISIBLE)
    lists = {state: _matches(atspi, frame, showing, getattr(atspi.StateType, nick))
             for state, nick in _STATES.items()}  # kept alive while ids are compared
    having = {state: {id(n) for n in found} for state, found in lists.items()}
    found = []
    for node in nodes:
        if time.monotonic() > deadline:
            break
        try:
            role = node.get_role_name()
            name = node.get_name() or ""
            if not name and role in ACTIONABLE:
                name = _label(node, atspi)
            if not name:
                continue
            box = _rect(node, atspi)
        except Exception:  # gone while we looked
            continue
        if box.width > 0 and box.height > 0:
            held = frozenset(state for state, ids in having.items() if id(node) in ids)
            found.append(Element(name, role, box, held, title, pid, node))
    return found


def elements(window: str | None = None, screen: str = "") -> list[Element]:
    """The named controls that are showing in the windows on screen, or in those whose
    title contains `window`; empty where nothing publishes a tree.

    `screen` is a key of the screen's pixels: the same key returns the cached read.
    """
    atspi = _atspi()
    if atspi is None:
        return []
    key = (window or "", screen)
    with _lock:
        if screen and key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    deadline = time.monotonic() + BUDGET_S
    found: list[Element] = []
    try:
        for frame, title, pid in _frames(atspi, window):
            if time.monotonic() > deadline:
                break
            try:
                found.extend(_read_frame(atspi, frame, title, pid, deadline))
            except Exception:  # one window that hangs or goes away hides nothing else
                continue
    except Exception:  # the registry itself went away
        return []
    if screen:
        with _lock:
            _cache[key] = found
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    return found


def forget() -> None:
    """Drop the cached reads: the next one asks the applications again."""
    with _lock:
        _cache.clear()


def act(element: Element) -> str:
    """Do the element's own action (what a click does) without the pointer; its name."""
    atspi = _atspi()
    if atspi is None or "Action" not in element.ref.get_interfaces():
        raise LookupError(f"{element.describe()} offers no action")
    action = atspi.Action
    with warnings.catch_warnings():  # its new name, get_name, is hidden by Accessible's
        warnings.simplefilter("ignore", DeprecationWarning)
        names = [action.get_action_name(element.ref, i)
                 for i in range(action.get_n_actions(element.ref))]
    for wanted in ("click", "press", "activate", "toggle", "jump"):
        if wanted in names:
            action.do_action(element.ref, names.index(wanted))
            return wanted
    if not names:
        raise LookupError(f"{element.describe()} offers no action")
    action.do_action(element.ref, 0)
    return names[0]


def put_text(element: Element, text: str) -> bool:
    """Replace the element's text through its editable-text interface; False where it has
    none, or the text did not land there (then the caller types). The field is focused
    first and waited for: Chromium writes into the field that has the focus. The old text
    is deleted and the new inserted, as typing does (GTK's file chooser enables Save on
    an insertion, not on the text set whole)."""
    if "EditableText" not in element.ref.get_interfaces():
        return False
    focus(element)
    focused(element)
    atspi = _atspi()
    try:
        old = len(atspi.Text.get_text(element.ref, 0, -1) or "")
        done = atspi.EditableText.delete_text(element.ref, 0, old) and \
            atspi.EditableText.insert_text(element.ref, 0, text, len(text.encode()))
    except Exception:  # refused: typed instead
        return False
    return bool(done) and (
        element.role == "password text" or holds(element, text, 0.0))  # it shows bullets


def number(node: Any) -> str:
    """A slider's value as text: "30", not "30.0"; empty when it has none to read."""
    try:
        value = float(_atspi().Value.get_current_value(node))
    except Exception:  # no Value interface
        return ""
    return str(int(value)) if value.is_integer() else f"{value:g}"


def set_number(element: Element, text: str) -> None:
    """Set a slider to the number `text`; a ValueError says what it takes."""
    value = _atspi().Value
    low, high = value.get_minimum_value(element.ref), value.get_maximum_value(element.ref)
    try:
        wanted = float(text.strip().rstrip("%"))
    except ValueError:
        raise ValueError(f"{element.describe()} takes a number from {low:g} to {high:g}, "
                         f"not {text!r}") from None
    if not low <= wanted <= high:
        raise ValueError(f"{element.describe()} goes from {low:g} to {high:g}, not {wanted:g}")
    value.set_current_value(element.ref, wanted)


def holds(element: Element, text: str, timeout: float = 1.0) -> bool:
    """Whether the element's text is `text`, waited for up to `timeout` seconds (typed
    keys reach a browser's tree a moment later); True where it has no text to read."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if _atspi().Text.get_text(element.ref, 0, -1) == text:
                return True
        except Exception:  # no text to read back: taken on its word
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)


def focused(element: Element, timeout: float = 1.0) -> bool:
    """Whether the element has the keyboard focus, waited for up to `timeout` seconds
    (a browser takes it a moment after the click or the request)."""
    atspi = _atspi()
    deadline = time.monotonic() + timeout
    while True:
        try:
            if element.ref.get_state_set().contains(atspi.StateType.FOCUSED):
                return True
        except Exception:  # gone while we looked
            return False
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)


def focus(element: Element) -> bool:
    """Give the element the keyboard focus; False when it cannot take it this way."""
    try:
        return bool(element.ref.grab_focus())
    except Exception:  # no Component interface, or the application refuses
        return False
