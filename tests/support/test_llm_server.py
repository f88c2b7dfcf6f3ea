"""The scripted LLM server speaks both wire formats as the real servers do."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.support.llm_server import (
    EXHAUSTED,
    LLMServer,
    delay,
    error,
    load_script,
    text,
    tool_call,
)


def post(url: str, body: dict[str, Any]) -> tuple[int, str]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json", "X-Test": "yes"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as failure:
        return failure.code, failure.read().decode()


def sse_payloads(raw: str) -> list[Any]:
    lines = [line[len("data: ") :] for line in raw.split("\n\n") if line.startswith("data: ")]
    assert lines[-1] == "[DONE]"
    return [json.loads(line) for line in lines[:-1]]


def test_openai_stream_has_pieces_tool_deltas_and_usage() -> None:
    with LLMServer([tool_call("python", "print(1)", text="Let me run it.")]) as server:
        body = {"model": "m", "stream": True, "stream_options": {"include_usage": True}}
        status, raw = post(server.openai_url + "/chat/completions", body)
    assert status == 200
    events = sse_payloads(raw)
    contents = [e["choices"][0]["delta"].get("content") for e in events if e["choices"]]
    assert "".join(c for c in contents if c) == "Let me run it."
    deltas = [
        d for e in events if e["choices"] for d in e["choices"][0]["delta"].get("tool_calls", [])
    ]
    assert deltas[0]["function"]["name"] == "execute" and deltas[0]["id"]
    assert len(deltas) == 4
    arguments = json.loads("".join(d["function"]["arguments"] for d in deltas))
    assert arguments == {"language": "python", "code": "print(1)"}
    assert events[-2]["choices"][0]["finish_reason"] == "tool_calls"
    assert events[-1]["usage"]["total_tokens"] > 0


def test_whole_json_replies_and_the_exhausted_queue() -> None:
    with LLMServer([text("one")]) as server:
        _, first = post(server.openai_url + "/chat/completions", {"model": "m"})
        _, second = post(server.url + "/api/chat", {"model": "m", "stream": False})
    assert json.loads(first)["choices"][0]["message"]["content"] == "one"
    reply = json.loads(second)
    assert reply["message"]["content"] == EXHAUSTED and reply["done"] is True


def test_ollama_stream_is_ndjson_ending_with_done() -> None:
    with LLMServer([tool_call("shell", "ls", text="Listing files")]) as server:
        status, raw = post(server.url + "/api/chat", {"model": "llama3.2", "messages": []})
    lines = [json.loads(line) for line in raw.splitlines()]
    assert status == 200 and len(lines) == 4
    assert lines[2]["message"]["tool_calls"][0]["function"]["arguments"]["code"] == "ls"
    assert lines[-1]["done"] is True and lines[-1]["eval_count"] > 0


def test_errors_have_each_api_shape() -> None:
    with LLMServer([error(500, "boom"), error(404, "no model")]) as server:
        status, body = post(server.openai_url + "/chat/completions", {"stream": True})
        assert (status, json.loads(body)["error"]["message"]) == (500, "boom")
        status, body = post(server.url + "/api/chat", {})
        assert (status, json.loads(body)) == (404, {"error": "no model"})


def test_model_listing_and_show() -> None:
    with LLMServer(models=["tiny"], context_length=4096) as server:
        with urllib.request.urlopen(server.url + "/api/tags", timeout=5) as response:
            assert json.load(response)["models"][0]["name"] == "tiny"
        with urllib.request.urlopen(server.openai_url + "/models", timeout=5) as response:
            assert json.load(response)["data"][0]["id"] == "tiny"
        _, body = post(server.url + "/api/show", {"model": "tiny:latest"})
        assert json.loads(body)["model_info"]["llama.context_length"] == 4096
        assert post(server.url + "/api/show", {"model": "huge"})[0] == 404


def test_requests_are_recorded_with_headers() -> None:
    with LLMServer() as server:
        post(server.url + "/api/chat", {"model": "m", "stream": False})
    [request] = server.chat_requests
    assert (request.method, request.path, request.body["model"]) == ("POST", "/api/chat", "m")
    assert request.headers["x-test"] == "yes"


def test_delay_holds_back_the_first_byte() -> None:
    with LLMServer([delay(0.3, text("late"))]) as server:
        started = time.monotonic()
        post(server.openai_url + "/chat/completions", {"model": "m"})
        assert time.monotonic() - started >= 0.3
        assert server.pending == 0


def test_scenario_file_runs_from_the_command_line(tmp_path: Path) -> None:
    script = tmp_path / "scenario.json"
    replies = [{"text": "Hi"}, {"calls": [{"language": "shell", "code": "ls"}]}, {"status": 503}]
    script.write_text(json.dumps({"models": ["tiny"], "replies": replies}))
    steps, options = load_script(script)
    assert [s.status for s in steps] == [200, 200, 503] and steps[1].calls[0].code == "ls"
    assert options == {"models": ["tiny"]}
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.llm_server", "--script", str(script)],
        cwd=Path(__file__).parents[2],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split(" at ")[-1].strip()
        _, body = post(url + "/v1/chat/completions", {"model": "tiny"})
        assert json.loads(body)["choices"][0]["message"]["content"] == "Hi"
    finally:
        process.terminate()
        process.wait(timeout=5)


@pytest.mark.parametrize("path", ["/nowhere", "/v1/embeddings"])
def test_unknown_paths_are_404(path: str) -> None:
    with LLMServer() as server:
        assert post(server.url + path, {})[0] == 404
