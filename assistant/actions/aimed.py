"""A desktop proposal's effect, told from the screen before anyone is asked.

A preview cannot reach the display, so the code of a click has no effect to show, and
the person would read the model's plan: "I will click Yes". Instead, each call is found
on the screen now, as the run will find it (assistant.computer.aim), and said as a fact:
"Presses Yes in the dialog 'Export'". Every front end shows and the voice reads it first,
like a preview's sentence; the risk check reads which buttons it presses.
"""

from __future__ import annotations

import re
from dataclasses import replace

from assistant.events import Effect
from assistant.whatif.uncovered import DISPLAY

CALLS = re.compile(r"\bcomputer\b")


def desktop_effect(language: str, code: str, effect: Effect | None) -> Effect | None:
    """`effect` with what the code's desktop calls act on (or a new effect saying so);
    None when the code drives no desktop, or there is no desktop to read."""
    if language != "python" or not CALLS.search(code):
        return None
    from assistant.computer import aim
    from assistant.computer.capability import Unavailable, require_display

    try:
        require_display()
        aims = aim.foresee(code)
    except Unavailable:
        return None
    if not aims:
        return None
    sentences = tuple(a.sentence for a in aims)
    said = ". ".join(sentences) + "."
    pressed = tuple((a.pressed, a.window) for a in aims if a.pressed)
    if effect is None:
        return Effect(summary=said, desktop=sentences, pressed=pressed)
    return replace(effect, summary=f"{said} {effect.summary}" if effect.changes_files else said,
                   desktop=sentences, pressed=pressed,
                   unpreviewable=tuple(w for w in effect.unpreviewable if w != DISPLAY))
