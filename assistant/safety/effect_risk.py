"""The risk check's second look: what a what-if run showed the code does to files, and
what the screen shows a desktop proposal will press.

The static check reads the code; a preview shows what it did. Code can hide a wide delete
behind a variable, a loop or a plan sentence that says otherwise, but not from its
effect. So a preview that deletes many files or many bytes, or writes outside the
working folder, raises the rating whatever the static check said; it never lowers it.
Code the static check blocks is never previewed, so `blocked` stays as it was. A press
that the windows' trees show lands on a Delete, Send or Pay button is rated high, however
the code named it (an id, a point, a name that only contains the word).
"""

from __future__ import annotations

from dataclasses import replace

from assistant.events import Effect
from assistant.safety.desktop import destructive, pressed_why
from assistant.safety.findings import Finding, Level, higher
from assistant.safety.rating import Assessment
from assistant.safety.runs_later import runs_later
from assistant.whatif.effect import human_size, names
from assistant.whatif.preview import SCRATCH
from assistant.whatif.uncovered import OWN_WRITE, REACHES, READ_ONLY, SECRET_WRITE

MANY_FILES = 10
"""Deleting this many files or more is rated high."""
MANY_BYTES = 100_000_000
"""Deleting this many bytes or more (100 MB) is rated high."""
OUTSIDE_HOME = "writes outside home"
"""How the preview's reason for writes outside home and the working folder begins
(assistant/whatif/uncovered.py); READ_ONLY there is the one for writes it refused."""


def effect_findings(effect: Effect) -> list[Finding]:
    """What in `effect` is riskier than an everyday run: many or large deletes, writes
    outside the working folder (absolute paths in the effect are outside it)."""
    found: list[Finding] = [
        Finding("desktop", "high", name, pressed_why(name, window) + " (the screen shows)")
        for name, window in effect.pressed if destructive(name)]
    files = [p for p in effect.deleted if not p.endswith("/")]
    size = sum(effect.sizes.get(p, 0) for p in files)
    if len(files) >= MANY_FILES or size >= MANY_BYTES:
        found.append(Finding("delete", "high", names(files),
                             f"are deleted, {len(files)} files, {human_size(size)} "
                             "(the preview shows)"))
    later = [p for p in (*effect.created, *effect.modified, *(b for _, b in effect.moved))
             if runs_later(p)]
    if later:
        found.append(Finding("persistence", "high", names(later),
                             f"is written, {runs_later(later[0])} (the preview shows)"))
    written = [*effect.created, *effect.modified, *effect.deleted,
               *(b for _, b in effect.moved), *(a for a, _ in effect.moved)]
    outside = sorted({p for p in written if p.startswith("/")})
    if outside:
        found.append(Finding("outside-write", "medium", names(_outermost(outside)),
                             "is outside the working folder (the preview shows)"))
    # A write the preview refused is one it could not see, not one it saw go wrong (a file
    # directly in home is refused under the guard): it never runs unattended, and a
    # person, by voice too, may still say yes. What the write is, the static check rates.
    if READ_ONLY in effect.unpreviewable or any(
            why.startswith(OUTSIDE_HOME) and not _scratch_only(why)
            for why in effect.unpreviewable):
        found.append(Finding("outside-write", "medium", "outside home",
                             "is written to, which the preview could not cover"))
    # What the preview saw written where it shows the assistant's own settings or the
    # keys empty: the run would change how the assistant decides, or someone's access.
    for start, family, what in (
            (OWN_WRITE, "self-tamper", "is written, and is the assistant's own"),
            (SECRET_WRITE, "secrets", "is written, where keys and credentials are kept")):
        said = next((why for why in effect.unpreviewable if why.startswith(start)), "")
        if said:
            found.append(Finding(family, "high", said[said.find("(") + 1:said.find(")")],
                                 what + " (the preview shows)"))
    mounts = [why for why in effect.unpreviewable if why.startswith(REACHES)]
    if mounts:  # a mount the preview could not cover: what the run does there is unseen
        found.append(Finding("outside-write", "medium", mounts[0].split(" (")[0][len(REACHES):],
                             "is reached, which the preview could not cover"))
    return found


def _scratch_only(why: str) -> bool:
    """Whether every path a reason names is in a scratch folder (/tmp and the like), where
    a write is everyday and no one's files are."""
    named = why[why.find("(") + 1:why.rfind(")")]
    paths = [p.strip() for p in named.split(",")]
    return " more" not in named and all(
        any(p == root or p.startswith(root + "/") for root in SCRATCH) for p in paths)


def with_effect(assessment: Assessment, effect: Effect) -> Assessment:
    """`assessment` raised by what `effect` shows; never lowered, `blocked` untouched."""
    if assessment.risk == "blocked":
        return assessment
    risk: Level = assessment.risk
    reasons = list(assessment.reasons)
    families = list(assessment.families)
    for item in effect_findings(effect):
        risk = higher(risk, item.level)
        if item.reason() not in reasons:
            reasons.append(item.reason())
        if item.family not in families:
            families.append(item.family)
    return replace(assessment, risk=risk, reasons=tuple(reasons), families=tuple(families))


def _outermost(paths: list[str]) -> list[str]:
    """`paths` without those inside a folder among them: the folder stands for its files."""
    folders = [p for p in paths if p.endswith("/")]
    return [p for p in paths if not any(p != f and p.startswith(f) for f in folders)]
