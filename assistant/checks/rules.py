"""Every rule by id, and one turn's record of which fired, which were off and which were
skipped: the one place verdicts are applied (assistant/actions/apply.py) asks `on(id)`
before a rule acts and says `fire(id, action)` when it does, and each becomes a
`RuleFired` event in the journal.

The rules are data (rules.toml, read by assistant/rulebook): id, family, whether the rule
reads English words, and whether it protects (kept whatever an ablation finds). A rule is
off when its id or its family is named in `checks_off`, or by the model's profile
(profiles.toml); a rule that reads English is skipped for a request in another language,
visibly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from assistant.events import RuleFired
from assistant.rulebook import Rule, catalogue, profile_for, resolve

# What a rule did: sent the reply back (one more model call), annotated the answer or a
# result, stood in for the answer with words from the record, edited the answer's words,
# rewrote code before approval, refused a call in place of running it, warmed the next
# reply's temperature; or nothing (skipped, with why).
Action = Literal["send_back", "annotate", "stand_in", "edit", "rewrite", "refuse", "warm",
                 "skipped"]


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

    def send_back(self, rule: str, costs: bool = True, detail: str = "") -> bool:
        """Record a reply sent back by `rule`; a reply of calls refused costs no extra model
        call. False, recorded as a skip, when the turn's budget has no call left for it."""
        if costs and not self.affordable(rule):
            return False
        self.fire(rule, "send_back" if costs else "refuse", detail)
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
