"""Places whose files run as code later (runs_later.toml, and the folders on PATH): a
write there is a way to come back, so it is `persistence` whatever wrote it, and what
runs is said in the effect's own sentence ("Creates ~/.local/bin/sudo, which would run
instead of sudo").

Only the standard library and paths: the effect's sentence (whatif) asks this too.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

from assistant.safety import paths
from assistant.tomlread import tomllib

PLACES = Path(__file__).with_name("runs_later.toml")
ON_PATH = "which would run instead of {name}"


@functools.cache
def _places() -> tuple[tuple[re.Pattern[str], str], ...]:
    data = tomllib.loads(PLACES.read_text(encoding="utf-8"))
    return tuple((re.compile(p["pattern"]), str(p["says"])) for p in data["place"])


@functools.lru_cache(maxsize=4)
def _on_path(variable: str) -> tuple[str, ...]:
    """The folders on PATH as the risk check spells them (home as ~), never `.`."""
    return tuple(paths.normalise(p) for p in variable.split(":") if p.startswith(("/", "~")))


def runs_later(path: str) -> str:
    """What runs a file written at `path` later, as the end of a sentence ("which every
    new shell runs"); "" when nothing does."""
    spelled = paths.normalise(path.rstrip("/"))
    name = spelled.rsplit("/", 1)[-1]
    for pattern, says in _places():
        if pattern.search(spelled):
            return says.format(name=name)
    folder = spelled.rsplit("/", 1)[0] if "/" in spelled else ""
    if folder and folder in _on_path(os.environ.get("PATH", "")):
        return ON_PATH.format(name=name)
    return ""


def is_startup(path: str) -> bool:
    """Whether a file at `path` runs as code later (a start-up file, in the widest sense)."""
    return bool(runs_later(path))
