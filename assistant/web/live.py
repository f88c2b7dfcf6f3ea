"""Live turns and the proposals they wait on, between the threads that run turns and the
server's event loop.

A turn's events are kept in order as the journal would store them (`Record.to_dict()`,
plus the highlighted code of proposals) and handed to every stream that follows it. A
proposal waits here for a decision, which is bound to its id and to the sha256 of the code
that was shown: a decision about other code is refused, and the proposal keeps waiting.

A person's yes to high-risk code takes two requests, so a second press is the server's
rule and not only the page's: the first gets a one-time Confirmation bound to the proposal
and to the sha256 of the code that would run, and only the same yes sent again with it
runs. A confirmation is spent by its first use, right or wrong; a first press sent again
gets one more (it runs nothing), and every one ends with the proposal.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
import threading
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from assistant.events import Approval, CodeDraft, Decider, Event, Proposal, TurnEnd
from assistant.web.render import as_data

KEEPALIVE_S = 15.0
CONFIRMATIONS = 8  # unused confirmations kept per proposal; the oldest goes first
Message = tuple[str, int, dict[str, Any]]  # turn id, index in the turn, the event's data


class Busy(Exception):
    """A turn cannot start now (HTTP 409); the message says why."""


class Conflict(Exception):
    """The decision does not match the waiting proposal (HTTP 409)."""


def code_digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


Rate = Callable[[str], str]  # the risk the conversation's policy gives code (an edit)


@dataclass(frozen=True)
class Confirmation:
    """The answer to a first yes on high-risk code: nothing ran. The same decision sent
    again with `token` runs the code whose sha256 is `sha256`, once."""

    token: str
    proposal_id: str
    sha256: str


@dataclass
class LiveTurn:
    """One turn as it happens: its events so far, and whether it is over."""

    text: str
    conversation_id: str = ""
    id: str = field(default_factory=lambda: f"t{uuid.uuid4().hex[:12]}")
    events: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    stopped: str = ""  # why it was interrupted: what it proposes from now on is declined

    def describe(self) -> dict[str, Any]:
        return {"turn_id": self.id, "conversation_id": self.conversation_id, "text": self.text,
                "over": self.over, "events": len(self.events)}


@dataclass
class _Pending:
    proposal: Proposal
    turn: LiveTurn
    answer: Callable[[Approval], None]
    rate: Rate | None = None
    confirmations: dict[str, str] = field(default_factory=dict)  # token -> sha256 to run

    def needs_confirmation(self, approval: Approval) -> bool:
        """Whether this yes is a person's yes to code rated high (as shown, or as edited)."""
        if not approval.approved or approval.decided_by != "user":
            return False  # a program's yes to high risk is the policy's to decline
        code = approval.code or self.proposal.code
        return self.proposal.risk == "high" or (self.rate is not None and
                                                self.rate(code) == "high")

    def confirm(self, sha256: str) -> Confirmation:
        """A new one-time confirmation to run the code whose digest is `sha256`."""
        token = secrets.token_urlsafe(24)
        self.confirmations[token] = sha256
        while len(self.confirmations) > CONFIRMATIONS:
            del self.confirmations[next(iter(self.confirmations))]
        return Confirmation(token, self.proposal.id, sha256)


