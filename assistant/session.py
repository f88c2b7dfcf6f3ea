"""The core loop: one user message in, events out, until the LLM answers in words.

It knows no UI. Front ends consume the events and supply approvals through the policy;
the journal sees every step as it happens.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

from assistant.events import (
    Error,
    Event,
    Notice,
    OutputChunk,
    Proposal,
    RunEnd,
    TextDelta,
    TurnEnd,
    TurnEndReason,
    Usage,
)
from assistant.journal import Journal
from assistant.llm import LLM, CodeCall, LLMError, Reply
from assistant.prompt import system_message
from assistant.runtime import Runtimes
from assistant.safety.policy import Policy

REPEATS_BEFORE_STOP = 3
DECLINES_BEFORE_STOP = 3
NOT_RUN = "Not run: the turn was stopped before this code ran."

STOP_NOTICES = {
    "interrupted": "Stopped: you interrupted the run.",
    "declined": "Stopped: {n} proposals were declined in this turn; say what you want instead.",
    "max_runs": "Stopped after {n} runs in one turn (max_runs_per_turn): say how to continue.",
    "repeated_failure": "Stopped: the same code failed {n} times in a row; it will not work as is.",
}


def describe_run(end: RunEnd) -> str:
    """What the LLM reads about a run: its output and how it ended."""
    output = end.output if end.output.strip() else "(no output)"
    if end.exit_status not in (0, None):
        output += f"\n[exit status {end.exit_status}]"
    return output


class Session:
    """One conversation: its history, its runtimes, its policy and its journal entry."""

    def __init__(
        self,
        llm: LLM,
        runtimes: Runtimes,
        policy: Policy,
        *,
        system: str = "",
        max_runs_per_turn: int = 20,
        journal: Journal | None = None,
        conversation_id: str = "",
        messages: list[dict[str, Any]] | None = None,
    ) -> None:
        self.llm = llm
        self.runtimes = runtimes
        self.policy = policy
        self.system = system
        self.max_runs_per_turn = max_runs_per_turn
        self.journal = journal
        self.conversation_id = conversation_id
        self.messages: list[dict[str, Any]] = list(messages or [])
        self.turns = sum(1 for m in self.messages if m.get("role") == "user")
        self._stop = threading.Event()

    def interrupt(self) -> None:
        """Stop whatever the turn is doing now: the LLM stream or the running code."""
        self._stop.set()
        self.runtimes.interrupt()

    def _record(self, item: Event | dict[str, Any]) -> None:
        if self.journal is None:
            return
        if not self.conversation_id:
            self.conversation_id = self.journal.start_conversation(self.llm.settings.model)
        self.journal.record(self.conversation_id, self.turns, item)

    def _snapshot(self) -> None:
        if self.journal is not None and self.conversation_id:
            self.journal.save_messages(self.conversation_id, self.messages, self.llm.settings.model)

    def _emit(self, event: Event) -> Event:
        if not isinstance(event, (TextDelta, OutputChunk)):
            self._record(event)
        return event

    def _end(self, text: str, reason: TurnEndReason, n: int = 0) -> Iterator[Event]:
        if reason in STOP_NOTICES:
            yield self._emit(Notice(STOP_NOTICES[reason].format(n=n)))
        self._snapshot()
        yield self._emit(TurnEnd(text, reason, self.conversation_id))

    def turn(self, text: str) -> Iterator[Event]:
        """Run one turn; the generator may be abandoned at any point without losing history.

        A KeyboardInterrupt raised while the LLM is answering (a front end's way to break
        a blocked network read) ends the turn as interrupted, keeping the words so far.
        """
        self._stop.clear()
        self.turns += 1
        self.messages.append({"role": "user", "content": text})
        self._record({"kind": "user", "text": text})
        self._snapshot()
        runs = declines = 0
        failures: Counter[tuple[str, str]] = Counter()
        while True:
            reply: Reply | None = None
            pieces: list[str] = []
            try:
                system = system_message(self.system, self.llm.system_addendum())
                stream = self.llm.stream(
                    [{"role": "system", "content": system}, *self.messages],
                    should_stop=self._stop.is_set,
                )
                for item in stream:
                    if isinstance(item, str):
                        pieces.append(item)
                        yield TextDelta(item)
                    else:
                        reply = item
            except KeyboardInterrupt:
                self._stop.set()
                words = "".join(pieces)
                reply = Reply(words, [], {"role": "assistant", "content": words}, None,
                              self.llm.settings.model, stopped=True)
            except LLMError as exc:
                yield self._emit(Error(str(exc)))
                yield from self._end("", "error")
                return
            if reply is None:
                yield self._emit(Error("The LLM ended its reply without a result: try again."))
                yield from self._end("", "error")
                return
            self.messages.append(reply.message)
            self._record({"kind": "assistant", "text": reply.text, "model": reply.model})
            if reply.usage:
                yield self._emit(Usage(reply.model, reply.usage[0], reply.usage[1]))
            if self._stop.is_set():
                self._close_calls(reply.calls, [])
                yield from self._end(reply.text, "interrupted")
                return
            if not reply.calls:
                yield from self._end(reply.text, "answered")
                return

            results: list[tuple[CodeCall, str]] = []
            stop: tuple[TurnEndReason, int] | None = None
            for call in reply.calls:
                if stop:
                    break
                proposal = Proposal(call.id, call.language, call.code)
                yield self._emit(proposal)
                approval = self.policy.decide(proposal)
                yield self._emit(approval)
                if self._stop.is_set():
                    results.append((call, "Not run: the user stopped the turn."))
                    stop = ("interrupted", 0)
                    continue
                if not approval.approved:
                    why = f" ({approval.reason})" if approval.reason else ""
                    results.append((call, f"The user declined to run this code{why}."))
                    declines += 1
                    if declines >= DECLINES_BEFORE_STOP:
                        stop = ("declined", declines)
                    continue
                end: RunEnd | None = None
                for event in self.runtimes.run(call.language, approval.code, proposal_id=call.id):
                    yield self._emit(event)
                    if isinstance(event, RunEnd):
                        end = event
                assert end is not None, "a run always ends with RunEnd"
                results.append((call, describe_run(end)))
                runs += 1
                key = (call.language, approval.code)
                failures[key] = failures[key] + 1 if end.exit_status != 0 else 0
                if end.interrupted or self._stop.is_set():
                    stop = ("interrupted", 0)
                elif failures[key] >= REPEATS_BEFORE_STOP:
                    stop = ("repeated_failure", failures[key])
                elif runs >= self.max_runs_per_turn:
                    stop = ("max_runs", runs)
            self._close_calls(reply.calls, results)
            if stop:
                yield from self._end("", *stop)
                return
            self._snapshot()

    def _close_calls(self, calls: list[CodeCall], results: list[tuple[CodeCall, str]]) -> None:
        """Answer every call in the history, so the next request is valid for the provider."""
        answered = {call.id for call, _ in results}
        results = results + [(call, NOT_RUN) for call in calls if call.id not in answered]
        if results:
            self.messages.extend(self.llm.result_messages(results))
