"""The static risk check: reads a proposal's code (not its words) and rates what it would do.

Shell is parsed into commands, Python into its syntax tree, JavaScript by careful
patterns; each checker reports findings with the exact part of the code that caused
them. Deny rules turn findings into `blocked`, which no approval can run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assistant.runtime.languages import canonical_language
from assistant.safety import js_risk, python_risk, shell_risk
from assistant.safety.findings import LEVELS, Finding, Level, Scope, higher

__all__ = ["LEVELS", "Assessment", "DenyRules", "Finding", "Level", "assess", "commands_run"]

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


CHECKERS = {"shell": shell_risk.check, "python": python_risk.check,
            "javascript": js_risk.check}


OWN_PAGE = re.compile(r"(?:127\.0\.0\.1|localhost|\[::1\]|0\.0\.0\.0):8421\b[^\s'\"]*")
"""The web page at its default address (`serve_port`), where proposals are approved."""


def findings_for(code: str, language: str, scope: Scope) -> list[Finding]:
    """Every finding for a snippet, and for code in another language found inside it."""
    checker = CHECKERS.get(canonical_language(language) or "")
    if checker is None:
        return [Finding("unparsed", "medium", language,
                        "is a language the risk check cannot read")]
    page = OWN_PAGE.search(code)
    return checker(code, scope) + ([Finding(
        "network", "medium", page.group(0),
        "talks to the assistant's own web page, where proposals are approved")] if page else [])


def commands_run(code: str, language: str) -> set[str]:
    """Names of the shell commands a snippet runs (directly or through subprocess calls)."""
    seen: set[str] = set()
    findings_for(code, language, Scope(seen=seen, nested=findings_for))
    return seen


def assess(
    code: str,
    language: str,
    deny: DenyRules | None = None,
    protected: tuple[str, ...] = (),
) -> Assessment:
    """Rate a snippet; deny rules raise matching findings to `blocked`."""
    deny = deny or DenyRules()
    found = findings_for(code, language, Scope(protected, nested=findings_for))
    if deny.commands:
        for name in sorted(commands_run(code, language) & deny.commands):
            found.append(Finding("denied", "blocked", name, "is a command the deny rules forbid"))
    return judged(found, deny)


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
