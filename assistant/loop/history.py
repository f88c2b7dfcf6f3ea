"""How the reply checks' verdicts are applied to a reply and the history: the loop's one
place for a reply's and an answer's verdicts. A message sent
back is said to the model as a result (not as a turn of the user's), joined to the
results just before it."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, Protocol

from assistant.actions.apply import applies, chosen, first
from assistant.checks.verdicts import Rewrite, StandIn
from assistant.events import Event, Notice
from assistant.llm import Reply
from assistant.messages import RESULTS_HEADER, is_results_message

if TYPE_CHECKING:
    from assistant.checks.state import TurnState


class Reviewing(Protocol):
    """What applying a reply's verdicts needs of the conversation."""

    messages: list[dict[str, Any]]

    def stopped(self) -> bool: ...

    def with_call(self, reply: Reply, language: str, code: str) -> Reply: ...


def reviewed(session: Reviewing, state: TurnState, reply: Reply
             ) -> Generator[Event, None, Reply | None]:
    """Apply the reply checks' verdicts: the reply as it stands, with the code its words
    held as its call, or None when it was sent back and the model is asked again (the
    first whose rule may act, when the turn's budget has a model call for it). The
    checks load with the first reply, not before the request (cli_first_token_warm_s)."""
    from assistant.checks.reply import review

    if session.stopped():
        return reply
    verdict = chosen(state.rules, review(reply, state))
    if isinstance(verdict, Rewrite):
        applies(state.rules, verdict)
        yield Notice(verdict.notice)
        return session.with_call(reply, verdict.language, verdict.code)
    if verdict is None or not applies(state.rules, verdict, costs=not reply.calls):
        return reply  # nothing found, or the turn's extra model calls are spent
    send_back(session.messages, reply.message, verdict.told)
    yield Notice(verdict.notice)
    return None


def answered(messages: list[dict[str, Any]], state: TurnState, words: str,
             redact: Callable[[str], str]) -> Generator[Event, None, str]:
    """A final answer as the checks leave it (`finish`: without what repeats the loop's
    words, or the record's words when nothing else is left, so in the history too, since
    what echoes the loop would be copied), with a note when a check still doubts it."""
    from assistant.checks.reply import confirm, finish

    done = first(state.rules, finish(words, state, messages, redact))
    if done is not None:
        if isinstance(done, StandIn):
            yield Notice(done.notice)
        messages[-1] = {"role": "assistant", "content": done.words}
        words = done.words
    note = first(state.rules, confirm(words, state))
    if note is not None:
        yield Notice(note.note)
    return words


def send_back(messages: list[dict[str, Any]], answer: dict[str, Any],
              nudge: dict[str, Any]) -> None:
    """Put `nudge` (a results message saying why `answer` is not accepted yet) into the
    history. After results in a user message, the nudge joins them and the answer is left
    out: a small model that reads its own answer just before the nudge says it again,
    word for word. Elsewhere (a tool result, the user's request) both go in, in turn,
    but for an answer with tool calls: those would need results of their own."""
    if not _joins(messages, nudge):
        messages.extend([nudge] if answer.get("tool_calls") else [answer, nudge])


def add_note(messages: list[dict[str, Any]], note: dict[str, Any]) -> None:
    """Put `note` (a results message) into the history: joined to the results just before
    it, else on its own."""
    if not _joins(messages, note):
        messages.append(note)


def _joins(messages: list[dict[str, Any]], note: dict[str, Any]) -> bool:
    """Join `note` to the user-role results message that ends the history, if one does."""
    last = messages[-1] if messages else {}
    if not (is_results_message(last) and isinstance(last.get("content"), str)):
        return False
    extra = note["content"].removeprefix(RESULTS_HEADER).lstrip("\n")
    messages[-1] = {**last, "content": f"{last['content']}\n\n{extra}"}
    return True
