"""How a verdict's message goes into the history: said to the model as a result (not as a
turn of the user's), joined to the results just before it."""

from __future__ import annotations

from typing import Any

from assistant.llm.results import RESULTS_HEADER, is_results_message


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
