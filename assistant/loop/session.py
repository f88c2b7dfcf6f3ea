"""The core loop: one user message in, events out, until the turn ends in words.

It knows no UI. Front ends consume the events and supply approvals through the policy;
the journal sees every step as it happens. What the checks (assistant.checks) find is a
verdict; whether its rule may act is asked of assistant/actions/apply.py, and the loop
carries out a reply's and an answer's in one place (history.py), deciding nothing about
the model's words itself.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Generator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.actions.apply import allows, applies
from assistant.checks.peek import peek
from assistant.checks.peek import wanted as peek_wanted
from assistant.checks.requested import QUESTION, Request
from assistant.checks.rules import turn_rules
from assistant.checks.state import TurnState
from assistant.checks.verdicts import Annotate, Rewrite
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
from assistant.loop.ask import ask, received
from assistant.loop.history import answered, reviewed
from assistant.loop.prompt import answer_in, system_message
from assistant.loop.screen import (
    ScreenFeed,
    front_example,
    look,
    screen_wanted,
    show_screen,
    waits_for_answer,
)
from assistant.loop.turn import STOP_NOTICES
from assistant.messages import is_results_message
from assistant.safety.inputs import request_problem
from assistant.servers.local import is_local_model

if TYPE_CHECKING:
    from assistant.actions.parts import Parts


class Session:
    """The core of one conversation: what lasts across its turns (history, runtimes,
    policy, journal entry, screen); each `turn()` takes one user message to the final
    answer, with a TurnState of its own that the helpers are handed.

    What only a reply needs (the reply checks, acting on calls, the what-if runs, the risk
    check) is imported where the reply is in hand: a command's first word does not wait
    for it (python -m benchmarks.bench, cli_first_token_warm_s)."""

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
        self.max_runs_per_turn = parts.settings.max_runs_per_turn
        self.journal = parts.journal
        self.conversation_id = conversation_id
        self.messages: list[dict[str, Any]] = list(messages or [])
        self.turns = sum(1 for m in self.messages
                         if m.get("role") == "user" and not is_results_message(m))
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

    def with_call(self, reply: Reply, language: str, code: str) -> Reply:
        return self.llm.with_call(reply, language, code)

    def folder(self) -> Path:
        return Path(self.runtimes.cwd or os.getcwd())

    def turn(self, text: str, language: str = "") -> Iterator[Event]:
        """Run one turn; the generator may be abandoned at any point without losing history.
        `language` is the one a spoken request was heard in: other than English, the LLM is
        asked to answer in it, and the checks that read English words are skipped. Each
        rule that acts or is skipped is a `RuleFired` event, before the event it led to;
        every event but the pieces of a stream is journaled as it is handed out."""
        problem = request_problem(text)
        if problem:
            yield Error(problem)
            yield TurnEnd("", "error", self.conversation_id)
            return
        settings = self.llm.settings
        rules = turn_rules(settings.checks_profile, settings.checks_off, language,
                           local=is_local_model(settings))
        state = TurnState(Request.parse(text, language), self.folder(), rules,
                          lines=peek_wanted(settings))
        for event in self._turn(state):
            for fired in rules.pending():
                self.record(fired)
                yield fired
            if not isinstance(event, (TextDelta, CodeDraft, OutputChunk)):
                self.record(event)
            yield event

    def _turn(self, state: TurnState) -> Iterator[Event]:
        system = yield from self._begin(state)
        # what the system message and the messages so far said counts as seen
        said = [m["content"] for m in self.messages if isinstance(m.get("content"), str)]
        state.context = "\n".join([system, *said])
        first = True  # a turn's first screen goes before its request
        while True:
            yield from show_screen(self.screen, self.messages, first=first)
            state.desktop = state.desktop or (first and self.screen.shown)  # shown the windows
            if first and state.desktop:
                state.front = front_example()  # told with each push to act there
            reply = self._commanded(state) if first else None
            if reply is None:
                reply = yield from ask(self, state, system)
            first, state.asked = False, (len(state.rules.fired), len(state.tries))
            if reply is None:
                yield from self._end(state, "", "error")
                return
            if (yield from self._take(reply, state)):
                return

    def _commanded(self, state: TurnState) -> Reply | None:
        """A request to act on the screen whose every part names a control there, or
        edits the one editor there, or spells out a command for the terminal there, read
        as the verbs' code in place of the model's first reply (rule screen.command); None
        when it does not read so."""
        if not (state.desktop and allows(state.rules, "screen.command")):
            return None
        from assistant.computer import tree
        from assistant.loop import commands, edits, forms, terminal

        said = state.request.text
        code, edited = terminal.commanded(said), None
        if code is None and state.request.on_screen:
            windows = tree.windows()
            code = commands.read(said, windows) or commands.said_button(said, windows) or \
                forms.read(said, windows)
            edited = edits.read(said, windows) if code is None else None
            code = code or edited
        if code is None or not applies(state.rules, Rewrite("screen.command", "python", code,
                                                            "", "")):
            return None
        state.edited = edited is not None
        text = "" if self.llm.uses_tools else f"```python\n{code}\n```"
        written = Reply(text, [], {"role": "assistant", "content": text}, None, "commands")
        return self.with_call(written, "python", code)

    def _begin(self, state: TurnState) -> Generator[Event, None, str]:
        """The request into the history (with the heads of the files it names), the screen
        and the tools' servers when wanted; returns the turn's system message."""
        self._stop.clear()
        self.turns += 1
        request = state.request
        files = self._peek(state)
        self.messages.append({"role": "user",
                              "content": request.text + files + answer_in(request.language)})
        self.record({"kind": "user", "text": request.text})
        self._snapshot()
        if screen_wanted(self.screen, state.rules, request.text):
            yield from look(self.screen)
            if not QUESTION.search(request.text) and waits_for_answer():
                state.request = replace(request, on_screen=True, to_dialog=True)  # to it
        if self.tools is not None:  # servers start on first need; one that fails is said
            for problem in self.tools.start():
                yield Notice(problem)
        notes = (self.llm.system_addendum(), self.screen.addendum(), self.runtimes.describe())
        addendum = "\n\n".join(note for note in notes if note)
        return system_message(self.parts.settings.system_message, addendum)  # for all calls

    def _peek(self, state: TurnState) -> str:
        """The heads of the files the request names, when this conversation's requests
        carry them (rule peek.request)."""
        note = peek(state.request, state.folder) if state.lines else ""
        return note if note and applies(state.rules, Annotate("peek.request", "")) else ""

    def _take(self, reply: Reply, state: TurnState) -> Generator[Event, None, bool]:
        """One reply: sent back, or its calls taken, or the turn's end; True at the end."""
        from assistant.loop.act import act, close_calls

        yield from received(self, state, reply)
        kept = yield from reviewed(self, state, reply)
        if kept is None:
            return False
        self.messages.append(kept.message)
        request = state.request.text
        if self.stopped():  # a reply the stop cut short gives way to what ran
            close_calls(self, kept.calls, [], request)
            cut = kept.stopped and bool(state.ends)
            yield from self._end(state, "" if cut else kept.text, "interrupted")
            return True
        if not kept.calls:
            words = yield from answered(self.messages, state, kept.text, self.redact)
            yield from self._end(state, words, "answered")
            return True
        results, stop = yield from act(self, kept.calls, state)
        close_calls(self, kept.calls, results, request)
        if stop:  # words from the record, kept as told: asking the model won nothing
            from assistant.checks.words import from_record

            words = from_record(state, self.redact)
            self.messages.append({"role": "assistant", "content": words})
            yield from self._end(state, words, *stop)
            return True
        if (yield from self._shown_done(state)):
            return True
        if self.screen.wanted_after([call.code for call in kept.calls]):
            yield from look(self.screen)
        self._snapshot()
        return False

    def _shown_done(self, state: TurnState) -> Generator[Event, None, bool]:
        """End the turn in words from the state when the screen shows the job done (rule
        screen.done); True when it ended."""
        from assistant.checks.words import shown_done

        words = shown_done(state, self.redact)
        if words is None or not applies(state.rules, words):
            return False
        self.messages.append({"role": "assistant", "content": words.words})
        yield from self._end(state, words.words, "answered")
        return True

    def _end(self, state: TurnState, text: str, reason: TurnEndReason, n: int = 0
             ) -> Iterator[Event]:
        """End the turn in words: the model's, or the record's (what ran, what it printed or
        wrote, how it ended), streamed too when no reply did; an error is said by its Error."""
        if reason in STOP_NOTICES:
            yield Notice(STOP_NOTICES[reason].format(n=n))
        if not text.strip() and reason != "error":
            from assistant.checks.words import from_record

            text = from_record(state, self.redact)
        shown = state.shown
        if text.strip() and text.strip() not in shown:  # words no reply streamed
            yield TextDelta(("\n\n" if shown.strip() else "") + text)
        self._snapshot()
        yield TurnEnd(text, reason, self.conversation_id)

    def record(self, item: Event | dict[str, Any]) -> None:
        if self.journal is None:
            return
        if not self.conversation_id:
            self.conversation_id = self.journal.start_conversation(self.llm.settings.model)
        self.journal.record(self.conversation_id, self.turns, item)

    def _snapshot(self) -> None:
        if self.journal is not None and self.conversation_id:
            self.journal.save_messages(self.conversation_id, self.messages, self.llm.settings.model)
