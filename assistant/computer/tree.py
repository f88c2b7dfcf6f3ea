"""The windows on screen as their controls, each with a name a person would use.

a11y.elements reads what has a name, for finding text; a person also means controls that
have none of their own: a field named by the label beside it ("Your name:"), the tick box
of a list row named by the row ("Photos"). This module reads a window whole, gives those
controls the names a person sees, and says each one's state (checked, selected, focused,
editable, disabled) and text. The verbs (verbs.py), the screen as text (screen_text.py)
and the approval's sentence (aim.py) all read windows through it, so what the model is
shown, what a run acts on and what a person approves are one thing.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from assistant.computer import a11y, dates
from assistant.computer.coords import Rect

BUDGET_S = 2.0  # one read of every window; what was read by then is kept
# One read at a time in a process: the daemon gathers a take's hints on a thread of their
# own while a turn may read the screen, and libatspi does not promise to serve two threads
# at once. A wait here does not eat the time budget.
_reading = threading.Lock()
STATES = {"enabled": "SENSITIVE", "focused": "FOCUSED", "checked": "CHECKED",
          "selected": "SELECTED", "editable": "EDITABLE", "multi line": "MULTI_LINE"}
BUTTONS = frozenset({"push button", "toggle button", "link", "menu item", "menu", "page tab",
                     "push button menu"})
CHOICES = frozenset({"radio button", "list item", "tree item", "table cell", "menu item",
                     "radio menu item", "page tab", "combo box"})
TICKS = frozenset({"check box", "check menu item", "toggle button", "radio button"})
FIELDS = a11y.EDITABLE | {"slider"}  # a slider takes a number typed into it
SWITCHES = frozenset({"toggle button", "check box", "switch"})  # named by a label beside
ENTRIES = frozenset({"menu item", "list item", "option"})  # a drop-down's, inside its box
LABEL_CHARS = 40  # a longer text beside a field is a sentence (a warning), not its name
UNPLACED = -(2 ** 31)  # the box GTK gives a list's row it has not laid out (scrolled off)
TEXTS = frozenset({"label", "static", "heading", "paragraph", "caption", "description"})
HOLDERS = frozenset({"filler", "panel", "scroll pane", "viewport", "table", "tree table",
                     "list", "tree", "layered pane", "split pane", "tool bar", "status bar",
                     "section", "form", "grouping", "menu bar", "page tab list", "scroll bar",
                     "separator", "table column header", "table row header", "unknown",
                     "document web", "document frame", "internal frame", "root pane"})


@dataclass
class Control:
    """One control or text of a window; `toggle`: a list row's tick box (a radio list's
    too), which only knows it is checked; `label`: a text that names a field; `chrome`: a
    browser's own (its tabs, toolbar, infobars), outside the page it shows."""

    name: str
    role: str
    box: Rect
    states: frozenset[str]
    window: str
    value: str = ""
    toggle: bool = False
    label: bool = False
    chrome: bool = False
    ref: Any = field(default=None, compare=False, repr=False)

    @property
    def enabled(self) -> bool:
        return "enabled" in self.states

    @property
    def checked(self) -> bool:
        return "checked" in self.states

    @property
    def field(self) -> bool:
        """Whether text goes into it: a page's paragraph is a field only where editable."""
        return self.role in FIELDS and (self.role not in TEXTS or "editable" in self.states)

    def center(self) -> tuple[int, int]:
        return self.box.left + self.box.width // 2, self.box.top + self.box.height // 2


@dataclass
class Window:
    """A top-level window: its title, its kind ("dialog", "frame", "alert"...), whether
    it has the keyboard focus, and its controls in the order the window lists them."""

    title: str
    role: str
    active: bool
    pid: int
    controls: list[Control]
    box: Rect | None = None

    def kind(self) -> str:
        """How a sentence calls it: "the dialog 'Export'", "the window 'Memo.txt'"."""
        word = "dialog" if self.role in ("dialog", "alert", "file chooser") else "window"
        return f"the {word} {self.title!r}"


def _chrome(found: list[Control], pages: list[Rect]) -> None:
    """Mark a browser's own controls: those outside every page it shows."""
    for control in found if pages else ():
        middle = control.center()
        control.chrome = not any(page.contains(*middle) for page in pages)


