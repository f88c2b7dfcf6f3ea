"""What the screen shows after a desktop run, as facts: the outside check of a click.

A run's "Pressed Yes" says the press was sent, not that it did anything; a small model
then presses a button that is gone, or answers "Done" over a box still unticked. The
windows' trees are read again once the run ends, and each call it made (computer/aim.py,
read before it ran) is held to them: "the dialog 'Export' is gone", "'Dark' is now
chosen in the dialog 'Theme'", "the field 'Name:' holds 'Ana'". A fact the screen
contradicts ("'Photos' is not ticked") is `undone`: the answer checks hold an answer that
calls the job done to it, as a preview holds one about files.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from assistant.computer import finding, textmatch, tree
from assistant.computer.aim import Aim
from assistant.computer.screen_text import field_word
from assistant.computer.tree import Control, Window

SETTLE_S = 1.5  # how long the screen may take to show an undone fact done
POLL_S = 0.2
TEXT_CHARS = 60  # a field's text, quoted up to here
ANSWERS = frozenset({"ok", "cancel"})  # a dialog's answers (yad's are plain windows)
# Buttons that end their dialog: one pressed is waited for to go (a file chooser takes a
# moment after its OK), as an undone fact is.
CLOSERS = ANSWERS | {"yes", "no", "open", "save", "send", "submit", "close", "done"}


@dataclass(frozen=True)
class Fact:
    """One thing the screen shows; `undone`: a call's effect it does not show; `change`:
    a window "gone" or "open" since the run began; `toggled`: "on" or "off", the state a
    press left a switch or box in."""

    sentence: str
    undone: bool = False
    change: str = ""
    toggled: str = ""


@dataclass(frozen=True)
class Shown:
    """A window as it was before the run: its title, kind and program."""

    title: str
    kind: str
    pid: int


def before() -> list[Shown]:
    """The windows now, to tell afterwards which opened, closed or were renamed."""
    return [Shown(w.title, w.kind(), w.pid) for w in tree.windows()]


def after(aims: list[Aim], then: list[Shown], settle_s: float = SETTLE_S) -> list[Fact]:
    """The facts the screen shows about `aims` (the calls of a run, in order) and the
    windows it opened or closed, `then` being the windows before it. A fact not yet
    shown, or a dialog whose closing button was pressed still there, is read again for up
    to `settle_s` (a dialog takes a moment to go)."""
    if not aims:
        return []
    deadline = time.monotonic() + settle_s
    while True:
        now = tree.windows()
        facts = facts_of(aims, then, now)
        closing = any(a.verb == "press" and textmatch.normalize(a.target) in CLOSERS and
                      any(w.title == a.window for w in now) for a in aims)
        if not (closing or any(f.undone for f in facts)) or time.monotonic() > deadline:
            return facts
        time.sleep(POLL_S)


def facts_of(aims: list[Aim], then: list[Shown], now: list[Window]) -> list[Fact]:
    """The facts, from the windows `now`: each call's own, then the windows changed."""
    titles = {**_renamed(then, now), **{w.title: w for w in now}}
    facts: list[Fact] = []
    for aim in aims:
        fact = _fact(aim, titles.get(aim.window) if aim.window else None, then)
        if fact is not None and fact not in facts:
            facts.append(fact)
    for fact in [*_changed(then, now), *_waiting(aims, titles)]:
        if fact not in facts:
            facts.append(fact)
    return facts


def _waiting(aims: list[Aim], titles: dict[str, Window]) -> list[Fact]:
    """A dialog a call set something in (chose, ticked, typed) still open, with
    its buttons: a small model that chose green calls the job done, or chooses it again,
    while the dialog waits for its OK."""
    acted = dict.fromkeys(a.window for a in aims if a.verb in ("choose", "tick", "untick",
                                                               "type"))
    closing = {a.window for a in aims if a.verb in ("press", "close", "key")}
    facts = []
    for title in acted:
        window = titles.get(title)
        buttons = finding.names(window, "button") if window is not None else ""
        if window is not None and title not in closing and buttons and (
                window.role in finding.WAITING or any(textmatch.normalize(c.name) in ANSWERS
                                              for c in window.controls)):
            facts.append(Fact(f"{window.kind()} is still open, with the buttons {buttons}"))
    return facts


