"""Taking a reply's calls: each is vetted, proposed, approved or declined, and run, and what
the model is told of it is written; a reason to end the turn stops the rest. Apart from
the session, which only decides what to do with replies."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.checks.echoes import framed
from assistant.checks.labels import actual_language
from assistant.checks.previewed import judge
from assistant.checks.record import TurnRecord
from assistant.checks.repeats import REPEAT_NOT_RUN, REPEATS_BEFORE_STOP, REPLY_TOLD
from assistant.checks.verdicts import Refuse
from assistant.events import Event, Notice, RunEnd, Tried
from assistant.llm import CodeCall
from assistant.loop.reported import reported
from assistant.loop.turn import (
    AFTER_FAILURE,
    DECLINES_BEFORE_STOP,
    FRAMED,
    NOT_RUN,
    Outcome,
    Ran,
    Stop,
)
from assistant.loop.vetting import Cleared, vet
from assistant.runtime.changes import describe_changes, list_folder
from assistant.runtime.changes import written as written_files
from assistant.texts import text
from assistant.whatif.transaction import TransactionalRuntimes

if TYPE_CHECKING:
    from assistant.loop.session import Session

Results = list[tuple[CodeCall, str]]


def act(session: Session, calls: list[CodeCall], record: TurnRecord
        ) -> Generator[Event, None, tuple[Results, Stop | None]]:
    """Take the reply's calls in order, until one gives a reason to end the turn, or fails:
    what follows it was written for its success (`cd build` failed, then `rm -rf *`).

    Returns what the model is told about each call taken, and that reason.
    """
    rules = record.rules
    keys = tuple((actual_language(call.language, call.code), call.code) for call in calls)
    verdict, times = record.repeats.reply(keys)
    if verdict == "stop":
        return [(call, REPEAT_NOT_RUN) for call in calls], ("repeated_success", times)
    if verdict == "told" and rules.on("repeat.reply_told"):
        rules.fire("repeat.reply_told", "refuse")
        record.stuck = True
        yield session.emit(Notice("Not run again: the model proposed the same code as in its "
                                  "last reply, which had succeeded; it was told to use those "
                                  "results."))
        told = record.answer.with_pending(REPLY_TOLD)
        return [(call, told) for call in calls], None
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


def act_on(session: Session, call: CodeCall, record: TurnRecord, last: bool = True
           ) -> Generator[Event, None, Outcome]:
    """One call: vetted (corrected, sent back, refused as a repeat), previewed (and sent
    back when that failed), declined, or run. `last`: no call of the reply follows it."""
    notices, vetted = vet(call, record, session.redact)
    for notice in notices:
        yield session.emit(notice)
    if not isinstance(vetted, Cleared):
        return vetted
    language, code = vetted.language, vetted.code
    record.answer.proposed(code)
    proposal = session.policy.proposal(call.id, language, code)
    if proposal.risk != "blocked" and session.policy.mode != "never" and \
            isinstance(session.runtimes, TransactionalRuntimes):
        seen = session.runtimes.foresee(language, code)  # the effect is what is approved
        if seen is not None and not seen.problem:
            refused = judge(seen, replace(call, language=language, code=code),
                            str(session.folder()), record, last)
            if refused is not None:
                return (yield from foreseen(session, record, vetted, seen.end, refused))
            # A preview that changed no files and failed where it could not cover the run
            # (the screen, a write it was refused) has nothing to show: its failure there is
            # not the effect. One that ended well shows what it left uncovered.
            if seen.effect.changes_files or not seen.effect.unpreviewable or \
                    seen.effect.exit_status == 0:
                proposal = session.policy.proposal(call.id, language, code, seen.effect)
    yield session.emit(proposal)
    approval = session.policy.decide(proposal)
    yield session.emit(approval)
    if session.stopped():
        return text("run.stopped"), ("interrupted", 0)
    if not approval.approved:
        why = f" ({approval.reason})" if approval.reason else ""
        record.declined.append(approval.reason)
        stop: Stop | None = (("declined", record.declines)
                             if record.declines >= DECLINES_BEFORE_STOP else None)
        return text("run.declined").format(why=why), stop
    ran = yield from run(session, language, approval.code, call.id)
    cleared = replace(vetted, code=approval.code)  # as the user approved it
    told, failures = reported(record, ran, cleared, session.redact)
    if ran[0].interrupted or session.stopped():
        return told, ("interrupted", 0)
    if failures >= REPEATS_BEFORE_STOP:
        return told, ("repeated_failure", failures)
    record.stuck = record.stuck or failures > 1
    if record.runs >= session.max_runs_per_turn:
        return told, ("max_runs", record.runs)
    return told, None


def foreseen(session: Session, record: TurnRecord, cleared: Cleared, end: RunEnd | None,
             refused: Refuse) -> Generator[Event, None, Outcome]:
    """A proposal its preview sent back: the user sees one line (the code on demand), the
    model reads why as the call's result, and a failure counts as the same code failing
    again would."""
    assert end is not None, "judge passes over a preview that did not end"
    record.rules.fire(refused.rule, "refuse", session.redact(refused.detail))
    record.foresaw(end)
    yield session.emit(Tried(cleared.language, cleared.code, session.redact(refused.notice)))
    told = cleared.preface + session.redact(refused.told)
    failures = record.repeats.record(cleared.language, cleared.code, end.exit_status == 0,
                                     session.redact(refused.detail or refused.told))
    if failures >= REPEATS_BEFORE_STOP:
        return told, ("repeated_failure", failures)
    return told, None


def run(session: Session, language: str, code: str, proposal_id: str
        ) -> Generator[Event, None, Ran]:
    """Run approved code; its RunEnd, what it changed in the working folder, and the files
    it wrote there."""
    folder = str(session.folder())
    before = list_folder(folder)
    end: RunEnd | None = None
    runner: Callable[..., Iterator[Event]] = session.runtimes.run
    if session.tools is not None and session.tools.find(language) is not None:
        runner = session.tools.call  # a tool's answer comes back as a run's output
    for event in runner(language, code, proposal_id=proposal_id):
        yield session.emit(event)
        if isinstance(event, RunEnd):
            end = event
    assert end is not None, "a run always ends with RunEnd"
    after = list_folder(folder)
    return end, describe_changes(before, after), written_files(before, after)


def close_calls(session: Session, calls: list[CodeCall], results: Results, request: str) -> None:
    """Answer every call in the history, so the next request is valid for the provider;
    fenced results end with the turn's `request`."""
    answered = {call.id for call, _ in results}
    results = results + [(call, NOT_RUN) for call in calls if call.id not in answered]
    if results:
        session.messages.extend(session.llm.result_messages(results, request))
