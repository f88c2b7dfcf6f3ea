"""What one LLM call gives back: words, code proposals, and the message for history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class LLMError(Exception):
    """The LLM call failed; the message is one line that says what to do about it."""


@dataclass(frozen=True)
class CodeCall:
    """Code the model proposes; `id` ties the run's result back to the proposal.

    `problem` says why a call cannot run as sent (a malformed tool call): the model is
    told, so it can send it again properly, instead of the turn failing.
    """

    id: str
    language: str
    code: str
    problem: str = ""


@dataclass(frozen=True)
class Reply:
    """The finished reply.

    `message` is what to append to the history; `usage` is (prompt, completion)
    tokens when the provider reported them; `stopped` is True when `should_stop`
    cut the reply short (it then carries no proposals); `cut` when the caller's `cut`
    ended it early, whole (its proposals stand).
    """

    text: str
    calls: list[CodeCall]
    message: dict[str, Any]
    usage: tuple[int, int] | None
    model: str
    stopped: bool = False
    cut: bool = False