class _Follower:
    """One open event stream: messages reach its queue on the server's loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, turn_id: str | None) -> None:
        self.loop = loop
        self.turn_id = turn_id
        self.queue: asyncio.Queue[Message | None] = asyncio.Queue()

    def put(self, message: Message | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server has stopped
            self.loop.call_soon_threadsafe(self.queue.put_nowait, message)


class Hub:
    """Every live turn and waiting proposal of one server; safe from any thread."""

    def __init__(self, keep: int = 20) -> None:
        self._lock = threading.Lock()
        self._turns: dict[str, LiveTurn] = {}
        self._pending: dict[str, _Pending] = {}
        self._followers: set[_Follower] = set()
        self._keep = keep  # finished turns kept for late readers
        self.closed = False

    # The threads that run turns.

    def open_turn(self, text: str, conversation_id: str = "") -> LiveTurn:
        turn = LiveTurn(text, conversation_id)
        with self._lock:
            over = [t.id for t in self._turns.values() if t.over]
            for old in over[: max(0, len(over) - self._keep)]:
                del self._turns[old]
            self._turns[turn.id] = turn
        self.publish(turn, {"kind": "user", "text": text})
        return turn

    def publish(self, turn: LiveTurn, event: Event | dict[str, Any]) -> None:
        """Add an event to the turn and send it to every stream that follows it. Code being
        written is not kept (each draft repeats the last, whole): the proposal carries it."""
        if isinstance(event, CodeDraft):
            return
        data = as_data(event)
        with self._lock:
            if turn.over:
                return
            if isinstance(event, TurnEnd):
                turn.over = True
                turn.conversation_id = event.conversation_id or turn.conversation_id
            if isinstance(event, Approval):
                self._pending.pop(event.proposal_id, None)
            message = (turn.id, len(turn.events), data)
            turn.events.append(data)
            followers = [f for f in self._followers if f.turn_id in (None, turn.id)]
        for follower in followers:
            follower.put(message)

    def end(self, turn: LiveTurn, why: str) -> None:
        """A turn that stopped without its TurnEnd (a failure): end it for its readers."""
        if not turn.over:
            self.publish(turn, TurnEnd("", "error", turn.conversation_id, {"why": why}))
        self.cancel(turn, why)

    def offer(self, turn: LiveTurn, proposal: Proposal, answer: Callable[[Approval], None],
              rate: Rate | None = None) -> None:
        """Wait for a decision on `proposal`; `answer` gets it (at most once). `rate` rates
        edited code, so a person's yes to an edit that is high risk takes two requests."""
        with self._lock:
            if not self.closed and not turn.over and not turn.stopped:
                self._pending[proposal.id] = _Pending(proposal, turn, answer, rate)
                return
        answer(Approval(proposal.id, False, "user" if turn.stopped else "caller",
                        reason=turn.stopped or "the server is stopping"))

    def cancel(self, turn: LiveTurn | None, reason: str) -> None:
        """Decline what waits in `turn` (every turn for None): an interrupt, a shutdown."""
        with self._lock:
            if turn is not None:
                turn.stopped = reason  # also for a proposal the policy is about to ask about
            gone = [p for p in self._pending.values() if turn is None or p.turn is turn]
            for pending in gone:
                del self._pending[pending.proposal.id]
        for pending in gone:
            pending.answer(Approval(pending.proposal.id, False, "user", reason=reason))

    # The server's handlers.

    def turn(self, turn_id: str) -> LiveTurn | None:
        with self._lock:
            return self._turns.get(turn_id)

    def live(self) -> list[LiveTurn]:
        with self._lock:
            return [t for t in self._turns.values() if not t.over]

    def shown(self, proposal_id: str) -> bool:
        """Whether a live turn showed this proposal and has not decided it: the policy is
        about to ask (the event goes out just before the question)."""
        with self._lock:
            for turn in self._turns.values():
                kinds = {(data.get("kind"), data.get("id", data.get("proposal_id")))
                         for data in turn.events} if not turn.over else set()
                if ("proposal", proposal_id) in kinds and ("approval", proposal_id) not in kinds:
                    return True
        return False

    def decide(self, proposal_id: str, digest: str, approval: Approval,
               confirm: str = "") -> LiveTurn | Confirmation:
        """Answer a waiting proposal, if `digest` is the sha256 of the code it showed. A
        person's yes to high-risk code without `confirm` only returns a Confirmation; with
        it, the code must be the one that confirmation names."""
        with self._lock:
            pending = self._pending.get(proposal_id)
            if pending is None:
                raise LookupError(f"no proposal {proposal_id!r} is waiting for a decision")
            if digest != code_digest(pending.proposal.code):
                raise Conflict("the code hash does not match the waiting proposal's code: "
                               "decide on the code you were shown")
            if pending.needs_confirmation(approval):
                to_run = code_digest(approval.code or pending.proposal.code)
                if not confirm:
                    return pending.confirm(to_run)
                if pending.confirmations.pop(confirm, None) != to_run:
                    raise Conflict("this confirmation is not valid (used, for other code, or "
                                   "for another proposal): press Run again, then confirm")
            del self._pending[proposal_id]
        pending.answer(approval)
        return pending.turn

    async def follow(self, turn_id: str | None, after: int = -1) -> AsyncIterator[Message | None]:
        """A turn's events (or every turn's for None) from index `after + 1`, then live ones;
        None now and then while nothing happens (for keep-alives). A turn's stream ends
        after its TurnEnd; the stream of every turn ends when the hub closes."""
        follower = _Follower(asyncio.get_running_loop(), turn_id)
        with self._lock:
            turns = [self._turns[turn_id]] if turn_id in self._turns else []
            if turn_id is None:
                turns = [t for t in self._turns.values() if not t.over]
            backlog = [(t.id, i, data) for t in turns for i, data in enumerate(t.events)
                       if turn_id is None or i > after]
            done = bool(turns) and turn_id is not None and turns[0].over
            if not done and not self.closed:
                self._followers.add(follower)
        try:
            for old in backlog:
                yield old
            if done or self.closed:
                return
            while True:
                try:
                    new = await asyncio.wait_for(follower.queue.get(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    yield None
                    continue
                if new is None:
                    return
                yield new
                if turn_id is not None and new[2].get("kind") == "turn_end":
                    return
        finally:
            with self._lock:
                self._followers.discard(follower)

    def close(self) -> None:
        """Stop: waiting proposals are declined and every stream ends."""
        with self._lock:
            self.closed = True
            followers = list(self._followers)
        self.cancel(None, "the server is stopping")
        for follower in followers:
            follower.put(None)


def page_decision(proposal_id: str, *, approved: bool, code: str, always: bool,
                  caller: str) -> Approval:
    """The Approval a decision makes: the page speaks for the person at it, a bearer-token
    client is a program (the policy then declines high-risk code it approves)."""
    by: Decider = "user" if caller == "page" else "caller"
    where = "in the web page" if caller == "page" else "through the web API"
    return Approval(proposal_id, approved, by, code if approved else "", always and approved,
                    reason=f"{'approved' if approved else 'cancelled'} {where}")
