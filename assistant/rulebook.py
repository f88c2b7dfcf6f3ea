"""The rules of checks/rules.toml and the model profiles of checks/profiles.toml, read
as data: the names `checks_off` and `checks_profile` may take.

Low in the layers, beside config, so that Settings checks those names on entry without
importing the checks; one turn's record of which rules fired is checks/rules.py's.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from assistant.tomlread import tomllib

HERE = Path(__file__).resolve().parent / "checks"


@dataclass(frozen=True)
class Rule:
    id: str
    family: str
    does: str
    english: bool = False
    protects: bool = False
    times: int = 0  # how often it may act in one turn; 0: no limit


@functools.cache
def catalogue() -> dict[str, Rule]:
    """The rules of rules.toml, by id."""
    data = tomllib.loads((HERE / "rules.toml").read_text(encoding="utf-8"))
    return {name: Rule(name, entry["family"], entry["does"], entry.get("english", False),
                       entry.get("protects", False), entry.get("times", 0))
            for name, entry in data["rules"].items()}


def families() -> dict[str, list[str]]:
    """The rule ids of each family."""
    found: dict[str, list[str]] = {}
    for rule in catalogue().values():
        found.setdefault(rule.family, []).append(rule.id)
    return found


def resolve(names: str | Iterable[str]) -> frozenset[str]:
    """The rule ids that `names` (ids or families, comma-separated or a list) stand for;
    ValueError, in one line that lists the families, for a name that is neither."""
    words = names.split(",") if isinstance(names, str) else list(names)
    ids: set[str] = set()
    groups = families()
    for word in (word.strip() for word in words):
        if not word:
            continue
        if word in catalogue():
            ids.add(word)
        elif word in groups:
            ids.update(groups[word])
        else:
            raise ValueError(f"unknown check {word!r}: name a rule id (see assistant/checks/"
                             f"rules.toml) or a family: {', '.join(sorted(groups))}")
    return frozenset(ids)


@dataclass(frozen=True)
class Profile:
    """A model profile: the rules it turns off, and the model calls the checks may add to
    one turn."""

    off: frozenset[str]
    extra_calls: int


@functools.cache
def profiles() -> dict[str, Profile]:
    """The model profiles of profiles.toml, by name."""
    data = tomllib.loads((HERE / "profiles.toml").read_text(encoding="utf-8"))
    return {name: Profile(resolve(entry.get("off", [])), int(entry["extra_calls"]))
            for name, entry in data["profiles"].items()}


def profile_for(name: str) -> Profile:
    """The profile `name`; ValueError naming those there are."""
    try:
        return profiles()[name]
    except KeyError:
        raise ValueError(f"unknown checks profile {name!r}: one of "
                         f"{', '.join(profiles())}") from None
