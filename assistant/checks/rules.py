"""Every rule by id, and one turn's record of which fired, which were off and which were
skipped: the loop asks `on(id)` before a rule acts and says `fire(id, verdict)` when it
does, and each becomes a `RuleFired` event in the journal.

The rules are data (rules.toml): id, family, whether the rule reads English words, and
whether it protects (kept whatever an ablation finds). A rule is off when its id or its
family is named in `checks_off`, or by the model's profile (profiles.toml); a rule that
reads English is skipped for a request in another language, visibly.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from assistant.events import RuleFired
from assistant.tomlread import tomllib

HERE = Path(__file__).resolve().parent
# What a rule did: sent the reply back (one more model call), annotated the answer or a
# result, stood in for the answer with words from the record, edited the answer's words,
# rewrote code before approval, refused a call in place of running it, warmed the next
# reply's temperature; or nothing (skipped, with why).
Action = Literal["send_back", "annotate", "stand_in", "edit", "rewrite", "refuse", "warm",
                 "skipped"]


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


def turn_rules(profile: str, off: str, language: str, local: bool) -> Rules:
    """One turn's rules: those of the model's `profile` ("auto": small for a `local` model,
    hosted otherwise), less the ids and families `off` names, for a request in `language`."""
    chosen = profile_for(("small" if local else "hosted") if profile == "auto" else profile)
    return Rules(chosen.off | resolve(off), language, chosen.extra_calls)


def is_english(language: str) -> bool:
    """Whether a rule that reads English words applies: English, or not known."""
    return language in ("", "en")


@dataclass
class Rules:
    """One turn's rules: which are off, the request's language, and what fired so far."""

    off: frozenset[str] = frozenset()
    language: str = ""
    budget: int = 8  # model calls the checks may add to the turn (send-backs)
    fired: list[RuleFired] = field(default_factory=list)  # every firing and skip, in order
    _pending: int = 0  # how many of `fired` the loop has not emitted yet

    def __post_init__(self) -> None:
        """For a request in another language than English, every rule that reads English
        words is recorded as skipped at the start: the turn says which did not run."""
        unknown = self.off - catalogue().keys()
        if unknown:
            raise ValueError(f"unknown rule ids: {', '.join(sorted(unknown))}")
        if not is_english(self.language):
            for rule in catalogue().values():
                if rule.english and rule.id not in self.off:
                    self._record(rule, "skipped", f"reads English; the request is in "
                                 f"{self.language}")

    def on(self, rule: str) -> bool:
        """Whether `rule` may act in this turn: not off, not past its times, and, if it
        reads English words, the request is in English (or its language is not known)."""
        known = catalogue()[rule]
        if rule in self.off or (known.times and self.count(rule) >= known.times):
            return False
        return not (known.english and not is_english(self.language))

    def fire(self, rule: str, action: Action, detail: str = "") -> None:
        """Record that `rule` acted."""
        self._record(catalogue()[rule], action, detail)

    def pending(self) -> list[RuleFired]:
        """The firings not handed out yet; the loop emits them as events."""
        new = self.fired[len(self.fired) - self._pending:] if self._pending else []
        self._pending = 0
        return new

    def count(self, rule: str, action: Action | None = None) -> int:
        """How many times `rule` acted in this turn (as `action`, if given): the counters
        the turn's limits read, derived from the record."""
        return sum(1 for each in self.fired if each.rule == rule
                   and each.action != "skipped" and (action is None or each.action == action))

    def send_back(self, rule: str, costs: bool = True) -> bool:
        """Record a reply sent back by `rule`; a reply of calls refused costs no extra model
        call. False, recorded as a skip, when the turn's budget has no call left for it."""
        if costs and not self.affordable(rule):
            return False
        self.fire(rule, "send_back" if costs else "refuse")
        return True

    def extra_calls(self) -> int:
        """The model calls the checks have added to this turn: one per reply sent back."""
        return sum(1 for each in self.fired if each.action == "send_back")

    def affordable(self, rule: str) -> bool:
        """Whether the budget has a model call left for `rule` to send a reply back; when it
        has not, that is recorded as a skip."""
        if self.extra_calls() < self.budget:
            return True
        self._record(catalogue()[rule], "skipped", f"the turn's {self.budget} extra model "
                     "calls are spent")
        return False

    def _record(self, rule: Rule, action: Action, detail: str) -> None:
        self.fired.append(RuleFired(rule.id, rule.family, action, detail[:200]))
        self._pending += 1
