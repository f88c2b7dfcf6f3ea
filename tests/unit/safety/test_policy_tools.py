"""The policy decides tool calls by the tool's rating, never by the proposal's own fields,
and a person's edit of the arguments is decided again like a new call."""

from __future__ import annotations

from assistant.events import Approval, Proposal
from assistant.safety.policy import Policy
from assistant.safety.risk import Assessment

RATINGS = {
    "notes.list": ("mcp:notes", Assessment("low", ("read-only",), ("tool",))),
    "notes.delete": ("mcp:notes", Assessment("high", ("destructive",), ("tool",))),
    "notes.wipe": ("mcp:notes", Assessment("blocked", ("denied",), ("tool",))),
}


class Ratings:
    def rating(self, name: str) -> tuple[str, Assessment] | None:
        return RATINGS.get(name)


def test_a_tool_proposal_carries_its_source_and_rating() -> None:
    policy = Policy(None, tools=Ratings())
    proposal = policy.proposal("1", "notes.delete", '{"name": "a"}')
    assert (proposal.tool, proposal.risk, proposal.reasons) == (
        "mcp:notes", "high", ("destructive",))
    assert policy.proposal("2", "python", "print(1)").tool == ""


def test_auto_runs_only_a_low_risk_tool_and_nothing_runs_a_blocked_one() -> None:
    policy = Policy(lambda proposal: True, mode="auto", tools=Ratings())
    listed = policy.decide(policy.proposal("1", "notes.list", "{}"))
    assert (listed.approved, listed.decided_by) == (True, "policy")
    deleted = policy.decide(policy.proposal("2", "notes.delete", "{}"))
    assert not deleted.approved and "explicit approval by the user" in deleted.reason
    wiped = Policy(lambda p: Approval(p.id, True, "user"), tools=Ratings()).decide(
        policy.proposal("3", "notes.wipe", "{}"))
    assert not wiped.approved and "blocked" in wiped.reason


def test_a_forged_low_rating_on_the_proposal_changes_nothing() -> None:
    policy = Policy(None, mode="auto", tools=Ratings())
    forged = Proposal("1", "notes.delete", "{}", risk="low", tool="mcp:notes")
    assert not policy.decide(forged).approved


def test_always_does_not_cover_a_high_risk_tool_and_an_edit_is_the_callers_own() -> None:
    policy = Policy(lambda p: Approval(p.id, True, "user", always=True), tools=Ratings())
    first = policy.decide(policy.proposal("1", "notes.delete", '{"name": "a"}'))
    assert first.approved
    asked: list[str] = []

    def person(proposal: Proposal) -> Approval:
        asked.append(proposal.code)
        return Approval(proposal.id, True, "user", '{"name": "b"}')

    policy.approver = person
    again = policy.decide(policy.proposal("2", "notes.delete", '{"name": "a"}'))
    assert asked == ['{"name": "a"}'] and again.code == '{"name": "b"}'
