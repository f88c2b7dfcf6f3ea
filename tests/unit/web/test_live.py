"""The hub between the threads that run turns and the server's streams."""

from __future__ import annotations

import asyncio

import pytest

from assistant.events import Approval, Notice, Proposal, TurnEnd
from assistant.web.live import (
    CONFIRMATIONS,
    Confirmation,
    Conflict,
    Hub,
    LiveTurn,
    Rate,
    code_digest,
)


def test_a_decision_is_bound_to_the_id_and_the_code_shown() -> None:
    hub = Hub()
    turn = hub.open_turn("go")
    answers: list[Approval] = []
    proposal = Proposal("p1", "shell", "ls")
    hub.publish(turn, proposal)
    assert hub.shown("p1")
    hub.offer(turn, proposal, answers.append)
    yes = Approval("p1", True, "user", "ls")
    with pytest.raises(LookupError):
        hub.decide("p2", code_digest("ls"), yes)
    with pytest.raises(Conflict):
        hub.decide("p1", code_digest("ls -la"), yes)
    assert answers == []
    assert hub.decide("p1", code_digest("ls"), yes) is turn
    assert answers == [yes]
    with pytest.raises(LookupError):  # answered once
        hub.decide("p1", code_digest("ls"), yes)


def test_interrupt_and_close_decline_what_waits() -> None:
    hub = Hub()
    turn = hub.open_turn("go")
    answers: list[Approval] = []
    hub.offer(turn, Proposal("p1", "shell", "ls"), answers.append)
    hub.cancel(turn, "interrupted")
    assert [(a.approved, a.reason) for a in answers] == [(False, "interrupted")]
    # A proposal the policy asks about just after the interrupt is declined at once.
    hub.offer(turn, Proposal("p1b", "shell", "ls"), answers.append)
    assert (answers[-1].proposal_id, answers[-1].approved, answers[-1].decided_by,
            answers[-1].reason) == ("p1b", False, "user", "interrupted")
    hub.close()
    hub.offer(turn, Proposal("p2", "shell", "ls"), answers.append)
    assert answers[-1].approved is False


def test_streams_replay_then_follow_and_end_with_the_turn() -> None:
    hub = Hub()
    turn = hub.open_turn("go")
    hub.publish(turn, Notice("first"))

    async def read(turn_id: str | None) -> list[str]:
        kinds = []
        async for message in hub.follow(turn_id):
            assert message is not None
            kinds.append(message[2]["kind"])
            if len(kinds) == 2:
                await asyncio.to_thread(hub.publish, turn, TurnEnd("done"))
            if turn_id is None and kinds[-1] == "turn_end":
                break
        return kinds

    assert asyncio.run(read(turn.id)) == ["user", "notice", "turn_end"]
    assert asyncio.run(read(turn.id)) == ["user", "notice", "turn_end"]  # over: replay only
    late = hub.open_turn("again")
    hub.publish(late, Notice("n"))
    turn = late
    assert asyncio.run(read(None)) == ["user", "notice", "turn_end"]


def waiting(hub: Hub, proposal: Proposal, rate: Rate | None = None,
            answers: list[Approval] | None = None) -> list[Approval]:
    """`proposal` shown in a new turn and waiting; its answers land in `answers` (a new list
    if none), returned."""
    turn = hub.open_turn("go")
    hub.publish(turn, proposal)
    answers = [] if answers is None else answers
    hub.offer(turn, proposal, answers.append, rate)
    return answers


def test_a_persons_yes_to_high_risk_runs_only_with_the_confirmation_it_got() -> None:
    hub = Hub()
    code = "sudo rm -rf /srv/old"
    answers = waiting(hub, Proposal("p1", "shell", code, "high"))
    yes = Approval("p1", True, "user", code)
    first = hub.decide("p1", code_digest(code), yes)
    assert isinstance(first, Confirmation) and answers == []
    assert (first.proposal_id, first.sha256) == ("p1", code_digest(code))
    assert isinstance(hub.decide("p1", code_digest(code), yes, first.token), LiveTurn)
    assert answers == [yes]
    with pytest.raises(LookupError):  # the same confirmation again: nothing waits
        hub.decide("p1", code_digest(code), yes, first.token)