def _row_names(controls: list[Control]) -> None:
    """A list row's unnamed cells (its tick box) take the row's name: the named cell
    whose box shares their line."""
    cells = [c for c in controls if c.role == "table cell"]
    for cell in cells:
        if cell.name:
            continue
        middle = cell.box.top + cell.box.height / 2
        row = [c for c in cells if c.name and c.box.top <= middle < c.box.top + c.box.height]
        if row:
            cell.name = min(row, key=lambda c: abs(c.box.left - cell.box.left)).name


def _field_names(controls: list[Control]) -> None:
    """An unnamed field takes the label on its left on the same line, else the one just
    above it; that label then names it, and is not said again as text. An unnamed switch
    (a settings row's) takes the label on its left."""
    labels = [c for c in controls if c.role in TEXTS and c.name
              and len(c.name) <= LABEL_CHARS]
    named = {c.name for c in controls if c.field and c.name}
    for label in labels:
        label.label = label.name in named  # the field's own label, by relation
    for each in controls:
        if each.name or not (each.field or each.role in SWITCHES):
            continue
        middle = each.box.top + each.box.height / 2
        left = [lab for lab in labels if lab.box.top <= middle < lab.box.top + lab.box.height
                and lab.box.left + lab.box.width <= each.box.left + 8]
        above = [lab for lab in labels if 0 <= each.box.top - (lab.box.top + lab.box.height) < 30
                 and lab.box.left < each.box.left + each.box.width
                 and each.box.left < lab.box.left + lab.box.width]
        if left:
            chosen = max(left, key=lambda lab: lab.box.left)
        elif above and each.field:
            chosen = max(above, key=lambda lab: lab.box.top)
        else:
            continue
        each.name = chosen.name
        chosen.label = True


def _drop_downs(controls: list[Control]) -> list[Control]:
    """A closed drop-down's entries (a page's <select> lists them as showing) are left
    out, and the one selected is the drop-down's value."""
    combos = [c for c in controls if c.role == "combo box"]
    kept = []
    for each in controls:
        inside = each.role in ENTRIES and next(
            (c for c in combos if c.box.contains(*each.center())), None)
        if not inside:
            kept.append(each)
        elif "selected" in each.states and not inside.value:
            inside.value = each.name
    return kept


def _lists(combo: Any, name: str) -> bool:
    """Whether the drop-down `combo` has an entry named `name`: GTK names a drop-down by
    the entry it shows ("Check-up"), where a person names it by the label beside it
    ("Visit type") and a page's <select> gives that entry as its value."""
    return name in _entries(combo)


def entries(combo: Control) -> list[str]:
    """The names of a drop-down's entries, closed as it is (GTK keeps them in its menu)."""
    if combo.ref is None:
        return []
    with _reading:
        try:
            return _entries(combo.ref)
        except Exception:  # the drop-down went away
            return []


def _entries(combo: Any) -> list[str]:
    names = []
    for i in range(min(combo.get_child_count(), 2)):
        menu = combo.get_child_at_index(i)
        if menu is None or menu.get_role_name() != "menu":
            continue
        for j in range(min(menu.get_child_count(), 200)):
            entry = menu.get_child_at_index(j)
            name = (entry.get_name() or "").strip() if entry is not None else ""
            if name:
                names.append(name)
    return names


def _actions(node: Any, atspi: Any) -> list[str]:
    import warnings

    if "Action" not in node.get_interfaces():
        return []
    with warnings.catch_warnings():  # its new name, get_name, is hidden by Accessible's
        warnings.simplefilter("ignore", DeprecationWarning)
        return [atspi.Action.get_action_name(node, i)
                for i in range(atspi.Action.get_n_actions(node))]


