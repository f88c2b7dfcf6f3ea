"""What a snippet's desktop calls will act on, said from the windows' trees before it runs.

A person approving `computer.press("Yes")` should read what the press will hit on the
screen now: "Presses Yes in the dialog 'Export'", found the way the run will find it
(verbs.find), never the model's description of it. Each call whose arguments are written
out is read; a name the code computes at run time is said to be so. `pressed` names each
button a call presses, for the risk check (safety/desktop.py: Delete, Send, Pay...).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from assistant.computer import dark, editing, finding, keyboard, textmatch, tree, values, verbs
from assistant.computer.screen_text import field_word
from assistant.computer.tree import Window

PREFIXES = ("assistant.computer.", "computer.")


@dataclass(frozen=True)
class Aim:
    """One desktop call, in a sentence; `pressed`: the button it presses. What the screen
    should show after it (computer/after.py) is read from the rest: the `verb` ("press",
    "choose", "tick", "untick", "type" into a field, "write" at a window's cursor,
    "close", "focus", "key"), the control's name (`target`) in the window titled
    `window`, and the text typed (`value`)."""

    sentence: str
    pressed: str = ""
    window: str = ""
    verb: str = ""
    target: str = ""
    value: str = ""


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    return ""


def _value(node: ast.AST | None) -> Any:
    """A written-out argument's value; None for one computed when the code runs."""
    if node is None:
        return None
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None


def foresee(code: str) -> list[Aim]:
    """What each `computer` call of `code` that acts will act on, in order."""
    try:
        parsed = ast.parse(code)
    except SyntaxError:
        return []
    aims: list[Aim] = []
    calls = sorted((n for n in ast.walk(parsed) if isinstance(n, ast.Call)),
                   key=lambda n: (n.lineno, n.col_offset))  # in the order they are written
    for node in calls:
        name = _name(node.func)
        short = next((name[len(p):] for p in PREFIXES if name.startswith(p)), "")
        reader = READERS.get(short.removeprefix("verbs."))
        if reader is None:
            continue
        args = [_value(a) for a in node.args]
        keywords = {k.arg: _value(k.value) for k in node.keywords if k.arg}
        try:
            aims += reader(args, keywords)
        except Exception as exc:  # the screen changed while it was read: say so, not fail
            aims.append(Aim(f"Acts on the screen ({short}), which could not be read now: "
                            f"{exc}"))
    return aims


def _window(title: str | None) -> Window | None:
    return tree.window(title)


def _in(window: Window | None) -> str:
    return f" in {window.kind()}" if window is not None else ""


def _unknown(what: str) -> list[Aim]:
    return [Aim(f"{what} named only when the code runs")]


