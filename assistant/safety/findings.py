"""What every risk checker reports, and what it is given besides the code.

One module for the shared vocabulary, so the shell, Python and JavaScript checkers
depend on it and on each other in one direction only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

# Declared with the settings' words (a tool's risk is set in config.toml), said here too
# for the checkers.
from assistant.choices import LEVELS as LEVELS
from assistant.choices import Level as Level


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


Nested = Callable[[str, str, "Scope"], list[Finding]]


@dataclass
class Scope:
    """What a checker is given besides the code: the assistant's own paths, where the
    names of the commands the code would start are collected, the reader of code in
    another language found inside it (`python3 -c`, `os.system`, `execSync`), and the
    folder the code starts in when code around it changed folder first ("" = unknown);
    `started` collects each command with its arguments, for the programs known to be
    harmless (safety/earned.py)."""

    protected: tuple[str, ...] = ()
    seen: set[str] | None = None
    started: list[tuple[str, tuple[str, ...]]] | None = None
    nested: Nested | None = None
    cwd: str = ""

    def inner(self, code: str, language: str) -> list[Finding]:
        return self.nested(code, language, self) if self.nested is not None else []

    def at(self, cwd: str) -> Scope:
        """This scope for code started in another folder."""
        return self if cwd == self.cwd else replace(self, cwd=cwd)

    def saw(self, command: str, args: tuple[str, ...] = ()) -> None:
        if self.seen is not None:
            self.seen.add(command)
        if self.started is not None:
            self.started.append((command, args))


def higher(a: Level, b: Level) -> Level:
    return a if LEVELS.index(a) >= LEVELS.index(b) else b
