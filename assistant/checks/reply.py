"""The checks of a reply before the loop accepts it, each returning a verdict: code that
just failed proposed again, an answer right after a failed run, a final answer the answer
checks find fault with, one that repeats the loop's words, and one accepted that a check
still doubts. They read the turn's state and the history; they change neither, and fire
no rule: the loop applies what they return."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from assistant.checks.answers import doubts, grounded, unasked
from assistant.checks.echoes import only_echoes, without_echoes
from assistant.checks.labels import actual_language
from assistant.checks.state import TurnState
from assistant.checks.verdicts import Annotate, Edit, Rewrite, SendBack, StandIn
from assistant.checks.words import ended, from_record
from assistant.checks.written import written_calls
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


def review(reply: Reply, state: TurnState) -> Iterator[SendBack | Rewrite]:
    """Why a reply is not accepted yet, one verdict per rule in order (the first whose rule
    may act sends it back): screen calls written as words, proposed as its code (before
    any other check of an answer: nothing was done yet); a final answer, once each check;
    code that just failed, proposed again (left out of the history: a small model that
    reads its failed code twice writes it a third time). An answer that repeats the
    loop's words is not asked for again: that cost a model call and won nothing on the
    blind suites; the answer loses those words at the end (`finish`)."""
    if reply.calls:
        yield from failed_again(reply.calls[0], state)
        return
    acting = state.desktop and state.request.on_screen and not state.acted
    code = written_calls(reply.text) if acting else ""
    if code:
        yield Rewrite("answer.screen_calls", "python", code, "",
                      "The model wrote its screen calls as words: they are proposed as its "
                      "code.")
    previewed = state.failed_preview
    if (state.failed or previewed) and not grounded(state, reply.text):
        after = "its code failed in a preview" if previewed else "a failed run"
        yield SendBack("answer.failed_last", failed_last_message(state.last_exit, previewed),
                       f"The model answered right after {after}; it was asked to fix it or "
                       "to say that it did not work.")
    for found in unasked(state, reply.text):
        yield SendBack(found.rule, check_message(found.told), CHECKED, found.detail)


def failed_again(call: CodeCall, state: TurnState) -> Iterator[SendBack]:
    """Code that just failed, proposed again: sent back for different code (the turn ends
    at the third time in a row, when the call is taken)."""
    if call.problem or not state.last_failed:
        return
    language = actual_language(call.language, call.code)
    if state.rerun(language, call.code)[0] != "told":
        return  # a new proposal, or the last straw: taking the call stops the turn
    yield SendBack("repeat.failed_again",
                   check_message(text("repeat.failed_again").format(state.result)),
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


def finish(words: str, state: TurnState, messages: Messages,
           redact: Callable[[str], str]) -> Iterator[StandIn | Edit]:
    """A final answer that only repeats the loop's words gives way to words from the
    record (never the loop's instructions); one that begins or ends with them loses those
    paragraphs (a small model began its last words with the check it had been told two
    replies before)."""
    if only_echoes(words, messages):
        yield StandIn("echo.replace", from_record(state, redact), "The model's answer only "
                      "repeated the loop's words: the answer is what its runs showed.")
    trimmed = without_echoes(words, messages)
    if trimmed != words:
        yield Edit("echo.trim", trimmed)


def confirm(words: str, state: TurnState) -> Iterator[Annotate]:
    """An answer accepted after the model was asked already, that a check still doubts:
    it stands, and the user is told what is not confirmed."""
    return (Annotate(found.rule, found.doubt) for found in doubts(state, words))
