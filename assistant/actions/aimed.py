"""A desktop proposal's effect, told from the screen before anyone is asked, and held to
the screen after it ran.

A preview cannot reach the display, so the code of a click has no effect to show, and
the person would read the model's plan: "I will click Yes". Instead, each call is found
on the screen now, as the run will find it (assistant.computer.aim), and said as a fact:
"Presses Yes in the dialog 'Export'". Every front end shows and the voice reads it first,
like a preview's sentence; the risk check reads which buttons it presses. Once it ran,
the windows are read again (assistant.computer.after): what the screen shows of each
call is the outside check of a desktop run, as the preview is of one on files.

A run that writes a file an editor on screen holds leaves the editor showing the old text;
the editor is reloaded after it (assistant.computer.reloading), and the proposal says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.events import Effect
from assistant.whatif.uncovered import DISPLAY

if TYPE_CHECKING:
    from assistant.computer.after import Fact, Shown
    from assistant.computer.aim import Aim
    from assistant.computer.tree import Window

CALLS = re.compile(r"\bcomputer\b")


@dataclass(frozen=True)
class Aimed:
    """A desktop proposal's calls as read from the screen, and the windows then."""

    code: str
    aims: list[Aim]
    then: list[Shown]


def aimed(language: str, code: str) -> Aimed | None:
    """What the code's desktop calls act on; None when it drives no desktop, or there is
    no desktop to read."""
    if language != "python" or not CALLS.search(code):
        return None
    from assistant.computer import after, aim
    from assistant.computer.capability import Unavailable, require_display

    try:
        require_display()
        aims = aim.foresee(code)
    except Unavailable:
        return None
    return Aimed(code, aims, after.before()) if aims else None


def desktop_effect(found: Aimed | None, effect: Effect | None) -> Effect | None:
    """`effect` with what the calls `found` act on (or a new effect saying so); None
    when there are none."""
    if found is None:
        return None
    sentences = tuple(a.sentence for a in found.aims)
    said = ". ".join(sentences) + "."
    pressed = tuple((a.pressed, a.window) for a in found.aims if a.pressed)
    if effect is None:
        return Effect(summary=said, desktop=sentences, pressed=pressed)
    return replace(effect, summary=f"{said} {effect.summary}" if effect.changes_files else said,
                   desktop=sentences, pressed=pressed,
                   unpreviewable=tuple(w for w in effect.unpreviewable if w != DISPLAY))


def on_screen(found: Aimed | None, code: str) -> tuple[Fact, ...] | None:
    """What the screen shows after the run of `code` of each call `found` read before
    (read again when the person edited the code: the calls are the edit's); None when
    the code acted on no window."""
    if found is None:
        return None
    if code != found.code:
        found = aimed("python", code)
        if found is None:
            return None
    from assistant.computer import after

    try:
        return tuple(after.after(found.aims, found.then))
    except Exception:  # the tree went away: the run's own words stand alone
        return ()


def held(paths: list[str], folder: str) -> list[tuple[Path, Window]]:
    """The files of `paths` (the working folder's, or whole paths) that an editor on
    screen holds with nothing unsaved, with its window; none without a display."""
    if not paths:
        return []
    from assistant.computer import reloading

    return reloading.holding(Path(folder, path) for path in paths)


def reloading_effect(effect: Effect | None, folder: str) -> Effect | None:
    """`effect` saying which editor its run's files will be shown in again ("Reloads
    guests.txt in the window 'guests.txt - Mousepad'"); as it was when it writes no
    file an editor holds."""
    if effect is None:
        return None
    holders = held(list(effect.modified), folder)
    if not holders:
        return effect
    sentences = tuple(f"Reloads {path.name} in {window.kind()}" for path, window in holders)
    said = ". ".join(sentences) + "."
    return replace(effect, summary=f"{effect.summary} {said}".strip(),
                   desktop=effect.desktop + sentences)


def reloaded(wrote: list[str], folder: str) -> tuple[Fact, ...]:
    """Each editor that held a file the run wrote, reloaded, as what the screen shows."""
    from assistant.computer import reloading
    from assistant.computer.after import Fact

    facts = []
    for path, window in held(wrote, folder):
        if reloading.reload(window):
            facts.append(Fact(f"{window.kind()} was reloaded: it shows {path.name} as the "
                              "run wrote it"))
        else:
            facts.append(Fact(f"{window.kind()} did not offer to reload {path.name}: it "
                              "may still show the text from before the run"))
    return tuple(facts)
