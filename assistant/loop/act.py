"""Taking a reply's calls: each goes through the action pipeline (assistant.actions) as the
conversation's way in (`InTurn`: vetted against the turn, its preview judged, what the
model is told of it written); a reason to end the turn stops the rest. Apart from the
session, which only decides what to do with replies."""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from assistant.actions.outcomes import Cleared, Declined, Halt, Ran, Reported, SentBack, Stop
from assistant.actions.pipeline import take
from assistant.checks.echoes import framed
from assistant.checks.labels import actual_language
from assistant.checks.previewed import refusal
from assistant.checks.record import TurnRecord
from assistant.checks.repeats import REPEAT_NOT_RUN, REPEATS_BEFORE_STOP, REPLY_TOLD
from assistant.checks.verdicts import Refuse
from assistant.events import Approval, Event, Notice, RunEnd, Tried
from assistant.llm import CodeCall
from assistant.loop.reported import reported
from assistant.loop.turn import (
    AFTER_FAILURE,
    DECLINES_BEFORE_STOP,
    FRAMED,
    NOT_RUN,
    Outcome,
)
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

    def emit(self, event: Event) -> Event: ...
    def stopped(self) -> bool: ...
    def folder(self) -> Path: ...


def act(session: Acting, calls: list[CodeCall], record: TurnRecord
        ) -> Generator[Event, None, tuple[Results, Stop | None]]:
    """Take the reply's calls in order, until one gives a reason to end the turn, or fails:
    what follows it was written for its success (`cd build` failed, then `rm -rf *`).

    Returns what the model is told about each call taken, and that reason.
    """
    rules = record.rules
    again = yield from same_reply(session, calls, record)
    if again is not None:
        return again
    results: Results = []
    for index, call in enumerate(calls):
        if framed(call.code) and rules.on("echo.framed"):  # a copy of the results: not code
            rules.fire("echo.framed", "refuse")
            yield session.emit(Notice("A block of the reply copies the results the model was "
                                      "given: not run."))
            results.append((call, FRAMED))
            continue
        tried = len(record.tries)
        later = calls[index + 1:]
        result, stop = yield from act_on(session, call, record, last=not later)
        results.append((call, result))
        if stop:
            return results, stop
        failed = len(record.tries) > tried and record.last_failed
        if failed and later and rules.on("call.after_failure"):
            rules.fire("call.after_failure", "refuse", f"{len(later)} block(s)")
            yield session.emit(Notice(f"{len(later)} more block(s) of this reply not run: the "
                                      "code before them failed."))
            return results + [(each, AFTER_FAILURE) for each in later], None
    return results, None


def same_reply(session: Acting, calls: list[CodeCall], record: TurnRecord
               ) -> Generator[Event, None, tuple[Results, Stop | None] | None]:
    """Calls all the same as the last reply's, which all succeeded: told to use those
    results (rule repeat.reply_told), or, in a row too often, the turn's end."""
    keys = tuple((actual_language(call.language, call.code), call.code) for call in calls)
    rerun, times = record.repeats.reply(keys)
    if rerun == "stop":
        return [(call, REPEAT_NOT_RUN) for call in calls], ("repeated_success", times)
    if rerun != "told" or not record.rules.on("repeat.reply_told"):
        return None
    record.rules.fire("repeat.reply_told", "refuse")
    record.stuck = True
    yield session.emit(Notice("Not run again: the model proposed the same code as in its "
                              "last reply, which had succeeded; it was told to use those "
                              "results."))
    told = record.answer.with_pending(REPLY_TOLD)
    return [(call, told) for call in calls], None


def act_on(session: Acting, call: CodeCall, record: TurnRecord, last: bool = True
           ) -> Generator[Event, None, Outcome]:
    """One call through the action pipeline: vetted (corrected, sent back, refused as a
    repeat), previewed (and sent back when that failed), declined, or run. `last`: no call
    of the reply follows it."""
    taken = yield from take(session.parts, InTurn(session, call, record, last), call.id)
    return taken.told, taken.stop


class InTurn:
    """A call of the model's reply as the conversation takes it: vetted against the turn,
    its preview judged, and what the model reads of it written into the turn's record."""

    def __init__(self, session: Acting, call: CodeCall, record: TurnRecord, last: bool) -> None:
        self.session, self.call, self.record, self.last = session, call, record, last

    def emit(self, event: Event) -> Event:
        return self.session.emit(event)

    def stopped(self) -> bool:
        return self.session.stopped()

    def vet(self) -> Generator[Event, None, Cleared | SentBack | Halt]:
        notices, vetted = vet(self.call, self.record, self.session.redact)
        for notice in notices:
            yield self.emit(notice)
        if not isinstance(vetted, Cleared):
            told, stop = vetted
            return SentBack(told) if stop is None else Halt(told, stop)
        self.record.answer.proposed(vetted.code)
        return vetted

    def judge(self, seen: Preview, cleared: Cleared
              ) -> Generator[Event, None, SentBack | Halt | None]:
        as_cleared = replace(self.call, language=cleared.language, code=cleared.code)
        refused = refusal(seen, as_cleared, str(self.session.folder()), self.record, self.last)
        if refused is None:
            return None
        return (yield from self.foreseen(cleared, seen.end, refused))

    def foreseen(self, cleared: Cleared, end: RunEnd | None, refused: Refuse
                 ) -> Generator[Event, None, SentBack | Halt]:
        """A proposal its preview sent back: the user sees one line (the code on demand),
        the model reads why as the call's result, and a failure counts as the same code
        failing again would."""
        assert end is not None, "judge passes over a preview that did not end"
        redact, record = self.session.redact, self.record
        record.rules.fire(refused.rule, "refuse", redact(refused.detail))
        record.foresaw(end)
        yield self.emit(Tried(cleared.language, cleared.code, redact(refused.notice)))
        told = cleared.preface + redact(refused.told)
        failures = record.repeats.record(cleared.language, cleared.code, end.exit_status == 0,
                                         redact(refused.detail or refused.told))
        if failures >= REPEATS_BEFORE_STOP:
            return Halt(told, ("repeated_failure", failures))
        return SentBack(told)

    def declined(self, approval: Approval) -> Declined:
        why = f" ({approval.reason})" if approval.reason else ""
        self.record.declined.append(approval.reason)
        declines = self.record.declines
        return Declined(text("run.declined").format(why=why),
                        ("declined", declines) if declines >= DECLINES_BEFORE_STOP else None)

    def report(self, ran: Ran, cleared: Cleared) -> Reported | Halt:
        record = self.record
        told, failures = reported(record, ran, cleared, self.session.redact)
        if ran[0].interrupted or self.stopped():
            return Halt(told, ("interrupted", 0))
        if failures >= REPEATS_BEFORE_STOP:
            return Halt(told, ("repeated_failure", failures))
        record.stuck = record.stuck or failures > 1
        if record.runs >= self.session.max_runs_per_turn:
            return Halt(told, ("max_runs", record.runs))
        return Reported(told, ran)


def close_calls(session: Acting, calls: list[CodeCall], results: Results, request: str) -> None:
    """Answer every call in the history, so the next request is valid for the provider;
    fenced results end with the turn's `request`."""
    answered = {call.id for call, _ in results}
    results = results + [(call, NOT_RUN) for call in calls if call.id not in answered]
    if results:
        session.messages.extend(session.llm.result_messages(results, request))
