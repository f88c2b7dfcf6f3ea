"""The core loop: one user message in, events out, until the LLM answers in words.

It knows no UI. Front ends consume the events and supply approvals through the policy;
the journal sees every step as it happens.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from assistant.events import (
    Error,
    Event,
    Notice,
    OutputChunk,
    RunEnd,
    TextDelta,
    TurnEnd,
    TurnEndReason,
    Usage,
)
from assistant.journal import Journal
from assistant.llm import LLM, CodeCall, LLMError, Reply
from assistant.llm.results import is_results_message
from assistant.prompt import system_message
from assistant.runtime import Runtimes
from assistant.safety.inputs import request_problem
from assistant.safety.policy import Policy
from assistant.screen import ScreenContext

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
        redact: Callable[[str], str] | None = None,
    ) -> None:
        self.llm = llm
        self.redact = redact or (lambda text: text)
        self.runtimes = runtimes
        self.policy = policy
        self.system = system
        self.max_runs_per_turn = max_runs_per_turn
        self.journal = journal
        self.conversation_id = conversation_id
        self.messages: list[dict[str, Any]] = list(messages or [])
        self.turns = sum(
            1 for m in self.messages if m.get("role") == "user" and not is_results_message(m)
        )
        self._stop = threading.Event()
        self.screen = ScreenContext(llm.settings)
        runtimes.env = self.screen.runtime_env(runtimes.env)

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
        problem = request_problem(text)
        if problem:
            yield Error(problem)
            yield TurnEnd("", "error", self.conversation_id)
            return
        self._stop.clear()
        self.turns += 1
        self.messages.append({"role": "user", "content": text})
        self._record({"kind": "user", "text": text})
        self._snapshot()
        if self.screen.wanted_for(text):
            yield from self._look()
        runs = declines = 0
        failures: Counter[tuple[str, str]] = Counter()
        notes = (self.llm.system_addendum(), self.screen.addendum(), self.runtimes.describe())
        addendum = "\n\n".join(note for note in notes if note)
        system = system_message(self.system, addendum)  # once a turn: it holds for all its calls
        while True:
            reply: Reply | None = None
            pieces: list[str] = []
            yield from self._show_screen()
            try:
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
                yield self._emit(Error(self.redact(str(exc))))
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
                proposal = self.policy.proposal(call.id, call.language, call.code)
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
                results.append((call, self.redact(describe_run(end))))
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
            if self.screen.wanted_after([call.code for call in reply.calls]):
                yield from self._look()
            self._snapshot()

    def _look(self) -> Iterator[Event]:
        """Take a view of the screen for the next request; say so when the desktop cannot."""
        problem = self.screen.capture()
        if problem:
            yield self._emit(Notice(f"The screen is not attached: {problem}"))

    def _show_screen(self) -> Iterator[Event]:
        """Put the newest unseen view into the history, keeping only the last few images."""
        message, problem = self.screen.take()
        if problem:
            yield self._emit(Notice(f"The screen is not attached: {problem}"))
        if message is not None:
            self.messages.append(message)
        self.screen.prune(self.messages)

    def _close_calls(self, calls: list[CodeCall], results: list[tuple[CodeCall, str]]) -> None:
        """Answer every call in the history, so the next request is valid for the provider."""
        answered = {call.id for call, _ in results}
        results = results + [(call, NOT_RUN) for call in calls if call.id not in answered]
        if results:
            self.messages.extend(self.llm.result_messages(results))
