"""Where a check's verdict meets the turn's rules: whether its rule may act now, and its
firing recorded (a `RuleFired` event). The checks only return verdicts; this is the one
place that asks the rules and fires them, for the pipeline's stages and the loop's replies
and answers alike (tests/unit/test_layers.py holds every other module to that)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar

from assistant.checks.rules import Action, Rules
from assistant.checks.verdicts import (
    Annotate,
    Edit,
    Refuse,
    Rewrite,
    SendBack,
    StandIn,
    Verdict,
    Warm,
)

V = TypeVar("V", bound=Verdict)


class Ruled(Protocol):
    @property
    def rule(self) -> str: ...


R = TypeVar("R", bound=Ruled)

ACTIONS: dict[type, Action] = {Annotate: "annotate", StandIn: "stand_in", Edit: "edit",
                               Rewrite: "rewrite", Refuse: "refuse", Warm: "warm"}


def allows(rules: Rules, rule: str) -> bool:
    """Whether `rule` may act in this turn, asked before a check whose work shows as it
    happens (a cut while a reply streams); nothing is recorded."""
    return rules.on(rule)


def applies(rules: Rules, verdict: Verdict, costs: bool = True) -> bool:
    """Whether `verdict` takes effect: its rule may act, and, for a reply sent back that
    `costs` a model call, the turn's budget has one left (else the skip is recorded).
    Its firing is recorded when it does."""
    if not rules.on(verdict.rule):
        return False
    if isinstance(verdict, SendBack):
        return rules.send_back(verdict.rule, costs, verdict.detail)
    fired(rules, verdict)
    return True


def fired(rules: Rules, verdict: Verdict) -> None:
    """Record `verdict`'s firing whatever the rules say: for a rule that is never off (a
    malformed call cannot run as sent)."""
    detail = verdict.detail if isinstance(verdict, (Annotate, Edit, Refuse)) else ""
    rules.fire(verdict.rule, ACTIONS[type(verdict)], detail)


def first(rules: Rules, verdicts: Iterable[V]) -> V | None:
    """The first of a check's verdicts, in its order, whose rule may act: applied."""
    return next((each for each in verdicts if applies(rules, each)), None)


def chosen(rules: Rules, verdicts: Iterable[R]) -> R | None:
    """The first of a check's verdicts (or findings) whose rule may act, not applied (yet):
    one the turn's budget may still refuse, or one only read."""
    return next((each for each in verdicts if rules.on(each.rule)), None)
