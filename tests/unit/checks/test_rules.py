"""The rules by id: names that resolve, rules that are off, skipped for another language,
held to their times and to the turn's budget, and each firing handed out once."""

from __future__ import annotations

import pytest

from assistant.checks.rules import Rules, turn_rules
from assistant.events import RuleFired
from assistant.rulebook import catalogue, families, profile_for, profiles, resolve


def test_a_family_stands_for_its_rules_and_an_unknown_name_is_one_line() -> None:
    assert resolve("repeat") == frozenset(families()["repeat"])
    assert resolve(["answer.no_figure", "peek"]) == {"answer.no_figure", "peek.request"}
    assert resolve(" , ") == frozenset()
    with pytest.raises(ValueError, match=r"unknown check 'answer\.nope': name a rule id .* "
                                         r"or a family: answer, call, echo"):
        resolve("answer.nope")


def test_every_rule_has_a_family_and_says_what_it_does() -> None:
    for rule in catalogue().values():
        assert rule.id.startswith(f"{rule.family}.") and rule.does, rule


def test_a_rule_that_is_off_never_acts() -> None:
    rules = Rules(resolve("repeat"))
    assert not rules.on("repeat.warmer") and rules.on("answer.no_figure")


def test_rules_that_read_english_are_skipped_visibly_for_another_language() -> None:
    rules = Rules(frozenset({"answer.refused"}), language="fr")
    english = {rule.id for rule in catalogue().values() if rule.english}
    skipped = {each.rule for each in rules.pending() if each.action == "skipped"}
    assert skipped == english - {"answer.refused"}  # one that is off is not said twice
    assert not rules.on("answer.no_figure")
    assert rules.on("answer.numbers")  # works on figures, not words
    assert rules.pending() == []  # each handed out once
    assert Rules(language="en").on("answer.no_figure") and Rules().on("answer.no_figure")


def test_a_rule_acts_at_most_its_times_a_turn() -> None:
    rules = Rules()
    assert catalogue()["answer.failed_last"].times == 1
    assert rules.on("answer.failed_last")
    rules.fire("answer.failed_last", "send_back")
    assert not rules.on("answer.failed_last")
    assert rules.count("answer.failed_last") == 1


def test_send_backs_past_the_budget_are_skipped_and_said() -> None:
    rules = Rules(budget=1)
    assert rules.affordable("answer.no_figure")
    rules.fire("answer.no_figure", "send_back", "how many")
    rules.fire("call.malformed", "refuse")  # a refused call is no extra model call
    assert rules.extra_calls() == 1
    assert not rules.affordable("answer.numbers")
    assert rules.pending()[-1] == RuleFired("answer.numbers", "answer", "skipped",
                                            "the turn's 1 extra model calls are spent")


def test_the_profile_follows_the_model_unless_one_is_named() -> None:
    local = turn_rules("auto", "", "", local=True)
    hosted = turn_rules("auto", "answer.numbers", "", local=False)
    assert local.off == profiles()["small"].off and local.budget == 8
    assert "peek.request" in hosted.off and "answer.numbers" in hosted.off
    assert hosted.budget == profile_for("hosted").extra_calls == 3
    assert turn_rules("all", "", "", local=False).off == frozenset()
    with pytest.raises(ValueError, match="unknown checks profile 'tiny': one of all, small"):
        profile_for("tiny")


def test_what_protects_is_never_off_in_any_profile() -> None:
    protecting = {rule.id for rule in catalogue().values() if rule.protects}
    for name, profile in profiles().items():
        assert not protecting & profile.off, name


def test_calls_refused_cost_no_extra_call_and_send_backs_stop_at_the_budget() -> None:
    rules = Rules(budget=2)
    assert rules.send_back("answer.no_figure")
    assert rules.send_back("repeat.failed_again", costs=False)  # calls refused: no extra call
    assert rules.extra_calls() == 1
    assert [(e.rule, e.action) for e in rules.fired] == [
        ("answer.no_figure", "send_back"), ("repeat.failed_again", "refuse")]
    assert rules.send_back("answer.numbers") and not rules.send_back("answer.names")
