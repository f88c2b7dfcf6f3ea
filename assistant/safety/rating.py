"""The risk check's words apart from its checkers: the families of findings, the deny
rules, the verdict (Assessment) and how findings become one (judged).

Settings, the API and the tool ratings need these before any code is proposed; the
checkers (safety/risk.py and the shell, Python and JavaScript readers it loads, hundreds
of regular expressions) are imported only when a proposal is rated, so a command does not
pay for them before the model's first word.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.safety.findings import Finding, Level, higher

FAMILIES = (
    "wide-delete", "delete", "disk-write", "fork-bomb", "download-exec", "obfuscated-exec",
    "secrets", "exfiltration", "persistence", "privilege", "kill-many", "security-off",
    "system-write", "self-tamper", "power", "network", "install", "desktop", "dynamic",
    "unparsed",
)
# Families blocked unless the deny setting says otherwise: nobody means these by accident.
DEFAULT_DENY = "wide-delete,disk-write,fork-bomb,self-tamper"


@dataclass(frozen=True)
class Assessment:
    """The verdict on one snippet: the highest level found, and every reason for it."""

    risk: Level = "low"
    reasons: tuple[str, ...] = ()
    families: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        return {"risk": self.risk, "reasons": list(self.reasons), "families": list(self.families)}


@dataclass(frozen=True)
class DenyRules:
    """Families and shell command names that are never run, whoever approves.

    Written as text so it fits config.toml and the environment: comma-separated family
    names (see FAMILIES) and `command:NAME` entries, e.g. "wide-delete,command:shutdown".
    """

    families: frozenset[str] = frozenset(DEFAULT_DENY.split(","))
    commands: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, text: str) -> DenyRules:
        entries = [e.strip() for e in text.split(",") if e.strip()]
        commands = {e.split(":", 1)[1].strip() for e in entries if e.startswith("command:")}
        families = {e for e in entries if not e.startswith("command:")}
        unknown = families - set(FAMILIES)
        if unknown:
            raise ValueError(
                f"unknown deny family {sorted(unknown)[0]!r}: use {', '.join(FAMILIES)} "
                "or command:NAME"
            )
        return cls(frozenset(families), frozenset(commands))


def judged(found: list[Finding], deny: DenyRules, start: Assessment | None = None) -> Assessment:
    """The verdict on findings (added to a rating made already, such as a tool's): the
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
