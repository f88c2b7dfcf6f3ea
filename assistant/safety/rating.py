"""The risk check's words apart from its checkers: the assessment (Assessment) and how
findings become one (judged); the deny rules it applies are the setting's (assistant/deny).

The API and the tool ratings need these before any code is proposed; the
checkers (safety/risk.py and the shell, Python and JavaScript readers it loads, hundreds
of regular expressions) are imported only when a proposal is rated, so a command does not
pay for them before the model's first word.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.deny import DenyRules as DenyRules  # the checkers' and the policy's
from assistant.safety.findings import Finding, Level, higher


@dataclass(frozen=True)
class Assessment:
    """The assessment of one snippet: the highest level found, and every reason for it."""

    risk: Level = "low"
    reasons: tuple[str, ...] = ()
    families: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        return {"risk": self.risk, "reasons": list(self.reasons), "families": list(self.families)}


def judged(found: list[Finding], deny: DenyRules, start: Assessment | None = None) -> Assessment:
    """The assessment of findings (added to a rating made already, such as a tool's): the
    highest level, each reason once, and `blocked` for the families the rules deny."""
    start = start or Assessment()
    risk: Level = start.risk
    reasons: list[str] = list(start.reasons)
    families: list[str] = list(start.families)
    for item in found:
        level: Level = "blocked" if item.family in deny.families else item.level
        if level == "blocked" and item.level != "blocked":
            item = Finding(item.family, level, item.part, item.why + " (denied by the rules)")
        risk = higher(risk, level)
        if item.reason() not in reasons:
            reasons.append(item.reason())
        if item.family not in families:
            families.append(item.family)
    return Assessment(risk, tuple(reasons), tuple(families))
