"""The checks of a reply before the loop accepts it, each returning a verdict: code that
just failed proposed again, an answer right after a failed run, a final answer the answer
checks find fault with, one that repeats the loop's words, and one accepted that a check
still doubts. They read the turn's record and the history; they change neither."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assistant.checks.echoes import only_echoes, without_echoes
from assistant.checks.labels import actual_language
from assistant.checks.record import TurnRecord
from assistant.checks.verdicts import Annotate, Edit, SendBack, StandIn
from assistant.checks.words import ended, from_record
from assistant.events import RunEnd
from assistant.llm import CodeCall, Reply
from assistant.llm.fenced import blocks
from assistant.messages import RESULTS_HEADER, results_message
from assistant.texts import text

CHECKED = "The answer was checked against what ran: the model was asked to look again."
Messages = list[dict[str, Any]]


def check_message(problem: str) -> dict[str, Any]:
    """What a check found, said to the model as a result, not a turn."""
    return results_message(f"{RESULTS_HEADER}\n\n{problem}")


def guessed(reply: Reply, tools: Callable[[str], str | None] | None = None) -> Edit | None:
    """A fenced reply as the history keeps it: up to the end of its last block (rule
    history.guess). What follows was written before anything ran, so it is a guess ("The
    sum is 15."), and a small model that reads its own guess in the history repeats it
    whatever the run printed. None when nothing follows its code."""
    ends = [end for _, _, end in blocks(reply.text, tools)]
    if not reply.calls or not ends:
        return None
    kept = "\n".join(reply.text.split("\n")[: ends[-1]])
    return Edit("history.guess", kept) if kept != reply.text else None


def review(reply: Reply, record: TurnRecord) -> SendBack | None:
    """Why a reply is not accepted yet: a final answer, once each check; code that just
    failed, proposed again (left out of the history: a small model that reads its failed
    code twice writes it a third time). An answer that repeats the loop's words is not
    asked for again: that cost a model call and won nothing on the blind suites; the
    answer loses those words at the end (`finish`)."""
    rules = record.rules
    if reply.calls:
        return failed_again(reply.calls[0], record)
    previewed = record.failed_preview
    if ((record.failed or previewed) and rules.on("answer.failed_last")
            and not record.answer.grounded(reply.text)):
        after = "its code failed in a preview" if previewed else "a failed run"
        return SendBack("answer.failed_last", failed_last_message(record.last_exit, previewed),
                        f"The model answered right after {after}; it was asked to fix it or "
                        "to say that it did not work.")
    found = record.answer.finding(reply.text)
    if found:
        return SendBack(found[0], check_message(found[1]), CHECKED)
    return None


def failed_again(call: CodeCall, record: TurnRecord) -> SendBack | None:
    """Code that just failed, proposed again: sent back for different code (the turn ends
    at the third time in a row, when the call is taken)."""
    if call.problem or not record.repeats.last_failed() or not record.rules.on(
            "repeat.failed_again"):
        return None
    language = actual_language(call.language, call.code)
    if record.repeats.rerun(language, call.code)[0] != "told":
        return None  # a new proposal, or the last straw: taking the call stops the turn
    record.repeats.check(language, call.code)
    return SendBack("repeat.failed_again",
                    check_message(text("repeat.failed_again").format(record.repeats.result())),
                    f"Not run again: the model proposed the same {language} code that had "
                    "just failed; it was asked for different code.")


def failed_last_message(exit_status: int | None, previewed: RunEnd | None = None
                        ) -> dict[str, Any]:
    """Said once when the model answers right after its last run failed, or right after
    its code failed in a preview and never ran: small models often call a failed task
    done, or answer from what they meant their code to find."""
    if previewed is not None:
        return check_message(text("answer.failed_preview").format(
            ended(previewed.exit_status)))
    return check_message(text("answer.failed_last").format(ended(exit_status)))


def finish(words: str, record: TurnRecord, messages: Messages,
           redact: Callable[[str], str]) -> StandIn | Edit | None:
    """A final answer that only repeats the loop's words gives way to words from the
    record (never the loop's instructions); one that begins or ends with them loses those
    paragraphs (a small model began its last words with the check it had been told two
    replies before)."""
    if record.rules.on("echo.replace") and only_echoes(words, messages):
        return StandIn("echo.replace", from_record(record, redact), "The model's answer only "
                       "repeated the loop's words: the answer is what its runs showed.")
    if record.rules.on("echo.trim"):
        trimmed = without_echoes(words, messages)
        if trimmed != words:
            return Edit("echo.trim", trimmed)
    return None


def confirm(words: str, record: TurnRecord) -> Annotate | None:
    """An answer accepted after the model was asked already, that a check still doubts:
    it stands, and the user is told what is not confirmed."""
    found = record.answer.doubt(words)
    return Annotate(*found) if found else None
