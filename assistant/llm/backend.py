"""Where litellm runs: here, loaded late (it takes seconds to import and over 150 MB), or
in a process of its own (llm/process.py) that a long-running program stops when idle.

Both speak the same small interface, `Backend`: a streamed reply as plain records (text,
tool-call deltas as dicts, usage, the model's name) and the few questions the adapter asks
about a model. Plain records cross a pipe as JSON; litellm's own objects would not.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, Protocol

# ("text", str) | ("calls", [dict]) | ("usage", (int, int)) | ("model", str) | ("stopped", True)
Record = tuple[str, Any]


class ReplyStream(Protocol):
    """One streamed reply: its records, and a way to stop the server generating it."""

    def __iter__(self) -> Iterator[Record]: ...
    def close(self) -> None: ...


class Backend(Protocol):
    def warm_up(self) -> None: ...
    def reply(self, request: dict[str, Any],
              should_stop: Callable[[], bool] | None = None) -> ReplyStream: ...
    def count_tokens(self, model: str, messages: list[dict[str, Any]]) -> int: ...
    def supports(self, feature: str, model: str) -> bool: ...
    def max_input_tokens(self, model: str) -> int | None: ...
    def provider(self, model: str) -> tuple[str, str | None]: ...
    def knows(self, model: str) -> bool: ...


@functools.cache
def load_litellm() -> ModuleType:
    """Import and configure litellm once per process.

    Its price list comes from the bundled copy instead of the network; tokenizers
    are never downloaded (token counts fall back to the bundled tiktoken
    encodings); its feedback banners and log lines never reach the user's terminal.
    Its per-chunk logging (a thread-pool task per streamed chunk, feeding callbacks
    and caches the assistant never registers) is off: it costs time on every reply.
    """
    import logging

    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    litellm.telemetry = False
    litellm.disable_hf_tokenizer_download = True
    litellm.disable_streaming_logging = True
    for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    return litellm


class InProcess:
    """litellm in this process."""

    def warm_up(self) -> None:
        """Import litellm now, and what it loads only on its first request (the OpenAI
        client's request types, the HTTP transport): most of a second otherwise."""
        import importlib

        load_litellm()
        for name in ("openai.resources", "httpcore"):
            try:
                importlib.import_module(name)
            except ImportError:  # a missing package fails the real request
                continue

    def reply(self, request: dict[str, Any],
              should_stop: Callable[[], bool] | None = None) -> ReplyStream:
        return _LocalReply(request, should_stop)

    def count_tokens(self, model: str, messages: list[dict[str, Any]]) -> int:
        return int(load_litellm().token_counter(
            model=model, messages=messages, use_default_image_token_count=True))

    def supports(self, feature: str, model: str) -> bool:
        """Whether litellm's list says `model` has `feature` ("function_calling", "vision")."""
        try:
            return bool(getattr(load_litellm(), f"supports_{feature}")(model=model))
        except Exception:  # a model litellm does not know
            return False

    def max_input_tokens(self, model: str) -> int | None:
        try:
            value = load_litellm().get_model_info(model)["max_input_tokens"]
        except Exception:
            return None
        return value if isinstance(value, int) and value > 0 else None

    def provider(self, model: str) -> tuple[str, str | None]:
        """The provider litellm would use for `model`, and its default API base."""
        try:
            _, provider, _, base = load_litellm().get_llm_provider(model)
        except Exception:
            return "openai", None
        return str(provider), base

    def knows(self, model: str) -> bool:
        """Whether litellm's bundled list names `model` (any case)."""
        return model.lower() in _listed_models()


@functools.cache
def _listed_models() -> frozenset[str]:
    return frozenset(name.lower() for name in load_litellm().model_cost)


class _LocalReply:
    """A litellm stream read into records; close() ends the HTTP stream under it."""

    def __init__(self, request: dict[str, Any], should_stop: Callable[[], bool] | None) -> None:
        self._request = request
        self._should_stop = should_stop
        self._response: Any = None

    def __iter__(self) -> Iterator[Record]:
        request = dict(self._request)
        read, connect = request.pop("timeout")
        import httpx

        request["timeout"] = httpx.Timeout(read, connect=connect)
        response = self._response = load_litellm().completion(**request)
        pieces: list[str] = []
        usage = None
        model = ""
        try:
            for chunk in response:
                usage = _usage_of(chunk) or usage
                if getattr(chunk, "model", None) and chunk.model != model:
                    model = chunk.model
                    yield "model", model
                delta = chunk.choices[0].delta if chunk.choices else None
                if delta is not None and delta.tool_calls:
                    yield "calls", [_plain(call) for call in delta.tool_calls]
                if delta is not None and delta.content:
                    pieces.append(delta.content)
                    yield "text", delta.content
                if self._should_stop is not None and self._should_stop():
                    yield "stopped", True
                    return
                if chunk.choices and chunk.choices[0].finish_reason:
                    usage = _drain(response) or usage or _estimate(request, "".join(pieces))
                    break
            if usage:
                yield "usage", usage
        finally:
            self.close()

    def close(self) -> None:
        if self._response is not None:
            _close(self._response)


def _plain(call: Any) -> dict[str, Any]:
    """A streamed tool-call delta as a dict (what a pipe can carry)."""
    function = _get(call, "function")
    return {"index": _get(call, "index"), "id": _get(call, "id"),
            "function": None if function is None else {
                "name": _get(function, "name"), "arguments": _get(function, "arguments")}}


def _get(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, dict) else getattr(item, key, None)


def _drain(response: Any) -> tuple[int, int] | None:
    """End a finished reply without asking litellm's wrapper; the usage, if it follows.

    Asked for more, the wrapper would rebuild the whole response from its chunks once
    again, price it, deep-copy it twice and hand it to the loggers and caches the
    assistant never uses: several ms a reply. The rest of the raw stream (where the
    usage comes, after the finish) is read here instead, so the HTTP connection can
    still be reused. A failure this late loses nothing.
    """
    stream = getattr(response, "completion_stream", None)
    usage = None
    if isinstance(stream, Iterator):
        try:
            for item in stream:
                usage = _usage_of(item) or usage
        except Exception:
            return usage
    return usage


def _estimate(request: dict[str, Any], answer: str) -> tuple[int, int]:
    """Token counts by litellm's counter, for servers that report no usage."""
    litellm = load_litellm()
    model = request["model"]
    prompt = litellm.token_counter(model=model, messages=request["messages"])
    return prompt, litellm.token_counter(model=model, text=answer)


def _usage_of(item: Any) -> tuple[int, int] | None:
    """Prompt and completion tokens of a chunk (an object or a dict), if it has them.

    litellm's wrapper moves a chunk's usage into its hidden params; it is read there too.
    """
    if isinstance(item, dict):
        usage = item.get("usage")
    else:
        hidden = getattr(item, "_hidden_params", None)
        usage = getattr(item, "usage", None) or (hidden or {}).get("usage")
    if isinstance(usage, dict):
        prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
    else:
        prompt = getattr(usage, "prompt_tokens", None)
        completion = getattr(usage, "completion_tokens", None)
    if prompt or completion:
        return int(prompt or 0), int(completion or 0)
    return None


def _close(response: Any) -> None:
    """Close the HTTP stream under litellm's wrapper, so a stopped reply stops downloading."""
    stream = getattr(response, "completion_stream", None)
    for target in (
        stream,
        getattr(stream, "http_response", None),
        getattr(stream, "response", None),
    ):
        close = getattr(target, "close", None)
        if callable(close):
            try:
                close()
            except Exception:
                continue
