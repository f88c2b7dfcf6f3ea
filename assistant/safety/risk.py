"""The static risk check: reads a proposal's code (not its words) and rates what it would do.

Shell is parsed into commands, Python into its syntax tree, JavaScript by careful
patterns; each checker reports findings with the exact part of the code that caused
them. Deny rules turn findings into `blocked`, which no approval can run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Level = Literal["low", "medium", "high", "blocked"]
LEVELS: tuple[Level, ...] = ("low", "medium", "high", "blocked")

FAMILIES = (
    "wide-delete", "delete", "disk-write", "fork-bomb", "download-exec", "obfuscated-exec",
    "secrets", "exfiltration", "persistence", "privilege", "kill-many", "security-off",
    "system-write", "self-tamper", "power", "network", "install", "dynamic", "unparsed",
)
# Families blocked unless the deny setting says otherwise: nobody means these by accident.
DEFAULT_DENY = "wide-delete,disk-write,fork-bomb,self-tamper"


@dataclass(frozen=True)
class Finding:
    """One risky thing the code does; `part` is the code that does it."""

    family: str
    level: Level
    part: str
    why: str

    def reason(self) -> str:
        part = " ".join(self.part.split())
        part = part if len(part) <= 80 else part[:77] + "..."
        return f"{self.family}: `{part}` {self.why}"


@dataclass(frozen=True)
class Assessment:
    """The verdict on one snippet: the highest level found, and every reason for it."""

    risk: Level = "low"
    reasons: tuple[str, ...] = ()
    families: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        return {"risk": self.risk, "reasons": list(self.reasons), "families": list(self.families)}


def higher(a: Level, b: Level) -> Level:
    return a if LEVELS.index(a) >= LEVELS.index(b) else b


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


def findings_for(
    code: str, language: str, protected: tuple[str, ...] = (), seen: set[str] | None = None
) -> list[Finding]:
    """Every finding for a snippet; `seen` collects the shell commands it would start."""
    from assistant.safety import js_risk, python_risk, shell_risk

    lang = language.lower()
    if lang in ("shell", "bash", "sh", "zsh"):
        return shell_risk.check(code, protected, seen)
    if lang in ("python", "py", "python3"):
        return python_risk.check(code, protected, seen)
    if lang in ("javascript", "js", "node"):
        return js_risk.check(code, protected, seen)
    return [Finding("unparsed", "medium", language, "is a language the risk check cannot read")]


def assess(
    code: str,
    language: str,
    deny: DenyRules | None = None,
    protected: tuple[str, ...] = (),
) -> Assessment:
    """Rate a snippet; deny rules raise matching findings to `blocked`."""
    from assistant.safety.shell_risk import commands_run

    deny = deny or DenyRules()
    found = findings_for(code, language, protected)
    if deny.commands:
        for name in sorted(commands_run(code, language) & deny.commands):
            found.append(Finding("denied", "blocked", name, "is a command the deny rules forbid"))
    risk: Level = "low"
    reasons: list[str] = []
    families: list[str] = []
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
