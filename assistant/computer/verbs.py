"""The few verbs a small model writes right the first time: a control by its role and name.

    computer.press("Yes")                        a button (in the focused window first)
    computer.choose("Dark")                      a radio button, list row, tab or menu item
    computer.tick("Photos"); computer.untick("Music")
    computer.type("Ana Lopez", into="Your name:")
    computer.type("Dear Ana,", window="Memo.txt")
    computer.fill({"Your name:": "Ana", "Password:": "x"}, window="Sign in")
    computer.close("Export"); computer.focus("Memo.txt"); computer.read("Build")

Controls are found in the windows' accessibility trees (tree.py), the focused window
first, and acted on through their own actions, so a dialog behind another still answers.
Each verb returns what it did in one sentence; a miss says what is there instead ("no
button 'Maybe' in the dialog 'Export'; its buttons: No, Yes").
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from functools import wraps
from pathlib import Path
from typing import ParamSpec

from assistant.computer import a11y, acting, dark, dates, finding, keyboard, textmatch, tree
from assistant.computer import windows as x_windows
from assistant.computer.finding import NotOnScreen, find, titles
from assistant.computer.said import Said
from assistant.computer.screen_text import field_word
from assistant.computer.tree import Control, Window

P = ParamSpec("P")

__all__ = ["choose", "close", "fill", "focus", "key", "press", "read", "tick", "type",
           "untick"]

ACTIONS = ("click", "press", "activate", "toggle", "jump")
DISMISSALS = frozenset({"cancel", "close", "dismiss"})  # pressed where no button is so named
LOCATION_S = 3.0  # for a file chooser's location field to show after Ctrl+L
# Where in an editor's text `type(..., at=)` types, in the words models write.
PLACES: dict[str | None, str | None] = {
    None: None, "cursor": None, "end": "end", "bottom": "end", "start": "start",
    "top": "start", "beginning": "start"}


def said(verb: Callable[P, str]) -> Callable[P, Said]:
    """A verb's sentence reads as itself when a run's last line is the call (no quotes)."""
    @wraps(verb)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> Said:
        return Said(verb(*args, **kwargs))
    return wrapper


def _no_tree() -> str:
    up, why = a11y.status()
    return why if not up else "click it by its text instead: computer.mouse.click('Name')"


@said
def press(name: str, window: str | None = None) -> str:
    """Press the button `name` (a link, tab or menu item too); a key name with no such
    button on screen ("enter", "esc", "ctrl+s") presses that key."""
    try:
        found = pressed(name, window)
    except NotOnScreen:
        shut = dismissed(name, window)
        if shut is None:
            raise
        x_windows.close(shut.title)
        finding.acted()
        return f"Closed {shut.kind()}: it has no {name} button, and closing it chooses nothing."
    if found is None:
        return key(name)
    control, where = found
    deadline = time.monotonic() + 1.0
    while not control.enabled and time.monotonic() < deadline:  # a field just typed
        time.sleep(0.1)  # into enables its dialog's button a moment later
        control, where = pressed(name, window) or found
    if control.role == "page tab":  # its action does not bring a GTK notebook's page up
        acting.select(control, where)
    else:
        acting.do(control, where)
    finding.acted()  # what it opens is waited for by the next call
    return f"Pressed {control.name} in {where.kind()}."


def pressed(name: str, window: str | None = None) -> tuple[Control, Window] | None:
    """What press(name, window) presses: a button, else a control of another role with
    exactly that name, else None for a key of that name; a miss names what is there."""
    key_named = bool(textmatch.normalize(name)) and keyboard.is_key(name)
    try:  # a key's name is pressed as the key: no button so named is waited for
        found = find(name, "button", window, settle=not key_named)
    except NotOnScreen as miss:
        other = exact_control(name, window)
        if other is not None:
            return other
        if key_named:
            return None
        raise miss from None
    if found[0].name != name:  # "Page 2": the radio so written, not the tab "page 2"
        other = exact_control(name, window)
        if other is not None and other[0].name == name:
            return other
    return found


def dismissed(name: str, window: str | None) -> Window | None:
    """The dialog a press of Cancel or Close means when it has no such button ("Move to
    Trash, Delete permanently" and no other): closed, as its title bar's close button
    would, it answers nothing. Asked to get rid of a dialog without deleting anything, a
    small model pressed the Cancel it did not have five times. None for any other name or
    window."""
    wanted = textmatch.normalize(name)
    if wanted not in DISMISSALS:
        return None
    target = tree.window(window)
    if target is None or not finding.waits(target) or \
            any(textmatch.normalize(c.name) == wanted for c in target.controls):
        return None
    return target


def exact_control(name: str, window: str | None) -> tuple[Control, Window] | None:
    """A control of another role with exactly that name: a tick box, a list row."""
    for kind in ("tick box", "item"):
        try:
            control, where = find(name, kind, window)
        except NotOnScreen:
            continue
        if textmatch.normalize(control.name) == textmatch.normalize(name):
            return control, where
    return None


@said
def choose(item: str, window: str | None = None, into: str | None = None) -> str:
    """Choose `item`: a radio button, a row of a list (its tick box, in a radio list), a
    tab, a menu item, or an entry of a drop-down list. `into`, as models write it
    (`choose("23", into="Calendar")`), names the list or calendar the item is in: the
    item is found by its own name, and `into` is the window when one is so titled."""
    if window is None and into is not None and tree.windows(into):
        window = into
    try:
        control, where = find(item, "item", window, settle=False)
    except NotOnScreen:  # a calendar's day, a file chooser's file, a tick box, an entry
        located = _dated(item, window) or locate(item, window)  # of a drop-down list, or
        if located is not None:  # in a window still opening
            return located
        box = exact_control(item, window)
        if box is not None and finding.is_kind(box[0], "tick box"):  # "choose I agree"
            return _set(box[0].name, box[1].title, True)
        control, where, combo = _in_combo(item, window)
        a11y.act(acting.element(control))
        acting.closed(combo)
        return f"Chose {control.name} in {where.kind()}."
    if control.toggle or control.role in ("radio button", "radio menu item"):
        if not control.checked:
            acting.do(control, where)
    elif control.role in ("table cell", "page tab"):
        acting.select(control, where)
    else:
        acting.do(control, where)
        finding.acted()  # a menu item's dialog is waited for by the next call
    return f"Chose {control.name} in {where.kind()}."


def calendar(text: str, window: str | None) -> tuple[Control, Window, dates.Wanted] | None:
    """The calendar a date is chosen in (the focused window's first), with the date in
    `text`; None when `text` is not a date or no window shows a calendar."""
    want = dates.wanted(text)
    if want is None:
        return None
    found = next(((c, w) for w in tree.windows(window) for c in w.controls
                  if c.role == "calendar"), None)
    return None if found is None else (*found, want)


def _dated(text: str, window: str | None) -> str | None:
    """The date in `text` chosen in the calendar on screen (dates.py says how), or None."""
    found = calendar(text, window)
    if found is None:
        return None
    control, where, want = found
    acting.front(where)
    a11y.focus(acting.element(control))
    date = dates.pick(control.box, want)
    return f"Chose {dates.said(date)} in the calendar in {where.kind()}."


def _in_combo(item: str, window: str | None) -> tuple[Control, Window, Control | None]:
    """An entry of a closed drop-down list, the drop-down's window (the one said) and the
    drop-down, opened to show its entries."""
    for each in tree.windows(window):
        for combo in (c for c in each.controls if c.role == "combo box"):
            entry = acting.opened(combo, each, item)
            if entry is not None:
                return entry, each, combo
    return (*find(item, "item", window), None)  # raises, naming what is there


@said
def tick(*names: str, window: str | None = None) -> str:
    """Tick the check boxes (or list rows) `names`; one already ticked stays so."""
    return " ".join(_set(name, window, True) for name in _given(names))


@said
def untick(*names: str, window: str | None = None) -> str:
    """Clear the check boxes (or list rows) `names`; one already clear stays so."""
    return " ".join(_set(name, window, False) for name in _given(names))


def _given(names: tuple[str, ...]) -> list[str]:
    """Names given one by one or as one list: tick("Photos", "Music"), tick(["Photos"])."""
    flat = [str(n) for each in names for n in ([each] if isinstance(each, str) else each)]
    if not flat:
        raise ValueError('say which: tick("Photos")')
    return flat


def _set(name: str, window: str | None, checked: bool) -> str:
    control, where = find(name, "tick box", window)
    done = "Ticked" if checked else "Unticked"
    if control.checked == checked:
        return f"{control.name} in {where.kind()} was already {done.lower()}."
    acting.do(control, where)
    return f"{done} {control.name} in {where.kind()}."


@said
def type(text: str, into: str | None = None, window: str | None = None,
         at: str | None = None) -> str:
    """Type `text` into the field labelled `into` (it then holds just that text), into the
    window titled `window` (an editor's text area, at its cursor, `at="end"` after its
    text or `at="start"` before it; a terminal, whose window publishes no controls), or
    else where the keyboard focus is. An editor's text area named by the text it holds is
    typed into at its end."""
    if at not in PLACES:
        raise ValueError(f'at={at!r}: say at="end" (after the text), at="start" (before '
                         'it) or leave it out')
    at = PLACES[at]
    if into is not None:
        try:
            control, where = find(into, "field", window)
        except NotOnScreen as miss:
            if window is None and (tree.windows(into) or finding.dark(into)):  # a window
                return type(text, window=into, at=at)
            located = _dated(text, window) or locate(text, window)
            if located is not None:
                return located
            editor = holding(into, window)
            if editor is not None:  # its text copied from the screen as if its name
                return type(text, window=editor.title, at="end")
            raise miss from None
        name = repr(control.name) if control.name else f"the {field_word(control)}"
        if control.role == "combo box" and "editable" not in control.states:
            acting.pick(control, where, text)  # a drop-down takes no text: its entry is chosen
            return f"Chose {text} in {name} in {where.kind()}."
        acting.fill_in(control, where, text)
        return f"Typed {_shown(text, control)} into {name} in {where.kind()}."
    if window is not None:
        target = tree.window(window)
        if target is None:  # no controls to name: the keys go to the window
            title = acting.front(window)
            text = dark.unprompted(text)
            keyboard.write(text)
            return f"Typed {text!r} into the window {title!r}."
        dated = _dated(text, window)
        if dated is not None:
            return dated
        lone = finding.lone_field(target)
        if lone is not None and "multi line" not in lone.states:  # a dialog's one field
            return type(text, into=lone.name or field_word(lone), window=target.title)
        acting.front(target)
        _to_text_area(target)
        if at is not None:
            keyboard.hotkey("ctrl", "end" if at == "end" else "home")
        keyboard.write(text)
        after = {"end": " after its text", "start": " before its text"}.get(at or "", "")
        return f"Typed {text!r} into {target.kind()}{after}."
    keyboard.write(text)
    return f"Typed {text!r} where the keyboard focus is."


def holding(text: str, window: str | None) -> Window | None:
    """The window whose text area holds `text` (its lines as the screen shows them)."""
    wanted = textmatch.normalize(text)
    return next((w for w in tree.windows(window) for c in w.controls
                 if c.field and "multi line" in c.states and c.value.strip()
                 and textmatch.normalize(c.value) == wanted), None)


def _to_text_area(window: Window) -> None:
    """Keys for an editor go to its text area: focused there when the focus is in no
    field (a toolbar button, a search bar closed)."""
    if any("focused" in c.states and c.field for c in window.controls):
        return
    area = text_area(window)
    if area is not None:
        a11y.focus(acting.element(area))


def text_area(window: Window) -> Control | None:
    """The window's editor text area: its first enabled field of many lines."""
    return next((c for c in window.controls
                 if c.field and "multi line" in c.states and c.enabled), None)


def editor_area(window: Window) -> Control | None:
    """The text area of a window that is an editor: one whose only field it is. A
    settings window's text view is no editor, and "put 75 in that number box" over it no
    edit of its text."""
    area = text_area(window)
    if area is None or any(c.field and c is not area for c in window.controls):
        return None
    return area


def _shown(text: str, control: Control) -> str:
    return f"{len(text)} characters" if control.role == "password text" else repr(text)


@said
def fill(fields: Mapping[str, object], window: str | None = None) -> str:
    """Fill a form: each field, named by its label, gets its text ({"Name:": "Ana"}); a
    check box named with True or False is ticked or cleared ({"Send me news": True})."""
    if not isinstance(fields, Mapping) or not fields:
        raise ValueError('give the fields as a dict: fill({"Your name:": "Ana"})')
    return " ".join(_set(label, window, value) if isinstance(value, bool) else
                    type(str(value), into=label, window=window)
                    for label, value in fields.items())


@said
def close(title: str) -> str:
    """Close the window titled like `title`, as its close button would."""
    closed = x_windows.close(title)
    return f"Closed the window {closed['title']!r}."


@said
def focus(title: str) -> str:
    """Bring the window titled like `title` forward, with the keyboard focus."""
    target = tree.window(title)
    if target is not None:
        acting.front(target)
        return f"{target.title!r} is in front."
    shown = x_windows.focus(title)
    return f"{shown['title']!r} is in front."


def read(title: str | None = None) -> str:
    """What the window titled like `title` (else the focused one) says, as text: its
    texts, and each control with its state."""
    from assistant.computer import screen_text

    target = tree.window(title)
    if target is None:
        silent = finding.dark(title) if title is not None else finding.dark_active()
        if silent is not None:  # a terminal: its text, read off the screen
            return screen_text.read_off(silent)
        if title is not None:
            raise NotOnScreen(f"no window titled {title!r}; {titles()}")
        raise NotOnScreen(f"no window publishes its controls: {_no_tree()}")
    return screen_text.window_text(target)


@said
def key(*keys: str) -> str:
    """Press a key ("enter"), or keys together ("ctrl+s", or "ctrl", "s")."""
    names = [part for each in keys for part in keyboard.split(each)]
    if len(names) == 1:
        keyboard.press(names[0])
    else:
        keyboard.hotkey(*names)
    finding.acted()  # a dialog it opens (Ctrl+Shift+S) is waited for by the next call
    return f"Pressed {'+'.join(names)}."


def locate(name: str, window: str | None = None) -> str | None:
    """Type the file `name` (the working folder's unless a whole path) into the location
    of the file chooser titled like `window` (else the focused window); what was done,
    or None when that window is no file chooser. Such a chooser starts on its recent
    files, where the file a person names is seldom a row; a person types its location
    (Ctrl+L), and the chooser's own button (OK, Open) then opens it, not this."""
    target = tree.window(window)
    if target is None or target.role != "file chooser" or not name.strip():
        return None
    path = Path(os.path.expanduser(name.strip()))
    path = path if path.is_absolute() else Path.cwd() / path
    field = _location(target)
    acting.fill_in(field, target, str(path))
    buttons = finding.names(target, "button")
    return (f"Typed {str(path)!r} into the location of {target.kind()}; its buttons: "
            f"{buttons}.")


def _location(chooser: Window) -> Control:
    """The chooser's name field (a Save chooser has one), else its location field, shown
    by Ctrl+L."""
    named = finding.matches(chooser.controls, "Name", "field")
    if named:
        return named[0]
    acting.front(chooser)
    keyboard.hotkey("ctrl", "l")
    deadline = time.monotonic() + LOCATION_S
    while True:
        shown = tree.window(chooser.title)
        fields = [c for c in shown.controls if c.field and c.enabled] if shown else []
        if fields:
            return fields[0]
        if time.monotonic() > deadline:
            raise finding.NotOnScreen(f"{chooser.kind()} shows no location field (ctrl+l)")
        time.sleep(0.1)