def _read(atspi: Any, frame: Any, title: str, deadline: float) -> list[Control]:
    """A window's showing controls: a Collection call per state, a few calls per control."""
    showing = atspi.StateType.SHOWING
    nodes = a11y._matches(atspi, frame, showing)
    lists = {state: a11y._matches(atspi, frame, showing, getattr(atspi.StateType, nick))
             for state, nick in STATES.items()}  # kept alive while ids are compared
    having = {state: {id(n) for n in found} for state, found in lists.items()}
    found = []
    pages: list[Rect] = []  # where a browser shows its page
    for node in nodes:
        if time.monotonic() > deadline:
            break
        try:
            role = node.get_role_name()
            if role == "document web":
                pages.append(a11y._rect(node, atspi))
            if role in HOLDERS:
                continue
            name = (node.get_name() or "").strip()
            if not name and role in a11y.ACTIONABLE:
                name = a11y._label(node, atspi).strip()
            box = a11y._rect(node, atspi)
            if box.width <= 0 or box.height <= 0:
                continue
            states = frozenset(s for s, ids in having.items() if id(node) in ids)
            value = ""
            if role in FIELDS and (role not in TEXTS or "editable" in states) and \
                    "Text" in node.get_interfaces():  # a page's objects are U+FFFC in it
                value = (atspi.Text.get_text(node, 0, -1) or "").replace("\ufffc", "")
            if role == "slider":  # named by its value ("50"): named by its label instead
                value = a11y.number(node)
                name = "" if name == value else name
            toggle = role == "table cell" and not name and "toggle" in _actions(node, atspi)
            if role == "calendar":  # it publishes no more than its box: its heading, by OCR
                value = str(dates.heading(box) or "")
            if role == "combo box" and name and not value and _lists(node, name):
                name, value = "", name  # named by the entry it shows: by its label instead
        except Exception:  # gone while we looked
            continue
        if name or value or toggle or role in SWITCHES or role == "calendar" or \
                (role in FIELDS and (role not in TEXTS or "editable" in states)):
            found.append(Control(name, role, box, states, title, value, toggle, ref=node))
    found = _drop_downs(found)
    _chrome(found, pages)
    _row_names(found)
    _field_names(found)
    found.sort(key=lambda c: (c.box.top <= UNPLACED,  # rows scrolled off: after the rest
                              c.box.top + c.box.height // 2 if c.role != "table cell"
                              else c.box.top, c.box.left))  # reading order
    return found


def windows(title: str | None = None) -> list[Window]:
    """The showing windows (or those whose title contains `title`), the one with the
    keyboard focus first; empty where no window publishes a tree."""
    atspi = a11y._atspi()
    if atspi is None:
        return []
    with _reading:
        found = _read_windows(atspi, title)
    return _ordered(found)


def _read_windows(atspi: Any, title: str | None) -> list[Window]:
    """Every showing window (or those titled like `title`) within the time budget."""
    deadline = time.monotonic() + BUDGET_S
    found: list[Window] = []
    try:
        frames = _frames(atspi, title)
    except Exception:  # the registry itself went away
        return []
    for frame, name, pid in frames:
        if time.monotonic() > deadline:
            break
        try:
            active = frame.get_state_set().contains(atspi.StateType.ACTIVE)
            role = frame.get_role_name()
            box = a11y._rect(frame, atspi)
            controls = _read(atspi, frame, name, deadline)
        except Exception:  # one window that hangs or goes away hides nothing else
            continue
        found.append(Window(name, role, active, pid, controls, box))
    return found


def _frames(atspi: Any, title: str | None) -> list[tuple[Any, str, int]]:
    """The top-level windows (or those titled like `title`), each with its title; one
    whose tree has no name (a GTK window with a header bar) takes the title the window
    manager shows for its process."""
    found = [each for each in a11y._frames(atspi, title) if each[1]] if title else []
    showing = a11y._frames(atspi, None)
    untitled = [each for each in showing if not each[1]]
    titles = _x_titles({name for _, name, _ in showing}) if untitled else {}
    wanted = title.casefold() if title else ""
    for frame, name, pid in showing if title is None else untitled:
        name = name or titles.get(pid, "")
        if wanted in name.casefold():
            found.append((frame, name, pid))
    return found


def _x_titles(taken: set[str]) -> dict[int, str]:
    """Each process's first window title the tree does not name already."""
    from assistant.computer import windows as x_windows

    try:
        stacked = x_windows.stacking()
    except Exception:  # no window list (Wayland, no Xlib)
        return {}
    titles: dict[int, str] = {}
    for each in stacked:
        if each["pid"] and each["title"] not in taken:
            titles.setdefault(each["pid"], each["title"])
    return titles


def _ordered(found: list[Window]) -> list[Window]:
    """The active window first, then the others from the top of the stack down."""
    from assistant.computer import windows as x_windows

    try:
        stacked = [w["title"] for w in reversed(x_windows.stacking())]
    except Exception:  # no window list (Wayland, no Xlib): the tree's order
        stacked = []

    def place(window: Window) -> tuple[bool, int]:
        where = stacked.index(window.title) if window.title in stacked else len(stacked)
        return not window.active, where

    return sorted(found, key=place)


def window(title: str | None = None) -> Window | None:
    """The window titled like `title` (exact first, then contains), else the active one."""
    found = windows(title)
    if title is None:
        return found[0] if found else None
    wanted = title.casefold().strip()
    exact = [w for w in found if w.title.casefold().strip() == wanted]
    chosen = exact or found
    return chosen[0] if chosen else None
