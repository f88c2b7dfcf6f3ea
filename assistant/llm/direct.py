"""The embedded model's server, spoken to directly: its OpenAI-compatible chat API over
Python's own http.client, without litellm.

Importing litellm takes 5 s on 2 idle cores (13 s on busy ones) and 150 MB: a one-shot
command to a shared server that was already loaded, with the system message already read,
paid that before its first word. The embedded server is always ours (llama-cpp-python
with our ChatML, servers/chatml.py, behind our token), so the little litellm did for it is
done here: the request body, the event stream, usage counted by the model's own tokenizer
(the server streams none), and failures shaped as llm/errors.py reads them. Every other
model still goes through litellm (llm/backend.py).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

from assistant.config import Settings
from assistant.llm.backend import Record, ReplyStream
from assistant.servers import chatml
from assistant.servers.started import Servers

PROVIDER = "openai/"  # the prefix embedded.settings_for gives the model's name


def speaks_to(settings: Settings, servers: Servers | None) -> bool:
    """Whether `settings` name an embedded server of `servers` (shared or private)."""
    return (servers is not None and settings.model.startswith(PROVIDER)
            and servers.serves(settings.api_base))


class ServerFailure(Exception):
    """The server answered with an error status; the text is what errors.detail reads."""

    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"Error code: {status} - {body}")
        self.status_code = status


class Direct:
    """A Backend for the embedded server at the address `settings()` names now (a shared
    server started again may listen on another port)."""

    def __init__(self, settings: Callable[[], Settings]) -> None:
        self._settings = settings

    def warm_up(self) -> None:
        """Nothing to load ahead of need."""

    def reply(self, request: dict[str, Any],
              should_stop: Callable[[], bool] | None = None) -> ReplyStream:
        return _Reply(self, request, should_stop)

    def count_tokens(self, model: str, messages: list[dict[str, Any]]) -> int:
        """The tokens of `messages` in the prompt, by the model's own tokenizer."""
        return self.count("".join(chatml.turn(message) for message in messages))

    def count(self, text: str) -> int:
        """The tokens of `text`, by the model's own tokenizer."""
        settings = self._settings()
        timeout = settings.connect_timeout or 5.0
        connection = _open(settings.api_base, timeout, timeout)
        try:
            said = _post(connection, _root(settings.api_base) + "/extras/tokenize/count",
                         {"input": text}, settings.api_key)
            return int(json.loads(said.read())["count"])
        finally:
            connection.close()

    def supports(self, feature: str, model: str) -> bool:
        """Neither tool calls (its proposals are fenced code) nor images."""
        return False

    def max_input_tokens(self, model: str) -> int | None:
        return None  # embedded.settings_for sets the window

    def provider(self, model: str) -> tuple[str, str | None]:
        return "openai", None

    def knows(self, model: str) -> bool:
        return False


class _Reply:
    """One streamed chat completion; close() ends it, from any thread."""

    def __init__(self, backend: Direct, request: dict[str, Any],
                 should_stop: Callable[[], bool] | None) -> None:
        self._backend = backend
        self._request = request
        self._should_stop = should_stop
        self._connection: http.client.HTTPConnection | None = None

    def __iter__(self) -> Iterator[Record]:
        request = self._request
        model = request["model"]
        body = {"model": model.removeprefix(PROVIDER), "messages": request["messages"],
                "stream": True, "temperature": request["temperature"],
                "max_tokens": request["max_tokens"]}
        if request.get("tools"):
            body["tools"] = request["tools"]
        read, connect = request["timeout"]
        connection = self._connection = _open(request["api_base"], connect, read)
        try:
            response = _post(connection, _path(request["api_base"]) + "/chat/completions",
                             body, request["api_key"])
            pieces: list[str] = []
            finished = False
            for chunk in _events(response):
                if chunk.get("model"):
                    yield "model", chunk["model"]
                choice = (chunk.get("choices") or [{}])[0]
                delta = choice.get("delta") or {}
                if delta.get("tool_calls"):
                    yield "calls", delta["tool_calls"]
                if delta.get("content"):
                    pieces.append(delta["content"])
                    yield "text", delta["content"]
                if self._should_stop is not None and self._should_stop():
                    yield "stopped", True
                    return
                finished = finished or bool(choice.get("finish_reason"))
            if not finished:
                raise ConnectionResetError("the server ended the stream before the reply")
        finally:
            self.close()
        usage = self._usage(request["messages"], "".join(pieces))
        if usage is not None:
            yield "usage", usage

    def _usage(self, messages: list[dict[str, Any]], answer: str) -> tuple[int, int] | None:
        """Prompt and reply tokens as the model counts them; None when it cannot."""
        try:
            return self._backend.count(chatml.render(messages)), self._backend.count(answer)
        except (OSError, ValueError, KeyError, ServerFailure):
            return None

    def close(self) -> None:
        """End the stream: the server stops generating for no one, and a thread blocked
        reading it returns."""
        connection = self._connection
        if connection is None:
            return
        if connection.sock is not None:
            with contextlib.suppress(OSError):
                connection.sock.shutdown(socket.SHUT_RDWR)
        connection.close()


def _events(response: http.client.HTTPResponse) -> Iterator[dict[str, Any]]:
    """The JSON objects of a server-sent event stream, up to `[DONE]`."""
    for line in response:
        if not line.startswith(b"data:"):
            continue
        data = line[5:].strip()
        if data == b"[DONE]":
            return
        chunk = json.loads(data)
        if isinstance(chunk, dict) and chunk.get("error"):
            raise ServerFailure(500, json.dumps(chunk))
        if isinstance(chunk, dict):
            yield chunk


def _open(api_base: str, connect: float | None, read: float | None) -> http.client.HTTPConnection:
    """A connection made within `connect` seconds, whose reads wait `read` seconds each."""
    parts = urllib.parse.urlsplit(api_base)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80,
                                            timeout=connect)
    connection.connect()
    if connection.sock is not None:
        connection.sock.settimeout(read)
    return connection


def _post(connection: http.client.HTTPConnection, path: str, body: dict[str, Any],
          key: str | None) -> http.client.HTTPResponse:
    """The response to a JSON POST; ServerFailure unless it succeeded."""
    headers = {"Content-Type": "application/json"}
    if key:  # a shared server's token; a private server takes none
        headers["Authorization"] = f"Bearer {key}"
    connection.request("POST", path, json.dumps(body).encode(), headers)
    response = connection.getresponse()
    if response.status != 200:
        raise ServerFailure(response.status, response.read().decode(errors="replace"))
    return response


def _path(api_base: str) -> str:
    """The path part of the OpenAI URL (/v1)."""
    return urllib.parse.urlsplit(api_base).path.rstrip("/")


def _root(api_base: str) -> str:
    """The server's own paths (its tokenizer) sit beside /v1, not under it."""
    return _path(api_base).removesuffix("/v1")
