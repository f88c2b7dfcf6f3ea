"""The LLM adapter: one streamed litellm call per reply, in tool or fenced mode."""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from assistant.config import Settings
from assistant.llm import context, errors, fenced, ollama, tools
from assistant.llm.backend import load_litellm
from assistant.llm.reply import CodeCall, LLMError, Reply
from assistant.llm.results import fenced_message, tool_messages

DEFAULT_WINDOW = 8192
RETRY_DELAYS = (0.4, 0.8)
NO_MODEL = (
    "No model chosen: pass --model or set ASSISTANT_MODEL "
    "(e.g. gpt-4o, anthropic/claude-sonnet-4-5 or ollama_chat/llama3.1)"
)


@dataclass
class _Collected:
    """What one attempt has received so far."""

    pieces: list[str] = field(default_factory=list)
    calls: tools.ToolCallAssembler = field(default_factory=tools.ToolCallAssembler)
    usage: tuple[int, int] | None = None
    model: str = ""
    stopped: bool = False


class LLM:
    """Talks to the model named in `settings`; holds no state between replies except caches."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._uses_tools: bool | None = None
        self._window: int | None = None

    @property
    def uses_tools(self) -> bool:
        """Whether proposals come as `execute` tool calls (else as fenced blocks)."""
        if self.settings.code_style != "auto":
            return self.settings.code_style == "tools"
        if self._uses_tools is None:
            self._uses_tools = self._supports_tools()
        return self._uses_tools

    @property
    def context_window(self) -> int:
        """Tokens the model takes: the setting, else what the server or litellm says, else 8192."""
        if self.settings.context_window > 0:
            return self.settings.context_window
        if self._window is None:
            self._window = self._discover_window()
        return self._window

    def system_addendum(self) -> str:
        """How to propose code in the current mode; the caller appends it to the system message."""
        return tools.INSTRUCTIONS if self.uses_tools else fenced.INSTRUCTIONS

    def stream(
        self, messages: list[dict[str, Any]], should_stop: Callable[[], bool] | None = None
    ) -> Iterator[str | Reply]:
        """Yield text deltas as they arrive, then the Reply as the last item.

        A failure is retried (twice, briefly) only when it is an overload or
        server fault and nothing has been shown yet; otherwise it is an LLMError.
        """
        if not self.settings.model:
            raise LLMError(NO_MODEL)
        request = self._request(messages)
        for attempt in range(len(RETRY_DELAYS) + 1):
            got = _Collected()
            try:
                yield from self._receive(request, got, should_stop)
                break
            except Exception as exc:
                failure = errors.classify(exc)
                last = attempt == len(RETRY_DELAYS)
                if got.pieces or last or not failure.retryable or (should_stop and should_stop()):
                    raise self._error(failure) from None
                time.sleep(RETRY_DELAYS[attempt])
        yield self._reply(got)

    def result_messages(self, results: list[tuple[CodeCall, str]]) -> list[dict[str, Any]]:
        """History messages telling the model what happened to each proposal."""
        if not results:
            return []
        if self.uses_tools:
            return tool_messages(results)
        return [fenced_message(results)]

    def _receive(
        self, request: dict[str, Any], got: _Collected, should_stop: Callable[[], bool] | None
    ) -> Iterator[str]:
        response = load_litellm().completion(**request)
        try:
            for chunk in response:
                usage = getattr(chunk, "usage", None)
                if usage and (usage.prompt_tokens or usage.completion_tokens):
                    got.usage = (int(usage.prompt_tokens or 0), int(usage.completion_tokens or 0))
                got.model = getattr(chunk, "model", None) or got.model
                delta = chunk.choices[0].delta if chunk.choices else None
                if delta is not None and delta.tool_calls:
                    got.calls.feed(delta.tool_calls)
                if delta is not None and delta.content:
                    got.pieces.append(delta.content)
                    yield delta.content
                if should_stop is not None and should_stop():
                    got.stopped = True
                    return
        finally:
            _close(response)

    def _reply(self, got: _Collected) -> Reply:
        text = "".join(got.pieces)
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if got.stopped:
            calls: list[CodeCall] = []
        elif self.uses_tools:
            calls = got.calls.calls()
            if calls:
                message = {
                    "role": "assistant",
                    "content": text or None,
                    "tool_calls": got.calls.message_calls(),
                }
        else:
            calls = [
                CodeCall(f"call_{uuid.uuid4().hex[:24]}", lang, code)
                for lang, code in fenced.find_blocks(text)
            ]
        return Reply(text, calls, message, got.usage, got.model or self.settings.model, got.stopped)

    def _request(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """The litellm.completion arguments, with the history trimmed to the window.

        litellm sends `stream_options` only to providers that take it (it reads usage
        from the others itself); `drop_params` lets it leave out what a model rejects,
        such as a temperature on reasoning models; retries are ours, not the SDK's.
        Ollama runs with its own default window whatever the model could take, so a
        window set by the user is passed on as `num_ctx`.
        """
        settings = self.settings
        window = self.context_window
        max_tokens = context.reply_tokens(settings.max_tokens, window)
        tool_list = [tools.EXECUTE_TOOL] if self.uses_tools else None
        reserved = (
            self._count({"role": "system", "content": json.dumps(tool_list)}) if tool_list else 0
        )
        request: dict[str, Any] = {
            "model": settings.model,
            "messages": context.fit(messages, window - max_tokens - reserved, self._count),
            "stream": True,
            "api_base": settings.api_base or None,
            "api_key": settings.api_key or self._local_key(),
            "timeout": settings.llm_timeout or None,
            "temperature": settings.temperature,
            "max_tokens": max_tokens,
            "stream_options": {"include_usage": True},
            "max_retries": 0,
            "drop_params": True,
        }
        if tool_list:
            request["tools"] = tool_list
        if ollama.is_ollama(settings.model) and settings.context_window > 0:
            request["num_ctx"] = settings.context_window
        return request

    def _local_key(self) -> str | None:
        """A placeholder key for an OpenAI-compatible server of the user's own.

        Such servers (llama.cpp, LM Studio, vLLM) usually take no key, but the OpenAI
        SDK refuses to send a request without one; a server that does want a key
        answers 401, which tells the user to set it.
        """
        settings = self.settings
        custom = settings.model.startswith("openai/") and settings.api_base
        return "no-key" if custom and not os.environ.get("OPENAI_API_KEY") else None

    def _count(self, message: dict[str, Any]) -> int:
        try:
            return load_litellm().token_counter(
                model=self.settings.model, messages=[message], use_default_image_token_count=True
            )
        except Exception:
            return len(json.dumps(message, default=str)) // 3

    def _supports_tools(self) -> bool:
        model = self.settings.model
        if not model:
            return False
        litellm = load_litellm()
        if ollama.is_ollama(model) and not _listed(litellm, model):
            return False
        try:
            return bool(litellm.supports_function_calling(model=model))
        except Exception:
            return False

    def _discover_window(self) -> int:
        model = self.settings.model
        litellm = load_litellm()
        if ollama.is_ollama(model):
            found = ollama.context_length(
                ollama.base_url(self.settings.api_base), ollama.model_name(model)
            )
            if found:
                return found
            if not _listed(litellm, model):
                return DEFAULT_WINDOW
        try:
            value = litellm.get_model_info(model)["max_input_tokens"]
        except Exception:
            value = None
        return value if isinstance(value, int) and value > 0 else DEFAULT_WINDOW

    def _error(self, failure: errors.Failure) -> LLMError:
        model = self.settings.model
        where = self.settings.api_base
        provider = "openai"
        try:
            _, provider, _, default_base = load_litellm().get_llm_provider(model)
        except Exception:
            default_base = None
        if ollama.is_ollama(model):
            where = ollama.base_url(where)
            provider = "ollama"
        where = where or default_base or f"the {provider} API"
        return errors.to_error(
            failure,
            model=model,
            where=where,
            timeout=self.settings.llm_timeout,
            key_variable=f"{provider.upper()}_API_KEY",
        )


def _listed(litellm: Any, model: str) -> bool:
    """Whether litellm's bundled list knows this Ollama model, so asking it needs no server."""
    name = ollama.model_name(model).lower()
    known = {key.lower() for key in litellm.model_cost}
    return bool({model.lower(), name, f"ollama/{name}", f"ollama_chat/{name}"} & known)


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
