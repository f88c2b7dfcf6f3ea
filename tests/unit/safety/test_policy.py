from __future__ import annotations

from assistant.events import Approval, Proposal
from assistant.safety.policy import Policy

P = Proposal("p1", "shell", "ls")


def test_without_approver_nothing_runs() -> None:
    decision = Policy(None).decide(P)
    assert not decision.approved
    assert decision.decided_by == "policy"


def test_auto_run_is_a_policy_decision() -> None:
    decision = Policy(None, auto_run=True).decide(P)
    assert decision.approved and decision.decided_by == "policy" and decision.code == "ls"


def test_boolean_answer_is_attributed_to_the_caller() -> None:
    assert Policy(lambda p: True).decide(P).decided_by == "caller"
    assert not Policy(lambda p: False).decide(P).approved


def test_always_covers_identical_code_only() -> None:
    asked: list[str] = []

    def approver(proposal: Proposal) -> Approval:
        asked.append(proposal.code)
        return Approval(proposal.id, True, "user", always=True)

    policy = Policy(approver)
    assert policy.decide(P).approved
    again = policy.decide(Proposal("p2", "shell", "ls"))
    assert again.approved and again.proposal_id == "p2" and "always" in again.reason
    policy.decide(Proposal("p3", "shell", "ls -la"))
    policy.decide(Proposal("p4", "python", "ls"))
    assert asked == ["ls", "ls -la", "ls"]


def test_edited_code_is_what_runs_and_ids_cannot_be_swapped() -> None:
    policy = Policy(lambda p: Approval("other", True, "user", code="ls -1"))
    decision = policy.decide(P)
    assert decision.proposal_id == "p1"
    assert decision.code == "ls -1"


def test_declined_carries_no_code() -> None:
    decision = Policy(lambda p: Approval(p.id, False, "user", code="rm -rf /")).decide(P)
    assert not decision.approved and decision.code == ""
