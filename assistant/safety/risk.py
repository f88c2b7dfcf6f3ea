"""The static risk check: reads a proposal's code (not its words) and rates what it would do.

Shell is parsed into commands, Python into its syntax tree, JavaScript by careful
patterns; each checker reports findings with the exact part of the code that caused
them. Deny rules turn findings into `blocked`, which no approval can run.
"""

from __future__ import annotations

import re

from assistant.runtime.languages import canonical_language
from assistant.safety import js_risk, python_risk, shell_risk
from assistant.safety.findings import LEVELS, Finding, Level, Scope
from assistant.safety.rating import Assessment, DenyRules, judged

__all__ = ["LEVELS", "Assessment", "DenyRules", "Finding", "Level", "assess", "commands_run"]

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
