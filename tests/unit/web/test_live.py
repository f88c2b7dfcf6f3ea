"""The hub between the threads that run turns and the server's streams."""

from __future__ import annotations

import asyncio

import pytest

from assistant.events import Approval, Notice, Proposal, TurnEnd
from assistant.web.live import Conflict, Hub, code_digest


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
