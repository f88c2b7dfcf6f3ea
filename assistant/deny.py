"""The deny setting: the families of the risk check's findings, and the families and
command names that are never run, whoever approves.

Low in the layers, beside config: Settings reads and checks the setting on entry, and the
risk check (assistant/safety) applies it, so neither imports the other for it.
"""

from __future__ import annotations

from dataclasses import dataclass

FAMILIES = (
    "wide-delete", "delete", "disk-write", "fork-bomb", "download-exec", "obfuscated-exec",
    "secrets", "exfiltration", "persistence", "privilege", "kill-many", "security-off",
    "system-write", "self-tamper", "power", "network", "install", "desktop", "dynamic",
    "unparsed",
)
# Families blocked unless the deny setting says otherwise: nobody means these by accident.
DEFAULT_DENY = "wide-delete,disk-write,fork-bomb,self-tamper"


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