def test_a_replayed_first_press_runs_nothing_and_a_made_up_confirmation_neither() -> None:
    hub = Hub()
    code = "sudo true"
    answers = waiting(hub, Proposal("p1", "shell", code, "high"))
    yes = Approval("p1", True, "user", code)
    first = hub.decide("p1", code_digest(code), yes)
    replayed = hub.decide("p1", code_digest(code), yes)
    assert isinstance(first, Confirmation) and isinstance(replayed, Confirmation)
    assert first.token != replayed.token and answers == []
    with pytest.raises(Conflict, match="not valid"):
        hub.decide("p1", code_digest(code), yes, "made-up")
    assert answers == []
    assert isinstance(hub.decide("p1", code_digest(code), yes, first.token), LiveTurn)
    assert answers == [yes]


def test_confirmations_are_kept_a_few_at_a_time() -> None:
    hub = Hub()
    code = "sudo true"
    answers = waiting(hub, Proposal("p1", "shell", code, "high"))
    yes = Approval("p1", True, "user", code)
    oldest = hub.decide("p1", code_digest(code), yes)
    for _ in range(CONFIRMATIONS):
        hub.decide("p1", code_digest(code), yes)
    assert isinstance(oldest, Confirmation)
    with pytest.raises(Conflict):
        hub.decide("p1", code_digest(code), yes, oldest.token)
    assert answers == []


def test_a_confirmation_runs_only_the_code_it_was_given_for() -> None:
    hub = Hub()
    code = "sudo true"
    answers = waiting(hub, Proposal("p1", "shell", code, "high"))
    first = hub.decide("p1", code_digest(code), Approval("p1", True, "user", code))
    assert isinstance(first, Confirmation)
    other = Approval("p1", True, "user", "sudo reboot")
    with pytest.raises(Conflict, match="for other code"):
        hub.decide("p1", code_digest(code), other, first.token)
    with pytest.raises(Conflict):  # spent by that try
        hub.decide("p1", code_digest(code), Approval("p1", True, "user", code), first.token)
    assert answers == []


def test_a_confirmation_from_one_proposal_does_not_run_another() -> None:
    hub = Hub()
    answers = waiting(hub, Proposal("p1", "shell", "sudo true", "high"))
    waiting(hub, Proposal("p2", "shell", "sudo true", "high"), answers=answers)
    yes = Approval("p1", True, "user", "sudo true")
    first = hub.decide("p1", code_digest("sudo true"), yes)
    assert isinstance(first, Confirmation)
    with pytest.raises(Conflict):
        hub.decide("p2", code_digest("sudo true"), Approval("p2", True, "user", "sudo true"),
                   first.token)
    assert answers == []


def test_an_edit_rated_high_needs_the_second_press_and_low_risk_needs_none() -> None:
    hub = Hub()
    answers = waiting(hub, Proposal("p1", "shell", "ls", "low"),
                      rate=lambda code: "high" if "sudo" in code else "low")
    edited = Approval("p1", True, "user", "sudo ls")
    assert isinstance(hub.decide("p1", code_digest("ls"), edited), Confirmation)
    plain = waiting(hub, Proposal("p2", "shell", "ls", "low"))
    assert isinstance(hub.decide("p2", code_digest("ls"), Approval("p2", True, "user", "ls")),
                      LiveTurn)
    assert len(plain) == 1 and answers == []


def test_no_and_a_programs_yes_need_no_confirmation() -> None:
    hub = Hub()
    answers = waiting(hub, Proposal("p1", "shell", "sudo true", "high"))
    assert isinstance(hub.decide("p1", code_digest("sudo true"), Approval("p1", False, "user")),
                      LiveTurn)
    waiting(hub, Proposal("p2", "shell", "sudo true", "high"), answers=answers)
    caller = Approval("p2", True, "caller", "sudo true")  # the policy declines it
    assert isinstance(hub.decide("p2", code_digest("sudo true"), caller), LiveTurn)
    assert [a.approved for a in answers] == [False, True]
