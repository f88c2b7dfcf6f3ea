"""The core loop: one user message in, events out, until the LLM answers in words.

It knows no UI. Front ends consume the events and supply approvals through the policy;
the journal sees every step as it happens.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Generator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.loop.answers import AnswerCheck
from assistant.events import (
    CodeDraft,
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
from assistant.checks.labels import actual_language
from assistant.checks.echoes import echoes, framed, without_echoes
from assistant.llm.results import is_results_message
from assistant.loop.history import add_note, check_message, failed_last_message, send_back
from assistant.loop.peek import peek
from assistant.loop.peek import wanted as peek_wanted
from assistant.loop.prompt import answer_in, system_message
from assistant.loop.repeats import (
    FAILED_AGAIN,
    REPEAT_NOT_RUN,
    REPEATS_BEFORE_STOP,
    REPLY_TOLD,
)
from assistant.loop.reported import reported
from assistant.runtime import Runtimes
from assistant.runtime.changes import describe_changes, list_folder
from assistant.runtime.changes import written as written_files
from assistant.safety.inputs import request_problem
from assistant.safety.policy import Policy
from assistant.loop.screen import ScreenContext
from assistant.loop.turn import (
    AFTER_FAILURE,
    CHECKED,
    DECLINES_BEFORE_STOP,
    ECHOES_ASKED_AGAIN,
    FRAMED,
    LAST_PRINTED,
    LISTED_WRITTEN,
    NOT_RUN,
    STOP_NOTICES,
    UNSTICK_TEMPERATURE,
    WRAP_UP,
    WRAPPED_UP,
    Outcome,
    Ran,
    Stop,
    TurnState,
)
from assistant.loop.vetting import Cleared, vet

if TYPE_CHECKING:
    from assistant.tools.toolbox import Toolbox

class Session:
    """The core of one conversation: its history, runtimes, policy and journal entry; each
    `turn()` takes one user message to the final answer."""

    def __init__(  # noqa: PLR0913 - three parts, then keyword-only options with defaults
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
        tools: Toolbox | None = None,
    ) -> None:
        self.llm = llm
        self.tools = tools  # MCP and plugin tools: their calls are proposals like code
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
        self.screen = ScreenContext(llm.settings, llm.backend)
        runtimes.env = self.screen.runtime_env(runtimes.env)

    def interrupt(self) -> None:
        """Stop whatever the turn is doing now: the LLM stream or the running code."""
        self._stop.set()
        self.runtimes.interrupt()
        if self.tools is not None:
            self.tools.interrupt()

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
        if not isinstance(event, (TextDelta, CodeDraft, OutputChunk)):
            self._record(event)
        return event

    def _end(self, text: str, reason: TurnEndReason, n: int = 0,
             noticed: bool = False) -> Iterator[Event]:
        if reason in STOP_NOTICES and not noticed:
            yield self._emit(Notice(STOP_NOTICES[reason].format(n=n)))
        self._snapshot()
        yield self._emit(TurnEnd(text, reason, self.conversation_id))

    def turn(self, text: str, language: str = "") -> Iterator[Event]:
        """Run one turn; the generator may be abandoned at any point without losing history.
        `language` is the one a spoken request was heard in: other than English, the LLM
        is asked to answer in it.

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
        files = peek(text, self._folder()) if peek_wanted(self.llm.settings) else ""
        self.messages.append({"role": "user", "content": text + files + answer_in(language)})
        self._record({"kind": "user", "text": text})
        self._snapshot()
        if self.screen.wanted_for(text):
            yield from self._look()
        if self.tools is not None:  # servers start on first need; one that fails is said
            for problem in self.tools.start():
                yield self._emit(Notice(problem))
        notes = (self.llm.system_addendum(), self.screen.addendum(), self.runtimes.describe())
        addendum = "\n\n".join(note for note in notes if note)
        system = system_message(self.system, addendum)  # once a turn: it holds for all its calls
        state = TurnState(self._answer_check(text, system))
        while True:
            yield from self._show_screen()
            reply = yield from self._ask(system, state.stuck)
            state.stuck = False
            if reply is None:
                yield from self._end("", "error")
                return
            yield from self._received(reply)
            reply = yield from self._settled(reply, state)
            nudge = self._nudge(reply, state)
            if nudge is not None:
                if nudge[0] is not None:  # else asked again with nothing added
                    send_back(self.messages, reply.message, nudge[0])
                yield self._emit(Notice(nudge[1]))
                state.stuck = True  # the same history at a low temperature: the same answer
                continue
            self.messages.append(reply.message)
            if self._stop.is_set():
                self._close_calls(reply.calls, [], text)
                yield from self._end(reply.text, "interrupted")
                return
            if not reply.calls:
                words = without_echoes(reply.text, self.messages)
                if words != reply.text:  # kept out of the history too: it would be copied
                    self.messages[-1] = {"role": "assistant", "content": words}
                doubt = state.answer.unconfirmed(words)
                if doubt:
                    yield self._emit(Notice(doubt))
                yield from self._end(words, "answered")
                return
            results, stop = yield from self._act(reply.calls, state)
            self._close_calls(reply.calls, results, text)
            if stop:
                words = yield from self._wrap_up(system, *stop, state.answer)
                yield from self._end(words, *stop, noticed=stop[0] in WRAPPED_UP)
                return
            if self.screen.wanted_after([call.code for call in reply.calls]):
                yield from self._look()
            self._snapshot()

    def _wrap_up(self, system: str, reason: TurnEndReason, n: int,
                 seen: AnswerCheck) -> Generator[Event, None, str]:
        """A turn the loop stopped still ends in words: the model, told why, says what was
        done and what the outputs showed (a stop left the user, and the voice, with nothing
        where a small model had the answer in hand). Code it proposes then is not run, and
        the words are the last output of a successful run, as it was; so too for words that
        only repeat what the loop said; or, when the runs printed nothing, the files they
        wrote."""
        if reason not in WRAPPED_UP or self._stop.is_set():
            return ""
        notice = STOP_NOTICES[reason].format(n=n)
        yield self._emit(Notice(notice))
        add_note(self.messages, check_message(WRAP_UP.format(notice)))
        reply = yield from self._ask(system)
        if reply is None:
            return ""
        yield from self._received(reply)
        echoed = echoes(reply.text, self.messages)
        self.messages.append(reply.message)
        self._close_calls(reply.calls, [], seen.request)
        if not reply.calls and not echoed:
            return without_echoes(reply.text, self.messages)
        return self._stand_in(seen)

    def _stand_in(self, seen: AnswerCheck) -> str:
        """Words for a model that has none of its own: what its runs printed last, or else
        the files they wrote."""
        last = next((out.strip() for out in reversed(seen.succeeded) if out.strip()), "")
        if last:
            return self.redact(f"The last run printed:\n{last[:LAST_PRINTED]}")
        wrote = ", ".join(sorted(seen.wrote)[:LISTED_WRITTEN])
        return f"Files written in this turn: {wrote}." if wrote else ""

    def _settled(self, reply: Reply, state: TurnState) -> Generator[Event, None, Reply]:
        """A second answer in a row that repeats the loop's words after a successful run is
        how a small model says it is done (asked again, it says it a third time, or runs
        the same code again): it stands, in the words of what ran, if the checks find
        nothing missing there."""
        if (reply.calls or self._stop.is_set() or not state.echoes or not state.ran_well
                or not echoes(reply.text, self.messages)):
            return reply
        words = self._stand_in(state.answer)
        if not words or not state.answer.passes(words):
            return reply
        yield self._emit(Notice("The model's reply repeated the results it was given again: "
                                "the answer is what its runs showed."))
        return Reply(words, [], {"role": "assistant", "content": words}, reply.usage, reply.model)

    def _received(self, reply: Reply) -> Iterator[Event]:
        """Journal a reply, and say what it cost."""
        self._record({"kind": "assistant", "text": reply.text, "model": reply.model})
        if reply.usage:
            yield self._emit(Usage(reply.model, reply.usage[0], reply.usage[1]))

    def _nudge(self, reply: Reply, state: TurnState
               ) -> tuple[dict[str, Any] | None, str] | None:
        """Why a reply is not accepted yet: a final answer, once each check; code that just
        failed, proposed again (left out of the history: a small model that reads its
        failed code twice writes it a third time). What the model is told (None: nothing,
        the reply is asked for again), and the notice for the user; None to go on."""
        if self._stop.is_set():
            return None
        echoed = (all(framed(call.code) for call in reply.calls) if reply.calls
                  else echoes(reply.text, self.messages))
        if echoed and state.echoes < ECHOES_ASKED_AGAIN:
            state.echoes += 1  # left out: read back, the echo is what comes again
            done = not reply.calls and state.ran_well
            doubt = state.answer.problem(self._stand_in(state.answer)) if done else None
            if doubt:  # what ran so far, taken as the answer, falls short: say how
                return check_message(doubt), CHECKED
            return None, ("The model's reply repeated the results it was given; it was "
                          "asked again.")
        if reply.calls:
            return self._failed_again(reply.calls[0], state)
        if state.failed and not state.reminded and not state.answer.grounded(reply.text):
            state.reminded = True
            return failed_last_message(state.last_exit), (
                "The model answered right after a failed run; it was asked to fix it or to "
                "say that it did not work.")
        doubt = state.answer.problem(reply.text)
        if doubt:
            return check_message(doubt), CHECKED
        return None

    def _failed_again(self, call: CodeCall, state: TurnState
                      ) -> tuple[dict[str, Any], str] | None:
        if call.problem or not state.repeats.last_failed():
            return None
        language = actual_language(call.language, call.code)
        if state.repeats.verdict(language, call.code)[0] != "told":
            return None  # a new proposal, or the last straw: `_act_on` stops the turn
        state.repeats.check(language, call.code)
        return check_message(FAILED_AGAIN.format(state.repeats.result())), (
            f"Not run again: the model proposed the same {language} code that had just "
            "failed; it was asked for different code.")

    def _ask(self, system: str, warmer: bool = False) -> Generator[Event, None, Reply | None]:
        """Stream one reply from the LLM; None (after an Error) when there is none."""
        pieces: list[str] = []
        reply: Reply | None = None
        temperature = max(self.llm.settings.temperature, UNSTICK_TEMPERATURE) if warmer else None
        try:
            stream = self.llm.stream(
                [{"role": "system", "content": system}, *self.messages],
                should_stop=self._stop.is_set, temperature=temperature,
            )
            for item in stream:
                if isinstance(item, str):
                    pieces.append(item)
                    yield TextDelta(item)
                elif isinstance(item, CodeDraft):
                    yield item
                else:
                    reply = item
        except KeyboardInterrupt:
            self._stop.set()
            words = "".join(pieces)
            return Reply(words, [], {"role": "assistant", "content": words}, None,
                         self.llm.settings.model, stopped=True)
        except LLMError as exc:
            yield self._emit(Error(self.redact(str(exc))))
            return None
        if reply is None:
            yield self._emit(Error("The LLM ended its reply without a result: try again."))
        return reply

    def _act(
        self, calls: list[CodeCall], state: TurnState
    ) -> Generator[Event, None, tuple[list[tuple[CodeCall, str]], Stop | None]]:
        """Take the reply's calls in order, until one gives a reason to end the turn, or
        fails: what follows it was written for its success (`cd build` failed, then `rm -rf *`).

        Returns what the model is told about each call taken, and that reason.
        """
        keys = tuple((actual_language(call.language, call.code), call.code) for call in calls)
        verdict, times = state.repeats.reply(keys)
        if verdict == "stop":
            return [(call, REPEAT_NOT_RUN) for call in calls], ("repeated_success", times)
        if verdict == "told":
            state.stuck = True
            yield self._emit(Notice("Not run again: the model proposed the same code as in its "
                                    "last reply, which had succeeded; it was told to use those "
                                    "results."))
            told = state.answer.with_pending(REPLY_TOLD)
            return [(call, told) for call in calls], None
        results: list[tuple[CodeCall, str]] = []
        for index, call in enumerate(calls):
            if framed(call.code):  # a copy of the results: never code to run
                yield self._emit(Notice("A block of the reply copies the results the model "
                                        "was given: not run."))
                results.append((call, FRAMED))
                continue
            runs = state.runs
            result, stop = yield from self._act_on(call, state)
            results.append((call, result))
            if stop:
                return results, stop
            later = calls[index + 1:]
            if state.runs > runs and state.failed and later:
                yield self._emit(Notice(f"{len(later)} more block(s) of this reply not run: "
                                        "the code before them failed."))
                return results + [(each, AFTER_FAILURE) for each in later], None
        return results, None

    def _act_on(self, call: CodeCall, state: TurnState) -> Generator[Event, None, Outcome]:
        """One call: vetted (corrected, sent back, refused as a repeat), declined, or run."""
        notices, vetted = vet(call, state, self._folder(), self.redact)
        for notice in notices:
            yield self._emit(notice)
        if not isinstance(vetted, Cleared):
            return vetted
        language, code = vetted.language, vetted.code
        state.answer.proposed(code)
        proposal = self.policy.proposal(call.id, language, code)
        yield self._emit(proposal)
        approval = self.policy.decide(proposal)
        yield self._emit(approval)
        if self._stop.is_set():
            return "Not run: the user stopped the turn.", ("interrupted", 0)
        if not approval.approved:
            why = f" ({approval.reason})" if approval.reason else ""
            state.declines += 1
            stop: Stop | None = (
                ("declined", state.declines) if state.declines >= DECLINES_BEFORE_STOP else None)
            return f"The user declined to run this code{why}.", stop
        ran = yield from self._run(language, approval.code, call.id)
        cleared = replace(vetted, code=approval.code)  # as the user approved it
        told, failures = reported(state, ran, cleared, self.redact)
        if ran[0].interrupted or self._stop.is_set():
            return told, ("interrupted", 0)
        if failures >= REPEATS_BEFORE_STOP:
            return told, ("repeated_failure", failures)
        state.stuck = state.stuck or failures > 1
        if state.runs >= self.max_runs_per_turn:
            return told, ("max_runs", state.runs)
        return told, None

    def _answer_check(self, request: str, system: str) -> AnswerCheck:
        """The check of this turn's answer; what the system message and the messages so far
        said (the date, a figure from the last turn, a file's first lines) counts as seen."""
        said = [m["content"] for m in self.messages if isinstance(m.get("content"), str)]
        return AnswerCheck(request, self._folder(), "\n".join([system, *said]),
                           lines=peek_wanted(self.llm.settings))

    def _folder(self) -> Path:
        return Path(self.runtimes.cwd or os.getcwd())

    def _run(self, language: str, code: str, proposal_id: str) -> Generator[Event, None, Ran]:
        """Run approved code; its RunEnd, what it changed in the working folder, and the
        files it wrote there."""
        folder = str(self._folder())
        before = list_folder(folder)
        end: RunEnd | None = None
        run: Callable[..., Iterator[Event]] = self.runtimes.run
        if self.tools is not None and self.tools.find(language) is not None:
            run = self.tools.call  # a tool's answer comes back as a run's output
        for event in run(language, code, proposal_id=proposal_id):
            yield self._emit(event)
            if isinstance(event, RunEnd):
                end = event
        assert end is not None, "a run always ends with RunEnd"
        after = list_folder(folder)
        return end, describe_changes(before, after), written_files(before, after)

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

    def _close_calls(self, calls: list[CodeCall], results: list[tuple[CodeCall, str]],
                     request: str) -> None:
        """Answer every call in the history, so the next request is valid for the provider;
        fenced results end with the turn's `request`."""
        answered = {call.id for call, _ in results}
        results = results + [(call, NOT_RUN) for call in calls if call.id not in answered]
        if results:
            self.messages.extend(self.llm.result_messages(results, request))
