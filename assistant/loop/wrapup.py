"""The words that end a turn the loop stopped: the model, told why, is asked for them once;
what it cannot give is written from the turn's record."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from assistant.checks.echoes import echoes
from assistant.checks.record import TurnRecord
from assistant.checks.reply import check_message, finish
from assistant.checks.verdicts import StandIn
from assistant.checks.words import stand_in
from assistant.events import Event, Notice, TurnEndReason
from assistant.loop.act import close_calls
from assistant.loop.ask import ask, received
from assistant.loop.history import add_note
from assistant.loop.turn import STOP_NOTICES, WRAP_UP, WRAPPED_UP

if TYPE_CHECKING:
    from assistant.loop.session import Session


def wrap_up(session: Session, system: str, reason: TurnEndReason, n: int,
            record: TurnRecord) -> Generator[Event, None, str | None]:
    """A turn the loop stopped still ends in words: the model, told why, says what was
    done and what the outputs showed. Code it proposes then is not run, and words that
    only repeat the loop's (the stop's, or a check's told earlier in the turn) give way
    to what the runs printed or wrote, as a final answer's do. None when the model is not
    asked (the stop notice is then still to be given)."""
    if (reason not in WRAPPED_UP or session.stopped() or not session.rules.on("wrapup.ask")
            or not session.rules.affordable("wrapup.ask")):
        return None
    session.rules.fire("wrapup.ask", "send_back", reason)
    notice = STOP_NOTICES[reason].format(n=n)
    yield session.emit(Notice(notice))
    add_note(session.messages, check_message(WRAP_UP.format(notice)))
    reply = yield from ask(session, system)
    if reply is None:
        return ""
    yield from received(session, reply)
    echoed = echoes(reply.text, session.messages)
    session.messages.append(reply.message)
    close_calls(session, reply.calls, [], record.answer.request)
    if reply.calls or echoed:
        return stand_in(record, session.redact)
    return (yield from last_words(session, reply.text, record))


def last_words(session: Session, words: str, record: TurnRecord
               ) -> Generator[Event, None, str]:
    """The model's final words as the checks leave them (`finish`): without the paragraphs
    that repeat the loop's words, or, when nothing else is left, words from the record;
    kept so in the history too, since what echoes the loop would be copied."""
    done = finish(words, record, session.messages, session.redact)
    if done is None:
        return words
    session.rules.fire(done.rule, "stand_in" if isinstance(done, StandIn) else "edit")
    if isinstance(done, StandIn):
        yield session.emit(Notice(done.notice))
    session.messages[-1] = {"role": "assistant", "content": done.words}
    return done.words
