"""How the reply checks' verdicts are applied to a reply and the history. A message sent
back is said to the model as a result (not as a turn of the user's), joined to the
results just before it."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any, Protocol

from assistant.events import Event, Notice
from assistant.llm import Reply
from assistant.messages import RESULTS_HEADER, is_results_message

if TYPE_CHECKING:
    from assistant.checks.record import TurnRecord
    from assistant.checks.rules import Rules


class Reviewing(Protocol):
    """What applying a reply's verdicts needs of the conversation."""

    rules: Rules
    messages: list[dict[str, Any]]

    def emit(self, event: Event) -> Event: ...
    def stopped(self) -> bool: ...


def reviewed(session: Reviewing, reply: Reply, record: TurnRecord
           ) -> Generator[Event, None, Reply | None]:
    """Apply the reply checks' verdicts: the reply as it stands, or None when it was sent
    back and the model is asked again. The checks load with the first reply, not before
    the request (cli_first_token_warm_s)."""
    from assistant.checks.reply import review

    if session.stopped():
        return reply
    verdict = review(reply, record)
    if verdict is None:
        return reply
    if not session.rules.send_back(verdict.rule, costs=not reply.calls):
        return reply  # the turn's extra model calls are spent: the answer stands
    send_back(session.messages, reply.message, verdict.told)
    yield session.emit(Notice(verdict.notice))
    record.stuck = True  # the same history at a low temperature: the same answer
    return None


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
