"""Taking a reply's calls: each goes through the action pipeline (assistant.actions) as the
conversation's way in (`InTurn`: vetted against the turn, its preview judged, what the
model is told of it written); a reason to end the turn stops the rest. Apart from the
session, which only decides what to do with replies."""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from assistant.actions.apply import applies, chosen, first
from assistant.actions.outcomes import Cleared, Declined, Halt, Ran, Reported, SentBack, Stop
from assistant.actions.pipeline import take
from assistant.checks.answers import pending, with_pending
from assistant.checks.echoes import framed
from assistant.checks.labels import actual_language
from assistant.checks.previewed import refusals
from assistant.checks.repeats import REPEAT_NOT_RUN, REPLY_TOLD
from assistant.checks.state import REPEATS_BEFORE_STOP, TurnState
from assistant.checks.verdicts import Refuse
from assistant.events import Approval, Event, Notice, RunEnd, Tried
from assistant.llm import CodeCall
from assistant.loop.reported import hint, reported
from assistant.loop.turn import AFTER_FAILURE, DECLINES_BEFORE_STOP, FRAMED, NOT_RUN
from assistant.loop.vetting import vet
from assistant.texts import text

if TYPE_CHECKING:
    from assistant.actions.parts import Parts
    from assistant.llm import LLM
    from assistant.whatif.preview import Preview

Results = list[tuple[CodeCall, str]]


class Acting(Protocol):
    """What taking a reply's calls needs of the conversation."""

    parts: Parts
    llm: LLM
    messages: list[dict[str, Any]]
    redact: Callable[[str], str]
    max_runs_per_turn: int

    def stopped(self) -> bool: ...
    def folder(self) -> Path: ...


def act(session: Acting, calls: list[CodeCall], state: TurnState
        ) -> Generator[Event, None, tuple[Results, Stop | None]]:
    """Take the reply's calls in order, until one gives a reason to end the turn, or fails:
    what follows it was written for its success (`cd build` failed, then `rm -rf *`).

    Returns what the model is told about each call taken, and that reason.
    """
    rules = state.rules
    again = yield from same_reply(calls, state)
    if again is not None:
        return again
    results: Results = []
    for index, call in enumerate(calls):
        copied = Refuse("echo.framed", FRAMED, "A block of the reply copies the results the "
                        "model was given: not run.")
        if framed(call.code) and applies(rules, copied):  # a copy of the results: not code
            yield Notice(copied.notice)
            results.append((call, copied.told))
            continue
        tried, later = len(state.tries), calls[index + 1:]
        taken = yield from take(session.parts, InTurn(session, call, state, not later), call.id)
        results.append((call, taken.told))
        if taken.stop:
            return results, taken.stop
        skipped = Refuse("call.after_failure", AFTER_FAILURE, f"{len(later)} more block(s) of "
                         "this reply not run: the code before them failed.",
                         f"{len(later)} block(s)")
        if len(state.tries) > tried and state.last_failed and later and applies(rules, skipped):
            yield Notice(skipped.notice)
            return results + [(each, skipped.told) for each in later], None
    return results, None


def same_reply(calls: list[CodeCall], state: TurnState
               ) -> Generator[Event, None, tuple[Results, Stop | None] | None]:
    """Calls all the same as the last reply's, which all succeeded: told to use those
    results (rule repeat.reply_told), or, in a row too often, the turn's end."""
    keys = tuple((actual_language(call.language, call.code), call.code) for call in calls)
    rerun, times = state.reply(keys)
    if rerun == "stop":
        return [(call, REPEAT_NOT_RUN) for call in calls], ("repeated_success", times)
    told = Refuse("repeat.reply_told", REPLY_TOLD, "Not run again: the model proposed the "
                  "same code as in its last reply, which had succeeded; it was told to use "
                  "those results.")
    if rerun != "told" or not applies(state.rules, told):
        return None
    yield Notice(told.notice)
    said = with_pending(told.told, chosen(state.rules, pending(state)))
    return [(call, said) for call in calls], None


class InTurn:
    """A call of the model's reply as the conversation takes it (the pipeline's way in):
    vetted against the turn, its preview judged, and what the model reads of it written
    into the turn's state. `last`: no call of the reply follows it."""

    def __init__(self, session: Acting, call: CodeCall, state: TurnState, last: bool) -> None:
        self.session, self.call, self.state, self.last = session, call, state, last

    def emit(self, event: Event) -> Event:
        return event  # the turn journals its events as it hands them out (Session.turn)

    def stopped(self) -> bool:
        return self.session.stopped()

    def vet(self) -> Generator[Event, None, Cleared | SentBack | Halt]:
        notices, vetted = vet(self.call, self.state, self.session.redact)
        yield from notices
        if not isinstance(vetted, Cleared):
            told, stop = vetted
            return SentBack(told) if stop is None else Halt(told, stop)
        self.state.code.append(vetted.code)
        return vetted

    def judge(self, seen: Preview, cleared: Cleared
              ) -> Generator[Event, None, SentBack | Halt | None]:
        """The first of the preview checks' refusals whose rule may act, carried out."""
        as_cleared = replace(self.call, language=cleared.language, code=cleared.code)
        redact, folder = self.session.redact, str(self.session.folder())
        found = refusals(seen, as_cleared, folder, self.state, self.last)
        refused = first(self.state.rules, (replace(each, detail=redact(each.detail))
                                           for each in found))
        if refused is None:
            return None
        return (yield from self.foreseen(cleared, seen.end, refused))

    def foreseen(self, cleared: Cleared, end: RunEnd | None, refused: Refuse
                 ) -> Generator[Event, None, SentBack | Halt]:
        """A proposal its preview sent back: the user sees one line (the code on demand),
        the model reads why as the call's result, and a failure counts as the same code
        failing again would."""
        assert end is not None, "judge passes over a preview that did not end"
        redact, state = self.session.redact, self.state
        yield Tried(cleared.language, cleared.code, redact(refused.notice))
        told = cleared.preface + redact(refused.told + hint(end, state))
        failures = state.foresaw(end, (cleared.language, cleared.code),
                                 redact(refused.detail or refused.told))
        if failures >= REPEATS_BEFORE_STOP:
            return Halt(told, ("repeated_failure", failures))
        return SentBack(told)

    def declined(self, approval: Approval) -> Declined:
        why = f" ({approval.reason})" if approval.reason else ""
        self.state.declined.append(approval.reason)
        declines = self.state.declines
        return Declined(text("run.declined").format(why=why),
                        ("declined", declines) if declines >= DECLINES_BEFORE_STOP else None)

    def report(self, ran: Ran, cleared: Cleared) -> Reported | Halt:
        state = self.state
        told, failures = reported(state, ran, cleared, self.session.redact)
        if ran[0].interrupted or self.stopped():
            return Halt(told, ("interrupted", 0))
        if failures >= REPEATS_BEFORE_STOP:
            return Halt(told, ("repeated_failure", failures))
        if state.runs >= self.session.max_runs_per_turn:
            return Halt(told, ("max_runs", state.runs))
        return Reported(told, ran)


def close_calls(session: Acting, calls: list[CodeCall], results: Results, request: str) -> None:
    """Answer every call in the history, so the next request is valid for the provider;
    fenced results end with the turn's `request`."""
    answered = {call.id for call, _ in results}
    results = results + [(call, NOT_RUN) for call in calls if call.id not in answered]
    if results:
        session.messages.extend(session.llm.result_messages(results, request))
