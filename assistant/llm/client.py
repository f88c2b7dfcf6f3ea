"""The LLM adapter: one streamed call per reply (through litellm, or straight to the embedded
model's server, llm/direct.py), in tool or fenced mode. The servers it talks to are started
by others (assistant.servers) and handed to it as a Servers."""

from __future__ import annotations

import json
import os
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from assistant.config import Settings
from assistant.events import CodeDraft
from assistant.llm import context, direct, errors, fenced, rate, tools
from assistant.llm.backend import Backend, InProcess, ReplyStream
from assistant.llm.pump import Stopped, pumped
from assistant.llm.reply import CodeCall, LLMError, Reply
from assistant.messages import fenced_message, sendable, tool_messages
from assistant.servers import local, ollama, reach
from assistant.servers.embedded import EmbeddedError
from assistant.servers.started import Servers

# The caller's check of a fenced reply's words so far: the words to keep when the reply is
# to end there, or None to go on.
Cut = Callable[[str], "str | None"]
CUT_AT = re.compile(r"[`\n]")  # a piece that may close a block, or end a line after one
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
    cut: bool = False  # ended early by the caller's `cut`, whole
    response: ReplyStream | None = None  # the open stream, for a stop from another thread


class LLM:
    """Talks to the model named in `settings`; holds no state between replies except caches."""

    def __init__(self, settings: Settings, offer: tools.Offer | None = None,
                 backend: Backend | None = None, servers: Servers | None = None) -> None:
        """`servers`: the embedded servers its owner keeps (assistant.servers.started); the
        model at one of them is spoken to directly and started again when it stopped."""
        self.settings = settings
        self.offer = offer  # tools besides `execute` (MCP servers, plugins)
        self.servers = servers or Servers()
        # where litellm runs; the embedded model's server needs none (llm/direct.py)
        self.backend: Backend = (direct.Direct(lambda: self.settings)
                                 if direct.speaks_to(settings, self.servers)
                                 else backend or InProcess())
        self.calls = rate.shared(settings.data_path, settings.llm_calls_per_minute)
        self._uses_tools: bool | None = None
        self._windows: dict[str, int] = {}
        self._tool_tokens: int | None = None

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
        return self.window_of(self.settings.model)

    def window_of(self, model: str) -> int:
        """The context window of `model` (the main or the vision model), cached."""
        if self.settings.context_window > 0:
            return self.settings.context_window
        if model not in self._windows:
            self._windows[model] = self._discover_window(model)
        return self._windows[model]

    def system_addendum(self) -> str:
        """How to propose code in the current mode; the caller appends it to the system message."""
        own = tools.INSTRUCTIONS if self.uses_tools else fenced.INSTRUCTIONS
        more = self.offer.instructions(fenced=not self.uses_tools) if self.offer else ""
        return f"{own}\n{more}" if more else own

    def stream(
        self, messages: list[dict[str, Any]], should_stop: Callable[[], bool] | None = None,
        temperature: float | None = None, cut: Cut | None = None,
    ) -> Iterator[str | CodeDraft | Reply]:
        """Yield text deltas as they arrive (and the code of a tool call as it is written),
        then the Reply as the last item. `temperature` replaces the setting's for this reply.
        `cut` is the caller's check of the words so far, asked in fenced mode whenever a
        piece that may close a block or end a line arrives (CUT_AT): the words to keep
        when the reply is to end there, whole (its `cut` is then True), or None to go on.

        A failure is retried (twice, briefly) only when it is an overload or
        server fault and nothing has been shown yet; otherwise it is an LLMError. Each
        reply is one call against the limit on LLM calls (rate.py), refused once it is hit.
        """
        if not self.settings.model:
            raise LLMError(NO_MODEL)
        self.calls.take()
        if self.settings.offline:
            try:
                local.check_local(self.settings)
            except local.LocalError as exc:
                raise LLMError(str(exc)) from None
        self._wake()
        request = self._request(messages, temperature)
        self._check_reachable(request)
        for attempt in range(len(RETRY_DELAYS) + 1):
            got = _Collected()
            try:
                yield from self._pumped(request, got, should_stop, cut)
                break
            except Exception as exc:
                failure = errors.classify(exc)
                last = attempt == len(RETRY_DELAYS)
                if failure.kind == "connect" and not got.pieces and not last and self._wake():
                    request = self._request(messages, temperature)  # stopped as we asked
                    continue
                if got.pieces or last or not failure.retryable or (should_stop and should_stop()):
                    raise self._error(failure) from None
                time.sleep(RETRY_DELAYS[attempt])
        yield self._reply(got)

    def _resolve(self) -> tools.Resolve | None:
        return self.offer.resolve if self.offer is not None else None

    def result_messages(self, results: list[tuple[CodeCall, str]],
                        request: str = "") -> list[dict[str, Any]]:
        """History messages telling the model what happened to each proposal, in the
        turn asked by `request`."""
        if not results:
            return []
        if self.uses_tools:
            return tool_messages(results)
        return [fenced_message(results, request)]

    def _pumped(
        self, request: dict[str, Any], got: _Collected, should_stop: Callable[[], bool] | None,
        cut: Cut | None,
    ) -> Iterator[str | CodeDraft]:
        """`_receive` on a reader thread: a stop while the server is silent ends the reply
        at once with the words so far; the reader finishes what it received on its own.
        A fenced reply that `cut` ends early ends there too, but whole."""
        reading = _Collected()
        ended = threading.Event()

        def stop() -> bool:
            return ended.is_set() or bool(should_stop and should_stop())

        try:
            for piece in pumped(lambda: self._receive(request, reading, stop), stop):
                if isinstance(piece, str):
                    got.pieces.append(piece)
                    kept = (None if cut is None or self.uses_tools or not CUT_AT.search(piece)
                            else cut("".join(got.pieces)))
                    if kept is not None:
                        got.pieces = [kept]
                        got.cut = True
                        ended.set()
                yield piece
        except Stopped:
            got.stopped = not ended.is_set()
            got.model = reading.model
            if reading.response is not None:  # the server stops generating for no one
                reading.response.close()
            return
        got.calls, got.usage, got.model, got.stopped = (
            reading.calls, reading.usage, reading.model, reading.stopped)

    def _receive(
        self, request: dict[str, Any], got: _Collected, should_stop: Callable[[], bool] | None
    ) -> Iterator[str | CodeDraft]:
        response = got.response = self.backend.reply(request, should_stop)
        shown = None
        for kind, value in response:
            if kind == "text":
                got.pieces.append(value)
                yield value
            elif kind == "calls":
                got.calls.feed(value)
                draft = got.calls.draft()
                if draft is not None and draft != shown:
                    shown = draft
                    yield CodeDraft(*draft)
            elif kind == "usage":
                got.usage = (int(value[0]), int(value[1]))
            elif kind == "model":
                got.model = value
            elif kind == "stopped":
                got.stopped = True

    def with_call(self, reply: Reply, language: str, code: str) -> Reply:
        """`reply` proposing `code` as one call, written as this mode writes calls (a tool
        call in the history's message, or the words themselves, which hold the code)."""
        call = CodeCall(f"call_{uuid.uuid4().hex[:24]}", language, code)
        message = dict(reply.message)
        if self.uses_tools:
            arguments = json.dumps({"language": language, "code": code})
            name = tools.EXECUTE_TOOL["function"]["name"]
            message["tool_calls"] = [tools.message_call(call.id, name, arguments)]
        return Reply(reply.text, [call], message, reply.usage, reply.model)

    def _reply(self, got: _Collected) -> Reply:
        text = "".join(got.pieces)
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if got.stopped:
            calls: list[CodeCall] = []
        elif self.uses_tools:
            calls = got.calls.calls(self._resolve())
            if calls:
                message = {
                    "role": "assistant",
                    "content": text or None,
                    "tool_calls": got.calls.message_calls(),
                }
        else:
            calls = [
                CodeCall(f"call_{uuid.uuid4().hex[:24]}", lang, code)
                for lang, code in fenced.find_blocks(text, self._resolve())
            ]
        return Reply(text, calls, message, got.usage, got.model or self.settings.model, got.stopped,
                     got.cut)

    def _request(
        self, messages: list[dict[str, Any]], temperature: float | None = None
    ) -> dict[str, Any]:
        """The litellm.completion arguments, with the history trimmed to the window.

        litellm sends `stream_options` only to providers that take it (it reads usage
        from the others itself); `drop_params` lets it leave out what a model rejects,
        such as a temperature on reasoning models; retries are ours, not the SDK's.
        Ollama runs with its own small default window whatever the model could take,
        so the window used here is always passed on as `num_ctx`. A turn that carries
        an image goes to `vision_model` when one is set.
        """
        settings = self.settings
        model = self.model_for(messages)
        window = self.window_of(model)
        max_tokens = context.reply_tokens(settings.max_tokens, window)
        offered = self.offer.specs() if self.offer else []
        tool_list = [tools.execute_tool(), *offered] if self.uses_tools else None
        tool_messages = [{"role": "system", "content": json.dumps(tool_list)}] if tool_list else []
        if context.surely_fits(messages + tool_messages, window - max_tokens):
            messages = [sendable(m) for m in messages]  # what litellm may change is a copy
        else:
            if tool_messages and self._tool_tokens is None:  # the same list every time
                self._tool_tokens = self._count(tool_messages[0])
            reserved = self._tool_tokens or 0 if tool_messages else 0
            messages = [sendable(m) for m in
                        context.fit(messages, window - max_tokens - reserved, self._count)]
        request: dict[str, Any] = {
            "model": model,
            "messages": messages,
            "stream": True,
            "api_base": settings.api_base or None,
            "api_key": settings.api_key or self._local_key(),
            "timeout": self._timeout(),
            "temperature": settings.temperature if temperature is None else temperature,
            "max_tokens": max_tokens,
            "stream_options": {"include_usage": True},
            "max_retries": 0,
            "drop_params": True,
        }
        if tool_list:
            request["tools"] = tool_list
        if ollama.is_ollama(model):
            request["num_ctx"] = window
        return request

    def model_for(self, messages: list[dict[str, Any]]) -> str:
        """The vision model when the latest turn carries an image and one is set, else the model."""
        turns = context.split_turns([m for m in messages if m.get("role") != "system"])
        latest = turns[-1] if turns else []
        if self.settings.vision_model and any(context.has_image(m) for m in latest):
            return self.settings.vision_model
        return self.settings.model

    def _timeout(self) -> tuple[float | None, float | None]:
        """Read and connect limits: an absent server fails in seconds, a silent one after
        llm_timeout (the read limit also bounds each pause between tokens)."""
        read = self.settings.llm_timeout or None
        return read, self.settings.connect_timeout or read

    def _wake(self) -> bool:
        """Start the user's shared embedded server again when it has stopped since the last
        reply (its keep-alive ran out, or it crashed; servers/shared.py tells the user), and
        say whether the model is served by one of the servers kept for it."""
        try:
            url = self.servers.ensure(self.settings.api_base)
        except EmbeddedError as exc:
            raise LLMError(str(exc)) from None
        if url != self.settings.api_base:
            self.settings = self.settings.replace(api_base=url)
        return self.servers.serves(url)

    def _check_reachable(self, request: dict[str, Any]) -> None:
        """Open (and close) a connection to a known server first, within connect_timeout.

        litellm keeps a separate connect limit only for OpenAI-style providers; for the
        others (Ollama among them) a server that never accepts would otherwise hold
        the request for the whole llm_timeout.
        """
        model = request["model"]
        if ollama.is_ollama(model):
            url = ollama.base_url(self.settings.api_base)
        elif self.settings.api_base and not model.startswith(("openai/", "azure/")):
            url = self.settings.api_base
        else:
            return
        if not reach.accepts_connections(url, self.settings.connect_timeout or 5.0):
            raise self._error(errors.Failure("connect", None, "no connection"))

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
            return self.backend.count_tokens(self.settings.model, [message])
        except Exception:
            return len(json.dumps(message, default=str)) // 3

    def _supports_tools(self) -> bool:
        model = self.settings.model
        if not model:
            return False
        if ollama.is_ollama(model) and not self._listed(model):
            return False
        return self.backend.supports("function_calling", model)

    def _discover_window(self, model: str) -> int:
        if ollama.is_ollama(model):
            found = ollama.context_length(
                ollama.base_url(self.settings.api_base), ollama.model_name(model)
            )
            if found:
                return min(found, ollama.NUM_CTX_CAP)
            if not self._listed(model):
                return DEFAULT_WINDOW
        return self.backend.max_input_tokens(model) or DEFAULT_WINDOW

    def _listed(self, model: str) -> bool:
        """Whether litellm's bundled list knows this Ollama model, so asking it needs no
        server."""
        name = ollama.model_name(model)
        return any(self.backend.knows(candidate) for candidate in
                   (model, name, f"ollama/{name}", f"ollama_chat/{name}"))

    def _error(self, failure: errors.Failure) -> LLMError:
        model = self.settings.model
        where = self.settings.api_base
        provider, default_base = self.backend.provider(model)
        if ollama.is_ollama(model):
            where = ollama.base_url(where)
            provider = "ollama"
            if failure.kind == "connect":
                return LLMError(ollama.not_running(where))
            if failure.kind == "not_found":
                return LLMError(ollama.pull_hint(where, ollama.model_name(model)))
        where = where or default_base or f"the {provider} API"
        return errors.to_error(
            failure,
            model=model,
            where=where,
            timeout=self.settings.llm_timeout,
            key_variable=f"{provider.upper()}_API_KEY",
        )

