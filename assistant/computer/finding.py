"""A control found by its role and name in the windows on screen, and a miss that says
what is there instead: what every verb (verbs.py) and the approval's sentence (aim.py)
look controls up with.

A control with no name of its own is found by the word the screen text calls it
("number field", "text area", "drop-down") when it is the only one so called, or the
first of them. A window that publishes no controls (a terminal, a program without
accessibility) is said to have none to name, with how to type into it instead.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable

from assistant.computer import a11y, textmatch, tree
from assistant.computer import windows as x_windows
from assistant.computer.screen_text import ROLE_WORDS, field_word
from assistant.computer.tree import Control, Window

KINDS = {"button": tree.BUTTONS, "item": tree.CHOICES, "tick box": tree.TICKS}
ROLE_NAMES = {"field": "field", "text field": "field", "entry": "field", "text box": "field",
              "text area": "text area", "text": "text area", "editor": "text area",
              "number field": "number field", "spin button": "number field",
              "spinbutton": "number field", "number": "number field",
              "number box": "number field", "spin box": "number field",
              "spinner": "number field", "spin": "number field", "counter": "number field",
              "numeric field": "number field", "numeric": "number field",
              "drop-down": "drop-down", "dropdown": "drop-down", "combo box": "drop-down",
              "password field": "password field", "password": "password field",
              "switch": "toggle", "toggle": "toggle", "check box": "check box",
              "checkbox": "check box", "slider": "slider", "scale": "slider"}
# The role words a name is written with ("number field label", "the OK button"), the
# longest first.
PHRASES = sorted({*ROLE_NAMES, "button", "tab", "box", "radio button", "menu item", "item",
                  "row", "link"}, key=len, reverse=True)
VERB_OF = {"check box": "tick", "toggle": "tick", "radio": "choose", "item": "choose",
           "row": "choose", "tab": "choose"}  # the verb a control that takes no text takes
SETTLE_S = 2.0  # how long after a verb acted a control it may have opened is waited for
_settled_at = 0.0


# Windows that wait for a button once their controls are set: dialogs, and small windows
# of buttons with no menus (yad's, zenity's).
WAITING = ("dialog", "alert")
DIALOG_CONTROLS = 30  # a window of more controls is a program's, not a dialog's
# The buttons that confirm what a dialog's controls were set to.
CONFIRMS = frozenset({"ok", "apply", "done", "confirm", "submit", "yes", "continue"})


class NotOnScreen(LookupError):
    """What was named is not there; the message says what is."""


WORDS = re.compile(r"[^\W_]+")


def is_kind(control: Control, kind: str) -> bool:
    if kind == "field":
        return control.field
    if kind == "tick box":
        return control.role in tree.TICKS or control.toggle or control.role in tree.SWITCHES
    if kind == "item" and control.role == "table cell":
        return True
    return control.role in KINDS[kind]


def _word(control: Control) -> str:
    return field_word(control) if control.field else ROLE_WORDS.get(control.role, control.role)


def matches(controls: Iterable[Control], name: str, kind: str) -> list[Control]:
    """Controls of `kind` named `name`: exact first, then those whose name holds it (whole
    words), then the one field each of whose words the name says ("Your name:" for Name),
    then
    a name written with a role word ("number field label": the one number field, or the
    one of that role so named), then those called so by the screen text ("number field",
    "slider"), unnamed first."""
    wanted = textmatch.normalize(name)
    if not wanted:
        raise ValueError(f"an empty name: say which {kind} (its words on screen)")
    of_kind = [c for c in controls if is_kind(c, kind)]
    named = [c for c in of_kind if c.name]
    exact = [c for c in named if textmatch.normalize(c.name) == wanted]
    if exact:
        return exact
    # whole words only: "OK" is no part of "Bookmark this tab"
    within = re.compile(rf"(?<!\w){re.escape(wanted)}(?!\w)")
    holding = [c for c in named if within.search(textmatch.normalize(c.name))]
    if holding:
        return holding
    said = set(WORDS.findall(wanted))  # "Your name:" for the field "Name": the one
    inside = [c for c in named if kind == "field" and set(WORDS.findall(  # field whose
        textmatch.normalize(c.name))) <= said]  # every word was said
    if len(inside) == 1:
        return inside
    split = _role_and_name(wanted)
    if split is not None:
        word, rest = ROLE_NAMES.get(split[0]), split[1]
        of_word = [c for c in of_kind if word is None or _word(c) == word]
        exact = [c for c in of_word if textmatch.normalize(c.name) == rest]
        if exact or (word is not None and len(of_word) == 1):
            return exact or of_word
    word = ROLE_NAMES.get(wanted)
    called = [c for c in of_kind if word is not None and _word(c) == word]
    # enabled first, then an unnamed one: the word is its name
    return sorted(called, key=lambda c: (not c.enabled, bool(c.name)))


def _role_and_name(wanted: str) -> tuple[str, str] | None:
    """A name written with a role word before or after it, as models write one ("number
    field label", "Email field", "the OK button"): the word and the name."""
    bare = wanted.removeprefix("the ")
    for phrase in PHRASES:
        if bare.startswith(phrase + " "):
            return phrase, bare[len(phrase) + 1:]
        if bare.endswith(" " + phrase):
            return phrase, bare[:-len(phrase) - 1]
    return None


def acted() -> None:
    """A verb pressed, chose or keyed something: what it opens (a Save As dialog after
    Ctrl+Shift+S) may take a moment to show, and the next lookup waits for it up to
    SETTLE_S."""
    global _settled_at
    _settled_at = time.monotonic() + SETTLE_S


def find(name: str, kind: str, window: str | None = None,
         settle: bool = True) -> tuple[Control, Window]:
    """The control of `kind` named `name`: in `window` (a title, or part of one), else in
    the focused window, then the others from the top down. A miss says what is there;
    just after a press or a key, it is looked for again until the screen has settled
    (unless `settle` is False: the caller looks elsewhere next).

    A `window` no window is titled like (models copy a title from an example) is let go
    when exactly one window has the control: what is pressed is said from the screen
    before anyone approves it, with the window it is in."""
    while True:
        try:
            return _find(name, kind, window)
        except NotOnScreen:
            if not settle or time.monotonic() > _settled_at:
                raise
            time.sleep(0.1)


def _find(name: str, kind: str, window: str | None) -> tuple[Control, Window]:
    if not textmatch.normalize(name):
        raise ValueError(f"an empty name: say which {kind} (its words on screen)")
    found = tree.windows(window)
    if window is not None and not found:
        silent = dark(window)
        if silent is not None:
            raise NotOnScreen(no_controls(silent, kind))
        everywhere = [(w, matches(w.controls, name, kind)) for w in tree.windows()]
        having = [(w, hits) for w, hits in everywhere if hits]
        if len(having) == 1:
            return having[0][1][0], having[0][0]
        raise NotOnScreen(f"no window titled {window!r}; {titles()}")
    if not found:
        raise NotOnScreen(_nothing(name, kind))
    for each in found:
        hits = matches(each.controls, name, kind)
        if hits:
            if window is None:  # a list row's tick box is the row, whoever asks
                hits.sort(key=lambda c: not c.toggle)
            return hits[0], each
    other = _named_other(found[0], name) if kind == "field" else None
    if other is not None:
        raise NotOnScreen(f"{other.name!r} in {found[0].kind()} is a {_word(other)}, not a "
                          f"field: {VERB_OF.get(_word(other), 'press')}({other.name!r})")
    lone = lone_field(found[0]) if kind == "field" else None
    if lone is not None and not any(textmatch.normalize(name) in textmatch.normalize(w.title)
                                    for w in found):  # a title: typed at the window's cursor
        return lone, found[0]
    miss = _miss(name, kind, found[0] if window else None, found)
    silent = dark_active({w.title for w in found}) if window is None else None
    raise NotOnScreen(miss if silent is None else f"{miss}; {no_controls(silent, kind)}")


def _named_other(window: Window, name: str) -> Control | None:
    """A control of the window exactly so named that takes no text (a check box)."""
    wanted = textmatch.normalize(name)
    return next((c for c in window.controls if not c.field and not c.label and c.role
                 not in tree.TEXTS and textmatch.normalize(c.name) == wanted), None)


def lone_field(window: Window) -> Control | None:
    """The window's one field when it has just one (a dialog's entry, an empty editor):
    a label no field has is one copied from an example ("Your name:"), and what is typed
    is said from the screen before anyone approves it, with the field. A text area that
    holds text is never so guessed: typing into a field replaces what it holds. A
    browser's own address field is not the page's."""
    fields = [c for c in window.controls if c.field and c.enabled and not c.chrome]
    if len(fields) != 1 or ("multi line" in fields[0].states and fields[0].value.strip()):
        return None
    return fields[0]


def dark(title: str) -> str | None:
    """The title of the window titled like `title` when it publishes no controls."""
    try:
        listed = [w["title"] for w in x_windows.list() if w["title"]]
    except Exception:  # no window list here (Wayland, no X)
        return None
    wanted = title.casefold().strip()
    same = [t for t in listed if t.casefold().strip() == wanted] or \
        [t for t in listed if wanted in t.casefold()]
    return same[-1] if same else None


def dark_active(published: set[str] | None = None) -> str | None:
    """The focused window's title when it publishes no controls (a terminal); without
    `published` (the titles that do), the tree is asked."""
    if published is None:
        published = {w.title for w in tree.windows()}
    try:
        active = x_windows.active()
    except Exception:  # no window list here (Wayland, no X)
        return None
    title = active["title"] if active else ""
    return title if title and title not in published and not x_windows.own(title) else None


def no_controls(title: str, kind: str) -> str:
    """The miss in a window that publishes no controls: type into it instead."""
    return (f"the window {title!r} publishes no controls to name (no {kind} can be found "
            f"in it): type into it instead, computer.type('text', window={title!r}), or "
            f"press its keys, computer.key('enter')")


def _miss(name: str, kind: str, within: Window | None, found: list[Window]) -> str:
    """"no button 'Maybe' in the dialog 'Export'; its buttons: No, Yes" (or those of
    every window, each named). A confirm button a window has none of (OK after a choice
    in a program's window, as the guide's dialog example has it) is said to be needed
    there by nothing."""
    plural = f"{kind}es" if kind.endswith("x") else f"{kind}s"
    if within is not None:
        listed = names(within, kind)
        there = f"its {plural}: {listed}" if listed else f"it has no {plural}"
        return f"no {kind} {name!r} in {within.kind()}{_unneeded(name, kind, within)}; {there}"
    said = [f"in {w.kind()}: {names(w, kind)}" for w in found if names(w, kind)]
    if said:
        unneeded = _unneeded(name, kind, found[0]) if found[0].active else ""
        return f"no {kind} {name!r} on screen{unneeded}; {plural} {'; '.join(said)}"
    return f"no {kind} {name!r} on screen; no window shows any {plural}{_instead(found)}"


def _unneeded(name: str, kind: str, window: Window) -> str:
    """What a miss of a confirm button adds when `window` is a program's (it has menus)
    with no confirm button at all; a dialog's buttons are its answers, said as they are."""
    if kind != "button" or textmatch.normalize(name) not in CONFIRMS \
            or not any(c.role in ("menu", "menu bar") for c in window.controls) or any(
                textmatch.normalize(c.name) in CONFIRMS for c in window.controls
                if is_kind(c, "button")):
        return ""
    return (f" (it has no button to confirm with: what is set in {window.kind()} takes "
            f"effect at once, so leave the press of {name!r} out)")


def _instead(found: list[Window]) -> str:
    """What the focused window has to name instead, kind by kind: "; the dialog 'Rename'
    has: fields New name for the file:; buttons Cancel, OK"."""
    if not found:
        return ""
    kinds = [(f"{kind}s", names(found[0], kind)) for kind in ("field", "tick box", "button")]
    has = [f"{plural} {listed}" for plural, listed in kinds if listed]
    return f"; {found[0].kind()} has: {'; '.join(has)}" if has else ""


def names(window: Window, kind: str) -> str:
    """The names of the window's controls of `kind`, in order, at most 12."""
    seen: list[str] = []
    for control in window.controls:
        if is_kind(control, kind) and control.name and control.name not in seen:
            seen.append(control.name)
    return ", ".join(seen[:12]) + (" …" if len(seen) > 12 else "")


def titles() -> str:
    try:
        listed = [w["title"] for w in x_windows.list() if w["title"]]
    except Exception:  # no window list here (Wayland, no X)
        listed = [w.title for w in tree.windows()]
    return f"open windows: {', '.join(repr(t) for t in listed)}" if listed else \
        "no windows are open"


def _nothing(name: str, kind: str) -> str:
    """The miss when no window shows controls: none is open (the one meant closed), they
    publish none (then type into it, or click its text), or the tree cannot be read here
    (and why)."""
    up, why = a11y.status()
    if not up:
        return f"the windows' controls cannot be read here ({why}), so no {kind} {name!r} " \
               "can be found by name"
    listed = titles()
    if listed == "no windows are open":
        return f"no {kind} {name!r} on screen: no windows are open"
    silent = dark_active(set())
    if silent is not None:
        return f"no {kind} {name!r} on screen; {no_controls(silent, kind)}"
    return f"no {kind} {name!r} on screen; {listed}: they publish no controls, so type " \
           f"into one, computer.type('text', window='Title'), or click its text: " \
           f"computer.mouse.click({name!r})"


def waits(window: Window) -> bool:
    """Whether the window waits for an answer: a dialog, or a small window of buttons with
    no menus (yad's, zenity's), as opposed to a program's own window."""
    controls = window.controls
    return window.role in (*WAITING, "file chooser") or (
        len(controls) <= DIALOG_CONTROLS and any(is_kind(c, "button") for c in controls)
        and not any(c.role in ("menu", "menu bar", "menu item") for c in controls))