def _press(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
    name, window = (args or [None])[0], keywords.get("window")
    if not isinstance(name, str):
        return _unknown("Presses a control")
    try:
        found = verbs.pressed(name, window)
    except verbs.NotOnScreen as miss:
        shut = verbs.dismissed(name, window)
        if shut is not None:
            return [Aim(f"Closes {shut.kind()}, which has no {name} button, choosing nothing",
                        window=shut.title, verb="close")]
        return [Aim(f"Would press {name!r}, which is not on screen now ({miss})")]
    if found is None:
        return _keys([name], keywords)
    control, where = found
    return [Aim(f"Presses {control.name} in {where.kind()}", control.name, where.title,
                "press", control.name)]


def _choose(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
    item, window = (args or [None])[0], keywords.get("window")
    if not isinstance(item, str):
        return _unknown("Chooses an item")
    try:
        control, where = verbs.find(item, "item", window)
    except verbs.NotOnScreen:  # as the verb looks: a calendar's day, a file chooser's
        located = _dated(item, window) or _located(item, window)  # file, a tick box,
        if located:  # else in the first window with a drop-down
            return located
        box = verbs.exact_control(item, window)
        if box is not None and finding.is_kind(box[0], "tick box"):
            return _ticks(True)([box[0].name], {"window": box[1].title})
        combo = next((w for w in tree.windows(window)
                      if any(c.role == "combo box" for c in w.controls)), None)
        return [Aim(f"Chooses {item!r} from a drop-down list{_in(combo or _window(window))} "
                    "(its entries show only once it opens)", item,
                    combo.title if combo else window or "", "choose" if combo else "", item)]
    return [Aim(f"Chooses {control.name} in {where.kind()}", control.name, where.title,
                "choose", control.name)]


def _dated(text: Any, window: str | None) -> list[Aim]:
    """A date chosen in a calendar on screen (verbs.calendar)."""
    found = verbs.calendar(text, window) if isinstance(text, str) else None
    if found is None:
        return []
    control, where, _ = found
    shown = f", which shows {control.value}" if control.value else ""
    return [Aim(f"Chooses the day {text!r} in the calendar in {where.kind()}{shown}",
                window=where.title)]


def _located(name: Any, window: str | None) -> list[Aim]:
    """A file named in a file chooser: its location typed there (verbs.locate)."""
    chooser = tree.window(window)
    if not isinstance(name, str) or chooser is None or chooser.role != "file chooser":
        return []
    return [Aim(f"Types the location of {name!r} into {chooser.kind()}", window=chooser.title)]


def _ticks(checked: bool) -> Callable[[list[Any], dict[str, Any]], list[Aim]]:
    def read(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
        names = [n for a in args for n in ([a] if isinstance(a, str) or a is None else a)]
        aims = []
        for name in names or [None]:
            if not isinstance(name, str):
                aims += _unknown("Ticks a box" if checked else "Clears a box")
                continue
            control, where = verbs.find(name, "tick box", keywords.get("window"))
            done = "Ticks" if checked else "Unticks"
            if control.checked == checked:
                done = "Leaves ticked" if checked else "Leaves unticked"
            aims.append(Aim(f"{done} {control.name} in {where.kind()}", window=where.title,
                            verb="tick" if checked else "untick", target=control.name))
        return aims
    return read


def _typed(text: str, password: bool = False) -> str:
    return f"{len(text)} characters" if password else repr(text)


def _type(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
    text = (args or [keywords.get("text")])[0]
    into = keywords.get("into", args[1] if len(args) > 1 else None)
    window = keywords.get("window")
    said = _typed(text) if isinstance(text, str) else "text made when the code runs"
    if "into" in keywords or len(args) > 1:
        if not isinstance(into, str):
            return [Aim(f"Types {said} into a field named only when the code runs")]
        try:
            control, where = verbs.find(into, "field", window)
        except verbs.NotOnScreen as miss:
            named = tree.window(into) if window is None else None
            if named is not None:
                return [Aim(f"Types {said} into {named.kind()}", window=named.title,
                            verb="write")]
            silent = finding.dark(into) if window is None else None
            if silent is not None:  # a terminal named as if a field
                said = _typed(dark.unprompted(text)) if isinstance(text, str) else said
                return [Aim(f"Types {said} into the window {silent!r}", verb="write")]
            editor = verbs.holding(into, window)
            if editor is not None:
                return [Aim(f"Types {said} into {editor.kind()} after its text",
                            window=editor.title, verb="write")]
            located = _dated(text, window) or _located(text, window)
            if located:
                return located
            return [Aim(f"Would type {said} into {into!r}, which is not on screen now "
                        f"({miss})")]
        value = text if isinstance(text, str) else ""
        if value:
            said = _typed(value, control.role == "password text")
        name = repr(control.name) if control.name else f"the {field_word(control)}"
        return [Aim(f"Types {said} into {name} in {where.title!r}",
                    window=where.title, verb="type", value=value,
                    target=control.name or field_word(control))]  # unnamed: found again by its word
    dated = _dated(text, window) if window is not None else []
    if dated:
        return dated
    target = _window(window) if window is not None else _focused()
    after = {"end": " after its text", "start": " before its text"}.get(
        verbs.PLACES.get(keywords.get("at")) or "", "")
    if target is not None:
        return [Aim(f"Types {said} into {target.kind()}{after}", window=target.title,
                    verb="write")]
    silent = finding.dark(window) if window is not None else finding.dark_active()
    if silent and isinstance(text, str):  # a terminal: a prompt copied with it is left out
        said = _typed(dark.unprompted(text))
    place = f"into the window {silent!r}" if silent else "where the keyboard focus is"
    return [Aim(f"Types {said} {place}", verb="write")]


def _focused() -> Window | None:
    found = tree.windows()
    return found[0] if found and found[0].active else None


def _fill(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
    fields = (args or [None])[0]
    if not isinstance(fields, dict):
        return [Aim("Fills a form with fields named only when the code runs")]
    aims: list[Aim] = []
    window = {k: v for k, v in keywords.items() if k == "window"}
    for label, value in fields.items():
        aims += _ticks(value)([label], window) if isinstance(value, bool) else \
            _type([value], {"into": label, **window})
    return aims


def _keys(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
    del keywords
    if not args or not all(isinstance(a, str) for a in args):
        return _unknown("Presses keys")
    names = [part for each in args for part in keyboard.split(each)]
    target = _focused()
    where = f" in {target.kind()}" if target is not None else ""
    return [Aim(f"Presses the key{'s' if len(names) > 1 else ''} "
                f"{'+'.join(n.capitalize() for n in names)}{where}",
                window=target.title if target is not None else "", verb="key")]


def _close(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
    title = (args or [keywords.get("title")])[0]
    if not isinstance(title, str):
        return _unknown("Closes a window")
    target = _window(title)
    return [Aim(f"Closes {target.kind() if target else repr(title)}",
                window=target.title if target else "", verb="close")]


def _focus(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
    title = (args or [keywords.get("title")])[0]
    if not isinstance(title, str):
        return _unknown("Brings a window forward")
    target = _window(title)
    return [Aim(f"Brings {target.kind() if target else repr(title)} forward",
                window=target.title if target else "", verb="focus")]


def _editor(keywords: dict[str, Any], doing: str) -> Window | Aim:
    """The editor a call acts on, or the sentence that says it is not on screen."""
    window = keywords.get("window")
    try:
        return editing.editor(window if isinstance(window, str) else None)[0]
    except verbs.NotOnScreen as miss:
        return Aim(f"Would {doing}, but finds no editor now ({miss})")


def _replace(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
    old, new = [*args, None, None][:2]
    old, new = keywords.get("old", old), keywords.get("new", new)
    said = f"{old!r} with {new!r}" if isinstance(old, str) and isinstance(new, str) else \
        "text made when the code runs"
    target = _editor(keywords, f"replace {said}")
    if isinstance(target, Aim):
        return [target]
    return [Aim(f"Replaces {said} in the text of {target.kind()}, not saving it",
                window=target.title, verb="write")]


def _set(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
    name, value = [*args, None, None][:2]
    name, value = keywords.get("name", name), keywords.get("value", value)
    window = keywords.get("window")
    said = _typed(value) if isinstance(value, str) else "text made when the code runs"
    if not (name is None or isinstance(name, str)) or not (
            window is None or isinstance(window, str)):
        return _unknown(f"Sets a text to {said}, in a place")
    try:
        control, where = values.holder(name, window)
    except verbs.NotOnScreen as miss:
        return [Aim(f"Would set {name!r} to {said}, which is not on screen now ({miss})")]
    if "multi line" in control.states:
        return [Aim(f"Replaces the whole text of {where.kind()} with {said}, not saving it",
                    window=where.title, verb="write")]
    label = repr(control.name) if control.name else f"the {field_word(control)}"
    return [Aim(f"Types {said} into {label} in {where.title!r}", window=where.title,
                verb="type", value=value if isinstance(value, str) else "",
                target=control.name or field_word(control))]


def _save(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
    target, name = [*args, None, None][:2]
    given = (target, keywords.get("name", name), keywords.get("window"))
    if not all(each is None or isinstance(each, str) for each in given):
        return _unknown("Saves a file")
    window, name = editing.saving(*given)  # as the verb reads them
    if name is not None or editing.save_chooser(window) is not None:
        return _save_as([name], {"window": window})
    target = _editor({"window": window}, "save a file")
    if isinstance(target, Aim):
        return [target]
    return [Aim(f"Saves the file of {target.kind()}", window=target.title, verb="write")]


def _save_as(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
    name = (args or [keywords.get("name")])[0]
    said = repr(name) if isinstance(name, str) else "a name made when the code runs"
    window = keywords.get("window")
    chooser = editing.save_chooser(window) if window is None or isinstance(window, str) \
        else None
    if chooser is not None:  # its button pressed: the screen after shows the dialog gone
        button = "Save" if editing.has_save(chooser) else "OK"
        return [Aim(f"Gives the name {said} to {chooser.kind()} and presses its {button}"
                    if name is not None else f"Would save in {chooser.kind()}, with no name",
                    pressed=button, window=chooser.title, verb="press", target=button)]
    target = _editor(keywords, f"save as {said}")
    if isinstance(target, Aim):
        return [target]
    return [Aim(f"Saves the text of {target.kind()} as the file {said} (in the working folder "
                "unless a whole path; an existing file is not replaced)",
                window=target.title, verb="write")]


def _click(args: list[Any], keywords: dict[str, Any]) -> list[Aim]:
    """A click by name, id or point: the control there, as the tree tells it."""
    first = (args or [keywords.get("x")])[0]
    if isinstance(first, str):
        try:
            control, where = verbs.find(first, "button", keywords.get("window"))
        except verbs.NotOnScreen:
            return [Aim(f"Clicks the text {first!r} where it is read on screen when the code "
                        "runs")]
        return [Aim(f"Clicks {control.name} in {where.kind()}", control.name, where.title,
                    "press", control.name)]
    point = _point(first, (args[1:] or [keywords.get("y")])[0], keywords.get("id"))
    if point is None:
        return _unknown("Clicks a point")
    return [_at(*point)]


def _point(x: Any, y: Any, id: Any) -> tuple[int, int] | None:
    """The physical pixel a click by id or by view coordinates goes to."""
    from assistant.computer import display, views

    port = display.viewport()
    if isinstance(id, int):
        item = views.item(id)
        return port.to_physical(*textmatch.center(item["box"])) if item else None
    if isinstance(x, (tuple, list)) and len(x) == 2:
        x, y = x
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        return port.to_physical(float(x), float(y))
    return None


def _at(x: int, y: int) -> Aim:
    """The control under a pixel, in the topmost window there."""
    for window in tree.windows():
        if window.box is not None and not window.box.contains(x, y):
            continue
        under = [c for c in window.controls if c.box.contains(x, y) and not c.label]
        if under:
            control = min(under, key=lambda c: c.box.width * c.box.height)
            name = control.name or control.role
            return Aim(f"Clicks {name} in {window.kind()}", control.name, window.title, "press",
                       control.name)
    return Aim(f"Clicks at ({x}, {y}), where no window names a control")


READERS = {  # the call, as written after `computer.`, and how it is read
    "press": _press, "choose": _choose, "select": _choose, "tick": _ticks(True),
    "untick": _ticks(False),
    "type": _type, "write": _type, "typewrite": _type, "fill": _fill, "key": _keys,
    "hotkey": _keys, "close": _close, "focus": _focus, "click": _click,
    "double_click": _click, "mouse.click": _click, "mouse.double_click": _click,
    "keyboard.write": _type, "keyboard.typewrite": _type, "keyboard.press": _keys,
    "keyboard.hotkey": _keys, "windows.close": _close, "windows.focus": _focus,
    "replace": _replace, "save": _save, "save_as": _save_as, "set": _set,
}
