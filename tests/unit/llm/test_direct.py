"""The embedded server's direct client against the scripted server, which speaks the same
OpenAI wire protocol and llama-cpp-python's token count."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest

from assistant.config import Settings
from assistant.llm import LLM, LLMError, Reply, direct
from assistant.servers import chatml
from assistant.servers.started import Servers
from tests.support.llm_server import (
    LLMServer,
    closed_port_url,
    error,
    hang,
    malformed,
    pieces,
    text,
)

USER = [{"role": "system", "content": "You help."}, {"role": "user", "content": "Hi"}]


def direct_llm(settings: Settings) -> LLM:
    """An LLM that speaks to `settings.api_base` as to the embedded server."""
    return LLM(settings, backend=direct.Direct(lambda: settings))


@pytest.fixture
def settings(server: LLMServer) -> Settings:
    return Settings(model="openai/test-model", api_base=server.openai_url, api_key="token",
                    code_style="fenced", llm_timeout=5, max_tokens=64)


def timed(llm: LLM, **kwargs: Any) -> tuple[list[tuple[float, str]], Reply]:
    """Each text delta with the second it arrived, and the reply."""
    began = time.monotonic()
    deltas: list[tuple[float, str]] = []
    for item in llm.stream(USER, **kwargs):
        if isinstance(item, Reply):
            return deltas, item
        if isinstance(item, str):
            deltas.append((time.monotonic() - began, item))
    raise AssertionError("the stream ended without a reply")


def test_words_are_yielded_as_they_arrive_and_counted_by_the_servers_tokenizer(
        server: LLMServer, settings: Settings) -> None:
    server.add(text("one two three four", pace=0.4))
    deltas, reply = timed(direct_llm(settings))
    assert [piece for _, piece in deltas] == pieces("one two three four")
    assert deltas[0][0] < deltas[-1][0] - 0.8  # not held back until the reply ends
    assert reply.text == "one two three four" and reply.model == "test-model"
    assert reply.usage == (len(pieces(chatml.render(USER))), 4)
    chat, *counts = server.requests
    assert chat.path == "/v1/chat/completions"
    assert chat.headers["authorization"] == "Bearer token"
    assert chat.body == {"model": "test-model", "messages": USER, "stream": True,
                         "temperature": settings.temperature, "max_tokens": 64}
    assert [request.path for request in counts] == ["/extras/tokenize/count"] * 2


def test_a_history_that_may_not_fit_is_counted_by_the_servers_tokenizer(
        server: LLMServer, settings: Settings) -> None:
    long = [{"role": "user", "content": "word " * 3000}, {"role": "assistant", "content": "ok"},
            {"role": "user", "content": "and now?"}]
    server.add(text("Fine."))
    list(direct_llm(settings.replace(context_window=2000)).stream(long))
    [chat] = server.chat_requests
    assert chat.body["messages"] == [long[-1]]  # the oldest turn went; the count said so
    assert any(r.path == "/extras/tokenize/count" for r in server.requests)


def test_an_absent_server_is_one_line_at_once() -> None:
    base = closed_port_url() + "/v1"
    began = time.monotonic()
    with pytest.raises(LLMError, match=re.escape(f"Cannot reach the LLM at {base}")):
        list(direct_llm(Settings(model="openai/m", api_base=base, code_style="fenced")).stream(
            USER))
    assert time.monotonic() - began < 5


def test_error_statuses_are_the_servers_own_words_and_server_faults_are_retried(
        server: LLMServer, settings: Settings) -> None:
    server.add(error(401, "Invalid API key"))
    with pytest.raises(LLMError, match="API key was rejected for openai/test-model"):
        list(direct_llm(settings).stream(USER))
    server.add(error(500, "boom"), error(503, "busy"), error(500, "boom again"))
    with pytest.raises(LLMError, match=r"server error \(500\): boom again$"):
        list(direct_llm(settings).stream(USER))
    assert len(server.chat_requests) == 4


def test_a_broken_or_silent_stream_is_said_in_one_line(
        server: LLMServer, settings: Settings) -> None:
    server.add(malformed())
    with pytest.raises(LLMError, match="sent a malformed stream"):
        list(direct_llm(settings).stream(USER))
    server.add(hang())
    with pytest.raises(LLMError, match=re.escape("did not answer within 0.5 s")):
        list(direct_llm(settings.replace(llm_timeout=0.5)).stream(USER))


def test_a_stop_while_the_server_is_silent_ends_the_reply_at_once(
        server: LLMServer, settings: Settings) -> None:
    server.add(hang())
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    began = time.monotonic()
    _, reply = timed(direct_llm(settings), should_stop=stop.is_set)
    assert reply.stopped and reply.text == ""
    assert time.monotonic() - began < 2


def test_a_stop_between_words_keeps_the_words_so_far(
        server: LLMServer, settings: Settings) -> None:
    server.add(text(" ".join(f"w{n}" for n in range(30)), pace=0.02))
    seen: list[str] = []
    for item in direct_llm(settings).stream(USER, should_stop=lambda: len(seen) >= 3):
        if isinstance(item, str):
            seen.append(item)
        else:
            reply = item
    assert reply.stopped and reply.text == "".join(seen) == "w0 w1 w2 "


def test_only_an_embedded_server_of_this_program_is_spoken_to_directly(
        server: LLMServer, settings: Settings) -> None:
    assert not direct.speaks_to(settings, None)
    assert not direct.speaks_to(settings, Servers())  # an owner without that server
    assert not isinstance(LLM(settings).backend, direct.Direct)
