"""Turning litellm's exceptions into one actionable line, and deciding what is worth a retry.

litellm wraps the same failure differently per provider (a refused connection
to an OpenAI-compatible server arrives as a 500, a 401 with an OpenAI-shaped body
as a BadRequestError), so the cause is read from the whole exception chain and the
HTTP status, not from litellm's class alone.
"""

from __future__ import annotations

import ast
import json
import re
import socket
from dataclasses import dataclass

from assistant.llm.reply import LLMError

_TIMEOUT_NAMES = {"Timeout", "APITimeoutError", "TimeoutException", "ReadTimeout", "ConnectTimeout"}
_CONNECT_NAMES = {"ConnectError"}
_DROPPED_NAMES = {"RemoteProtocolError"}
_NO_KEY = re.compile(
    r"missing credentials|missing \w+ api key|api_key client option must be set", re.I
)
_PREFIX = re.compile(r"^\s*(?:litellm\.)?\w*(?:Error|Exception|Timeout)\s*(?::|-)\s*")
_NOISE = re.compile(
    r"\s*(?:Original exception|Received Model Group|LiteLLM Retried|Error_str:).*$", re.S
)
_STATUS_BODY = re.compile(r"^Error code: \d+ - (.*)$", re.S)


@dataclass(frozen=True)
class Failure:
    """What went wrong, in the adapter's own words."""

    kind: str
    status: int | None
    detail: str

    @property
    def retryable(self) -> bool:
        """Only overload and server faults may pass; refusals and bad keys will not."""
        return self.kind in ("rate_limit", "server", "dropped")


class Failed(Exception):
    """A failure classified where it happened (litellm's own process), carried here."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.detail)
        self.failure = failure


def classify(exc: BaseException) -> Failure:
    if isinstance(exc, Failed):
        return exc.failure
    chain = _chain(exc)
    names = {cls.__name__ for e in chain for cls in type(e).__mro__}
    codes = (getattr(e, "status_code", None) for e in chain)
    status = next((code for code in codes if isinstance(code, int)), None)
    text = " ".join(str(e) for e in chain)

    def failure(kind: str) -> Failure:
        return Failure(kind, status, detail(exc))

    if names & _TIMEOUT_NAMES or any(isinstance(e, TimeoutError) for e in chain):
        return failure("timeout")
    if names & _CONNECT_NAMES or any(
        isinstance(e, (ConnectionRefusedError, socket.gaierror)) for e in chain
    ):
        return failure("connect")
    if "LLM Provider NOT provided" in text:
        return failure("unknown_model")
    if _NO_KEY.search(text):
        return failure("no_key")
    if "ContextWindowExceededError" in names:
        return failure("too_long")
    if status in (401, 403):
        return failure("auth")
    if status == 404:
        return failure("not_found")
    if status == 429:
        return failure("rate_limit")
    if any(isinstance(e, json.JSONDecodeError) for e in chain):
        return failure("malformed")
    if names & _DROPPED_NAMES or any(isinstance(e, ConnectionResetError) for e in chain):
        return failure("dropped")
    if (status or 0) >= 500 or re.search(r"service unavailable|overloaded", text, re.I):
        return failure("server")
    if status in (400, 413, 422):
        return failure("rejected")
    return failure("other")


def to_error(
    failure: Failure, *, model: str, where: str, timeout: float, key_variable: str
) -> LLMError:
    """The one line the user reads; each says what to do next."""
    at = f"The LLM at {where}"
    set_key = (
        "set it with --api-key or ASSISTANT_API_KEY "
        f"(or the provider's variable, e.g. {key_variable})"
    )
    status = f" ({failure.status})" if failure.status else ""
    pull = (
        " (for Ollama: ollama pull NAME)" if model.startswith(("ollama/", "ollama_chat/")) else ""
    )
    lines = {
        "connect": f"Cannot reach the LLM at {where}: is the server running? (set --api-base)",
        "timeout": f"{at} did not answer within {timeout:g} s (raise llm_timeout if it is slow)",
        "malformed": f"{at} sent a malformed stream ({failure.detail}): "
        "check that the API base points at an OpenAI- or Ollama-compatible server",
        "dropped": f"{at} closed the connection in the middle of its reply: try again",
        "unknown_model": f"Unknown model {model!r}: name it with its provider, "
        "e.g. openai/gpt-4o, anthropic/claude-sonnet-4-5 or ollama_chat/llama3.1",
        "no_key": f"No API key for {model}: {set_key}",
        "auth": f"The API key was rejected for {model}: {set_key}",
        "too_long": f"The conversation is too long for {model}: set context_window to the "
        "model's real size so the history is trimmed to fit, or start a new conversation",
        "not_found": f"The model {model} was not found at {where}: check its name{pull}",
        "rate_limit": f"{at} is limiting requests ({failure.detail}): wait a while and try again",
        "server": f"{at} failed with a server error{status}: {failure.detail}",
        "rejected": f"{at} rejected the request{status}: {failure.detail}",
    }
    return LLMError(lines.get(failure.kind, f"The LLM call to {model} failed: {failure.detail}"))


def detail(exc: BaseException) -> str:
    """The provider's own message, without litellm's class-name prefixes and debug tails."""
    message = _NOISE.sub("", str(exc)).strip()
    while (stripped := _PREFIX.sub("", message, count=1)) != message:
        message = stripped
    if match := _STATUS_BODY.match(message):
        message = match[1]
    message = _message_in_body(message)
    message = " ".join(message.split())
    return (message[:157] + "...") if len(message) > 160 else (message or type(exc).__name__)


def _message_in_body(text: str) -> str:
    """Pull {"error": {"message": ...}} (JSON or a Python repr of it) out of an error body."""
    if not text.startswith("{"):
        return text
    for parse in (json.loads, ast.literal_eval):
        try:
            body = parse(text)
        except (ValueError, SyntaxError):
            continue
        error = body.get("error", body) if isinstance(body, dict) else body
        if isinstance(error, dict):
            error = error.get("message") or error
        return str(error)
    return text


def _chain(exc: BaseException) -> list[BaseException]:
    """The exception and everything it wraps: litellm keeps the cause in `original_exception`."""
    seen: list[BaseException] = []
    pending: list[BaseException | None] = [exc]
    while pending:
        current = pending.pop(0)
        if not isinstance(current, BaseException) or any(current is s for s in seen):
            continue
        seen.append(current)
        pending += [
            getattr(current, "original_exception", None),
            current.__cause__,
            current.__context__,
        ]
    return seen
