"""The core loop: one user message in, events out, until the turn ends in words.

It knows no UI. Front ends consume the events and supply approvals through the policy;
the journal sees every step as it happens. What the checks (assistant.checks) find is a
verdict; the session applies verdicts and decides nothing about the model's words itself.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.checks.peek import peek
from assistant.checks.peek import wanted as peek_wanted
from assistant.checks.requested import Request
from assistant.checks.rules import Rules, turn_rules
from assistant.events import (
    CodeDraft,
    Error,
    Event,
    Notice,
    OutputChunk,
    TextDelta,
    TurnEnd,
    TurnEndReason,
)
from assistant.llm import LLM, Reply
from assistant.llm.local import is_local_model
from assistant.llm.results import is_results_message
from assistant.loop.ask import ask, received
from assistant.loop.history import reviewed
from assistant.loop.prompt import answer_in, system_message
from assistant.loop.screen import ScreenFeed, look, screen_wanted, show_screen
from assistant.loop.turn import STOP_NOTICES
from assistant.safety.inputs import request_problem

if TYPE_CHECKING:
    from assistant.actions.parts import Parts
    from assistant.checks.record import TurnRecord


class Session:
    """The core of one conversation: its history, runtimes, policy and journal entry; each
    `turn()` takes one user message to the final answer.

    What only a reply needs (the reply checks, acting on calls, the what-if runs, the risk
    check) is imported where the reply is in hand: a command's first word does not wait
    for it (scripts/bench.py, cli_first_token_warm_s)."""

    def __init__(
        self,
        llm: LLM,
        parts: Parts,
        *,
        conversation_id: str = "",
        messages: list[dict[str, Any]] | None = None,
    ) -> None:
        self.llm = llm
        self.parts = parts  # what every action is taken with (assistant.actions)
        self.tools = parts.tools  # MCP and plugin tools: their calls are proposals like code
        self.redact: Callable[[str], str] = parts.redact
        self.runtimes = parts.runtimes
        self.policy = parts.policy
        self.system = parts.settings.system_message
        self.max_runs_per_turn = parts.settings.max_runs_per_turn
        self.journal = parts.journal
        self.conversation_id = conversation_id
        self.messages: list[dict[str, Any]] = list(messages or [])
        self.turns = sum(1 for m in self.messages
                         if m.get("role") == "user" and not is_results_message(m))
        self.rules = Rules()  # the turn's: which may act, and what fired
        self._held: list[Event] = []  # rules fired, journaled, not yet handed out
        self._stop = threading.Event()
        self.screen = ScreenFeed(llm.settings, llm.backend, parts.views)

    def interrupt(self) -> None:
        """Stop whatever the turn is doing now: the LLM stream or the running code."""
        self._stop.set()
        self.runtimes.interrupt()
        if self.tools is not None:
            self.tools.interrupt()

    def halt(self) -> None:
        """End the turn at the next step (the LLM's stream was broken off)."""
        self._stop.set()

    def stopped(self) -> bool:
        return self._stop.is_set()

    def folder(self) -> Path:
        return Path(self.runtimes.cwd or os.getcwd())

    def emit(self, event: Event) -> Event:
        """Journal an event (not the pieces of a stream) on its way to the front end."""
        if not isinstance(event, (TextDelta, CodeDraft, OutputChunk)):
            self._hold()
            self.record(event)
        return event

    def _hold(self) -> None:
        """Journal the rules fired since the last event; `turn` hands them out before it."""
        for fired in self.rules.pending():
            self.record(fired)
            self._held.append(fired)

    def turn(self, text: str, language: str = "") -> Iterator[Event]:
        """Run one turn; the generator may be abandoned at any point without losing history.
        `language` is the one a spoken request was heard in: other than English, the LLM is
        asked to answer in it, and the checks that read English words are skipped. Each
        rule that acts or is skipped is a `RuleFired` event, before the event it led to."""
        problem = request_problem(text)
        if problem:
            yield Error(problem)
            yield TurnEnd("", "error", self.conversation_id)
            return
        settings = self.llm.settings
        self.rules = turn_rules(settings.checks_profile, settings.checks_off, language,
                                local=is_local_model(settings))
        for event in self._turn(text, language):
            self._hold()
            held, self._held = self._held, []
            yield from held
            yield event

    def _turn(self, text: str, language: str) -> Iterator[Event]:
        request = Request.parse(text, language)  # once: every check of the turn reads it
        system = yield from self._begin(request)
        # what the system message and the messages so far said counts as seen
        said = [m["content"] for m in self.messages if isinstance(m.get("content"), str)]
        seen = "\n".join([system, *said])
        record: TurnRecord | None = None
        while True:
            yield from show_screen(self, first=record is None)
            reply = yield from ask(self, system, warmer=record is not None and record.stuck)
            if record is None:  # made when the first reply is in, before anything can run
                record = self._record(text, seen, request)
            record.stuck = False
            if reply is None:
                yield from self._end(record, "", "error")
                return
            if (yield from self._take(reply, record, text)):
                return

    def _begin(self, request: Request) -> Generator[Event, None, str]:
        """The request into the history (with the heads of the files it names), the screen
        and the tools' servers when wanted; returns the turn's system message."""
        self._stop.clear()
        self.shown = ""  # the words streamed in this turn
        self.said = ""  # those of the latest reply
        self.turns += 1
        files = self._peek(request)
        self.messages.append({"role": "user",
                              "content": request.text + files + answer_in(request.language)})
        self.record({"kind": "user", "text": request.text})
        self._snapshot()
        if screen_wanted(self, request.text):
            yield from look(self)
        if self.tools is not None:  # servers start on first need; one that fails is said
            for problem in self.tools.start():
                yield self.emit(Notice(problem))
        notes = (self.llm.system_addendum(), self.screen.addendum(), self.runtimes.describe())
        addendum = "\n\n".join(note for note in notes if note)
        return system_message(self.system, addendum)  # once a turn: it holds for all its calls

    def _peek(self, request: Request) -> str:
        """The heads of the files the request names, when this conversation's requests
        carry them and the rule peek.request is on."""
        if not peek_wanted(self.llm.settings) or not self.rules.on("peek.request"):
            return ""
        note = peek(request, self.folder())
        if note:
            self.rules.fire("peek.request", "annotate")
        return note

    def _take(self, reply: Reply, record: TurnRecord, request: str
              ) -> Generator[Event, None, bool]:
        """One reply: sent back, or its calls taken, or the turn's end; True at the end."""
        from assistant.loop.act import act, close_calls

        yield from received(self, reply)
        kept = yield from reviewed(self, reply, record)
        if kept is None:
            return False
        self.messages.append(kept.message)
        if self.stopped():  # a reply the stop cut short gives way to what ran
            close_calls(self, kept.calls, [], request)
            cut = kept.stopped and bool(record.ends)
            yield from self._end(record, "" if cut else kept.text, "interrupted")
            return True
        if not kept.calls:
            yield from self._answered(kept.text, record)
            return True
        results, stop = yield from act(self, kept.calls, record)
        close_calls(self, kept.calls, results, request)
        if stop:  # words from the record, kept as told: asking the model won nothing
            from assistant.checks.words import from_record

            words = from_record(record, self.redact)
            self.messages.append({"role": "assistant", "content": words})
            yield from self._end(record, words, *stop)
            return True
        if (yield from self._shown_done(record)):
            return True
        if self.screen.wanted_after([call.code for call in kept.calls]):
            yield from look(self)
        self._snapshot()
        return False

    def _shown_done(self, record: TurnRecord) -> Generator[Event, None, bool]:
        """End the turn in words from the record when the screen shows the job done (rule
        screen.done); True when it ended."""
        from assistant.checks.words import shown_done

        words = shown_done(record, self.redact) if self.rules.on("screen.done") else None
        if words is None:
            return False
        self.rules.fire("screen.done", "stand_in")
        self.messages.append({"role": "assistant", "content": words})
        yield from self._end(record, words, "answered")
        return True

    def _record(self, text: str, seen: str, request: Request) -> TurnRecord:
        """The turn's record, which the answer checks read; it notes which of the files
        the request names exist, so it is made before any run, and after the request went
        out: the checks it loads need not delay the first word."""
        from assistant.checks.answers import AnswerCheck
        from assistant.checks.record import TurnRecord

        return TurnRecord(AnswerCheck(text, self.folder(), seen, peek_wanted(self.llm.settings),
                                      rules=self.rules, wants=request,
                                      desktop=self.screen.shown))

    def _answered(self, words: str, record: TurnRecord) -> Generator[Event, None, None]:
        """A final answer as the checks leave it (`finish`: without what repeats the loop's
        words, or the record's words when nothing else is left, so in the history too, since
        what echoes the loop would be copied), with a note when a check still doubts it."""
        from assistant.checks.reply import confirm, finish
        from assistant.checks.verdicts import StandIn

        done = finish(words, record, self.messages, self.redact)
        if done is not None:
            self.rules.fire(done.rule, "stand_in" if isinstance(done, StandIn) else "edit")
            if isinstance(done, StandIn):
                yield self.emit(Notice(done.notice))
            self.messages[-1] = {"role": "assistant", "content": done.words}
            words = done.words
        note = confirm(words, record)
        if note is not None:
            self.rules.fire(note.rule, "annotate")
            yield self.emit(Notice(note.note))
        yield from self._end(record, words, "answered")

    def _end(self, record: TurnRecord, text: str, reason: TurnEndReason, n: int = 0
             ) -> Iterator[Event]:
        """End the turn in words: the model's, or the record's (what ran, what it printed or
        wrote, how it ended), streamed too when no reply did; an error is said by its Error."""
        if reason in STOP_NOTICES:
            yield self.emit(Notice(STOP_NOTICES[reason].format(n=n)))
        if not text.strip() and reason != "error":
            from assistant.checks.words import from_record

            text = from_record(record, self.redact)
        if text.strip() and text.strip() not in self.shown:  # words no reply streamed
            yield TextDelta(("\n\n" if self.shown.strip() else "") + text)
        self._snapshot()
        yield self.emit(TurnEnd(text, reason, self.conversation_id))

    def record(self, item: Event | dict[str, Any]) -> None:
        if self.journal is None:
            return
        if not self.conversation_id:
            self.conversation_id = self.journal.start_conversation(self.llm.settings.model)
        self.journal.record(self.conversation_id, self.turns, item)

    def _snapshot(self) -> None:
        if self.journal is not None and self.conversation_id:
            self.journal.save_messages(self.conversation_id, self.messages, self.llm.settings.model)