def _fact(aim: Aim, window: Window | None, then: list[Shown]) -> Fact | None:
    """What the screen shows of one call; None when it shows nothing of it."""
    if not aim.verb or not aim.window:
        return None
    kind = next((s.kind for s in then if s.title == aim.window), f"the window {aim.window!r}")
    if window is None:
        return Fact(f"{kind} is gone", change="gone") if aim.verb in ("press", "close", "key") \
            else None
    if aim.verb == "close":
        return Fact(f"{kind} is still open", undone=True)
    if aim.verb == "focus":
        return Fact(f"{kind} is in front") if window.active else \
            Fact(f"{kind} is not in front", undone=True)
    if aim.verb == "press":
        return _pressed(window, aim, kind)
    control = _control(window, aim)
    if control is None:
        return None
    if aim.verb in ("tick", "untick"):
        state = "ticked" if control.checked else "not ticked"
        return Fact(f"{control.name!r} is {state} in {kind}",
                    undone=control.checked != (aim.verb == "tick"))
    if aim.verb == "choose" and control.role == "combo box":
        return Fact(f"{control.name!r} shows {control.value!r} in {kind}")
    if aim.verb == "choose":
        chosen = control.checked or "selected" in control.states
        return Fact(f"{control.name!r} is {'now' if chosen else 'not'} chosen in {kind}",
                    undone=not chosen and control.role not in tree.BUTTONS)
    if aim.verb == "type":
        name = f"the field {control.name!r}" if control.name else f"the {field_word(control)}"
        held = control.value.strip()
        undone = (len(control.value) != len(aim.value) if control.role == "password text"
                  else held != aim.value.strip())  # a password field shows only bullets
        return Fact(f"{name} in {kind} holds {_holds(control)}", undone=undone)
    return None


def _pressed(window: Window, aim: Aim, kind: str) -> Fact | None:
    """A tab pressed shows as selected (a small model that read only "still open" pressed
    it again, to the time limit); a switch or box pressed, as on or off (pressed again,
    it flips back: a small model asked to switch Record on pressed it six times); any
    other press, as its dialog still open. A program's own window is open as it should
    be: told so, a small model pressed its Close."""
    hits = finding.matches(window.controls, aim.target, "button") if aim.target else []
    tabs = [c for c in hits if c.role == "page tab" and c.name == hits[0].name]
    if tabs:
        shown = any("selected" in c.states for c in tabs)
        return Fact(f"the tab {tabs[0].name!r} is {'now' if shown else 'not'} selected in "
                    f"{kind}", undone=not shown)
    flips = [c for c in (finding.matches(window.controls, aim.target, "tick box")
                         if aim.target else []) if c.role != "radio button" and not c.toggle]
    if flips:
        state = "on" if flips[0].checked else "off"
        return Fact(f"{flips[0].name!r} is now {state} in {kind}", toggled=state)
    return Fact(f"{kind} is still open") if finding.waits(window) else None


def _control(window: Window, aim: Aim) -> Control | None:
    """The control the call acted on, found as the verb finds it (a switch by its label,
    a number field by that word); a drop-down's entry is the drop-down showing it."""
    wanted = textmatch.normalize(aim.target)
    if not wanted:
        return None
    if aim.verb in ("type", "tick", "untick"):
        kind = "field" if aim.verb == "type" else "tick box"
        hits = finding.matches(window.controls, aim.target, kind)
        return hits[0] if hits else None
    named = [c for c in window.controls if textmatch.normalize(c.name) == wanted] or \
        [c for c in window.controls if c.role == "combo box"
         and textmatch.normalize(c.value) == wanted]
    named.sort(key=lambda c: not (c.toggle or c.role in tree.TICKS))  # a radio list's row
    return named[0] if named else None


def _holds(control: Control) -> str:
    if control.role == "password text":
        return f"{len(control.value)} characters"
    if not control.value:
        return "nothing"
    flat = " ".join(control.value.split())
    return repr(flat if len(flat) <= TEXT_CHARS else flat[:TEXT_CHARS - 1] + "…")


def _renamed(then: list[Shown], now: list[Window]) -> dict[str, Window]:
    """Windows whose title changed (an editor's loses its "*" on saving), by the old title:
    one gone and one new of the same kind and program."""
    before = {s.title for s in then}
    after = {w.title for w in now}
    gone = [s for s in then if s.title not in after]
    renamed: dict[str, Window] = {}
    for window in (w for w in now if w.title not in before):
        old = next((s for s in gone if s.pid and s.pid == window.pid and s.title not in renamed
                    and s.kind.split()[1] == window.kind().split()[1]), None)
        if old is not None:
            renamed[old.title] = window
    return renamed


def _changed(then: list[Shown], now: list[Window]) -> list[Fact]:
    """Windows the run opened, closed or renamed."""
    renamed = _renamed(then, now)
    before = {s.title for s in then}
    after = {w.title for w in now}
    facts = [Fact(f"{s.kind} is now titled {renamed[s.title].title!r}") for s in then
             if s.title in renamed]
    moved = {w.title for w in renamed.values()}
    facts += [Fact(f"{w.kind()} is open", change="open") for w in now
              if w.title not in before and w.title not in moved]
    facts += [Fact(f"{s.kind} is gone", change="gone") for s in then
              if s.title not in after and s.title not in renamed]
    return facts

