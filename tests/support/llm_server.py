"""A scripted LLM server on 127.0.0.1 that speaks the OpenAI and Ollama chat APIs.

Tests reach it through the real litellm client, so what is tested is what runs.
Each chat request (either API) consumes the next scripted reply from one shared queue::

    from tests.support.llm_server import LLMServer, text, tool_call, error

    with LLMServer([text("Hello there"), tool_call("python", "print(1)")]) as server:
        server.openai_url      # http://127.0.0.1:PORT/v1  (for openai/... models)
        server.url             # http://127.0.0.1:PORT     (for ollama_chat/... models)
        server.add(error(500, "boom"))
        server.requests        # every Request(method, path, body, headers) received
        server.chat_requests   # only the chat completions
        server.reset()         # no script, no requests: for a server a module's tests share

Replies (all return a `Step`; a Step is plain data, also writable as JSON):
    text("Hi there")                         streamed as several pieces, one per word
    text("Hi", pace=0.05)                    ... with a pause between pieces
    tool_call("python", "print(1)", text="Let me check.")   arguments in several deltas
    tool_calls(("python", "print(1)"), ("shell", "ls"))      two calls in one reply
    raw_tool_call('print(1)')                arguments sent verbatim (not JSON here)
    fenced("shell", "ls")                    text holding a ```shell block
    error(500, "boom")                       HTTP error with a provider-shaped body
    malformed()                              a stream whose second data line is not JSON
    delay(2.0, text("late"))                 wait before the first byte
    hang()                                   accept, then never answer until the server stops

When the queue is empty every chat request gets the text "(scenario exhausted)".
Also served: GET /v1/models, GET /api/tags, POST /api/show (model_info carries
"llama.context_length"; unknown models get 404 like Ollama), and llama-cpp-python's
POST /extras/tokenize/count (a token a word). With `status` set (a dict), GET
/assistant/status answers it, as servers/keepalive.py does for the shared embedded server: the
scripted server then stands in for that one when a runtime folder's record names its port.

Run by hand: `python -m tests.support.llm_server --script FILE.json [--port N]`.
FILE.json is a list of steps, or {"models": [...], "context_length": N, "replies": [...]};
a step is an object with Step's fields, e.g. {"text": "Hi"},
{"text": "Listing.", "calls": [{"language": "shell", "code": "ls"}]}, {"status": 500}.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from assistant.servers.keepalive import STATUS_PATH

EXHAUSTED = "(scenario exhausted)"
_call_ids = itertools.count(1)


@dataclass(frozen=True)
class Call:
    """One tool call; `arguments` (raw text) overrides the JSON made from language and code."""

    language: str = "python"
    code: str = ""
    name: str = "execute"
    arguments: str | None = None

    def arguments_text(self) -> str:
        if self.arguments is not None:
            return self.arguments
        return json.dumps({"language": self.language, "code": self.code})


@dataclass(frozen=True)
class Step:
    """One scripted reply to one chat request."""

    text: str = ""
    calls: tuple[Call, ...] = ()
    status: int = 200
    message: str = ""
    malformed: bool = False
    delay: float = 0.0
    pace: float = 0.0
    hang: bool = False

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        calls = tuple(Call(**call) for call in data.get("calls", ()))
        return cls(**{**data, "calls": calls})


@dataclass(frozen=True)
class Request:
    """A request as received; header names are lower-cased."""

    method: str
    path: str
    body: Any
    headers: dict[str, str]


def text(content: str, *, pace: float = 0.0) -> Step:
    return Step(text=content, pace=pace)


def tool_call(language: str, code: str, *, text: str = "") -> Step:
    return Step(text=text, calls=(Call(language, code),))


def tool_calls(*calls: tuple[str, str] | Call, text: str = "") -> Step:
    made = tuple(c if isinstance(c, Call) else Call(*c) for c in calls)
    return Step(text=text, calls=made)


def raw_tool_call(arguments: str, *, name: str = "execute") -> Step:
    return Step(calls=(Call(name=name, arguments=arguments),))


def fenced(language: str, code: str, *, before: str = "Here is the code:", after: str = "") -> Step:
    body = f"{before}\n\n```{language}\n{code}\n```\n"
    return Step(text=body + (f"\n{after}" if after else ""))


def error(status: int, message: str = "") -> Step:
    return Step(status=status, message=message or f"scripted error {status}")


def malformed() -> Step:
    return Step(text="This stream breaks", malformed=True)


def delay(seconds: float, step: Step) -> Step:
    return dataclasses.replace(step, delay=seconds)


def hang() -> Step:
    return Step(hang=True)


def pieces(content: str) -> list[str]:
    """Split text into word-sized pieces, so clients see several deltas."""
    return re.findall(r"\s*\S+\s*", content) or ([content] if content else [])


def split_in(content: str, parts: int) -> list[str]:
    size = max(1, -(-len(content) // parts))
    return [content[i : i + size] for i in range(0, len(content), size)] or [""]


def closed_port_url() -> str:
    """A base URL on which nothing listens, for connection-refused tests."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


class LLMServer:
    """The server; a context manager that starts on a free port and stops on exit."""

    def __init__(
        self,
        script: Iterable[Step] = (),
        *,
        models: Iterable[str] = ("llama3.2", "test-model"),
        context_length: int = 8192,
        port: int = 0,
    ) -> None:
        self.models = list(models)
        self.context_length = context_length
        self.status: dict[str, Any] | None = None
        self.requests: list[Request] = []
        self.finished: list[float] = []  # time.monotonic() when each streamed reply was sent
        self._queue: deque[Step] = deque(script)
        self._lock = threading.Lock()
        self.stopping = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.owner = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def openai_url(self) -> str:
        return self.url + "/v1"

    @property
    def chat_requests(self) -> list[Request]:
        return [r for r in self.requests if r.path.endswith(("/chat/completions", "/api/chat"))]

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    def add(self, *steps: Step) -> None:
        with self._lock:
            self._queue.extend(steps)

    def next_step(self) -> Step:
        with self._lock:
            return self._queue.popleft() if self._queue else Step(text=EXHAUSTED)

    def reset(self) -> None:
        """No script left and nothing received: a server that outlives one test starts the
        next one as new."""
        with self._lock:
            self._queue.clear()
            self.requests.clear()
            self.finished.clear()

    def record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)

    def start(self) -> LLMServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> LLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests assert on `requests`, not on a log."""

    @property
    def owner(self) -> LLMServer:
        return self.server.owner  # type: ignore[attr-defined]

    def do_GET(self) -> None:
        self._receive(None)
        models = self.owner.models
        if self.path.rstrip("/") in ("/v1/models", "/models"):
            data = [{"id": m, "object": "model", "owned_by": "scripted"} for m in models]
            self._json(200, {"object": "list", "data": data})
        elif self.path == "/api/tags":
            self._json(200, {"models": [{"name": m, "model": m, "size": 0} for m in models]})
        elif self.path.partition("?")[0] == STATUS_PATH and self.owner.status is not None:
            self._json(200, self.owner.status)
        else:
            self._json(404, {"error": f"no such path {self.path}"})

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = raw.decode("utf-8", "replace")
        self._receive(body)
        body = body if isinstance(body, dict) else {}
        if self.path in ("/v1/chat/completions", "/chat/completions"):
            self._chat(body, openai=True)
        elif self.path == "/api/chat":
            self._chat(body, openai=False)
        elif self.path == "/api/show":
            self._show(str(body.get("model") or body.get("name") or ""))
        elif self.path == "/extras/tokenize/count":
            self._json(200, {"count": len(pieces(str(body.get("input", ""))))})
        else:
            self._json(404, {"error": f"no such path {self.path}"})

    def _receive(self, body: Any) -> None:
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.owner.record(Request(self.command, self.path, body, headers))

    def _show(self, name: str) -> None:
        if name.removesuffix(":latest") not in self.owner.models:
            self._json(404, {"error": f"model '{name}' not found"})
            return
        info = {"general.architecture": "llama", "llama.context_length": self.owner.context_length}
        details = {"family": "llama", "format": "gguf", "parameter_size": "1B"}
        payload = {"template": "{{ .Prompt }}", "details": details, "model_info": info}
        self._json(200, {**payload, "capabilities": ["completion"]})

    def _chat(self, body: dict[str, Any], *, openai: bool) -> None:
        step = self.owner.next_step()
        if step.hang:
            self.owner.stopping.wait()
            return
        if step.delay and self.owner.stopping.wait(step.delay):
            return
        if step.status != 200:
            kind = "invalid_request_error" if step.status < 500 else "server_error"
            err = {"message": step.message, "type": kind, "code": step.status}
            self._json(step.status, {"error": err} if openai else {"error": step.message})
        elif openai and body.get("stream"):
            self._stream("text/event-stream", _openai_stream(step, body), step.pace)
        elif openai:
            self._json(200, _openai_json(step, body))
        elif body.get("stream", True):
            self._stream("application/x-ndjson", _ollama_stream(step, body), step.pace)
        else:
            self._json(200, json.loads(_ollama_line(body, _ollama_message(step, step.text), step)))

    def _json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _stream(self, content_type: str, lines: Iterator[str], pace: float) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.end_headers()
        try:
            for line in lines:
                self.wfile.write(line.encode())
                self.wfile.flush()
                if pace and self.owner.stopping.wait(pace):
                    return
        except (BrokenPipeError, ConnectionResetError):
            return
        self.owner.finished.append(time.monotonic())


def _usage(step: Step, body: dict[str, Any]) -> dict[str, int]:
    """Rough counts, so clients that report usage have something to report."""
    prompt = len(json.dumps(body.get("messages", []))) // 4
    completion = len(pieces(step.text)) + sum(len(c.arguments_text()) // 4 for c in step.calls)
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def _openai_call(call: Call, arguments: str | None = None) -> dict[str, Any]:
    function = {
        "name": call.name,
        "arguments": call.arguments_text() if arguments is None else arguments,
    }
    return {"id": f"call_{next(_call_ids)}", "type": "function", "function": function}


def _openai_stream(step: Step, body: dict[str, Any]) -> Iterator[str]:
    head = {
        "id": "chatcmpl-scripted",
        "object": "chat.completion.chunk",
        "model": body.get("model"),
    }

    def event(delta: dict[str, Any], finish: str | None = None) -> str:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return f"data: {json.dumps({**head, 'created': int(time.time()), 'choices': [choice]})}\n\n"

    yield event({"role": "assistant", "content": ""})
    for number, piece in enumerate(pieces(step.text)):
        if step.malformed and number == 1:
            yield 'data: {"choices": [{"delta": {"content": "broken\n\n'
            return
        yield event({"content": piece})
    for index, call in enumerate(step.calls):
        yield event({"tool_calls": [{"index": index, **_openai_call(call, "")}]})
        for part in split_in(call.arguments_text(), 3):
            yield event({"tool_calls": [{"index": index, "function": {"arguments": part}}]})
    yield event({}, "tool_calls" if step.calls else "stop")
    if (body.get("stream_options") or {}).get("include_usage"):
        yield f"data: {json.dumps({**head, 'choices': [], 'usage': _usage(step, body)})}\n\n"
    yield "data: [DONE]\n\n"


def _openai_json(step: Step, body: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": step.text or None}
    if step.calls:
        message["tool_calls"] = [_openai_call(call) for call in step.calls]
    finish = "tool_calls" if step.calls else "stop"
    choice = {"index": 0, "message": message, "finish_reason": finish}
    head = {"id": "chatcmpl-scripted", "object": "chat.completion", "created": int(time.time())}
    return {**head, "model": body.get("model"), "choices": [choice], "usage": _usage(step, body)}


def _ollama_message(step: Step, content: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if step.calls:
        message["tool_calls"] = []
        for call in step.calls:
            try:
                arguments: Any = json.loads(call.arguments_text())
            except ValueError:
                arguments = call.arguments_text()
            message["tool_calls"].append({"function": {"name": call.name, "arguments": arguments}})
    return message


def _ollama_line(body: dict[str, Any], message: dict[str, Any], end: Step | None = None) -> str:
    """One NDJSON line; the last one (`end` given) is done and carries the counts."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    line = {"model": body.get("model"), "created_at": stamp, "message": message, "done": False}
    if end is not None:
        usage = _usage(end, body)
        line.update(done=True, done_reason="stop", prompt_eval_count=usage["prompt_tokens"])
        line["eval_count"] = usage["completion_tokens"]
    return json.dumps(line) + "\n"


def _ollama_stream(step: Step, body: dict[str, Any]) -> Iterator[str]:
    for number, piece in enumerate(pieces(step.text)):
        if step.malformed and number == 1:
            yield '{"message": {"content": "broken\n'
            return
        yield _ollama_line(body, {"role": "assistant", "content": piece})
    if step.calls:
        yield _ollama_line(body, _ollama_message(step, ""))
    yield _ollama_line(body, {"role": "assistant", "content": ""}, end=step)


def load_script(path: Path) -> tuple[list[Step], dict[str, Any]]:
    """Read a JSON scenario: the steps, and the server options it sets."""
    data = json.loads(path.read_text())
    if isinstance(data, list):
        data = {"replies": data}
    options = {k: data[k] for k in ("models", "context_length") if k in data}
    return [Step.from_dict(step) for step in data.get("replies", [])], options


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve a scripted LLM scenario on 127.0.0.1.")
    parser.add_argument("--script", type=Path, required=True, help="JSON scenario file")
    parser.add_argument("--port", type=int, default=0, help="port (default: any free one)")
    args = parser.parse_args(argv)
    steps, options = load_script(args.script)
    with LLMServer(steps, port=args.port, **options) as server:
        print(f"Serving {len(steps)} scripted replies at {server.url}", flush=True)
        print(f"  openai/<model> with --api-base {server.openai_url}", flush=True)
        print(f"  ollama_chat/<model> with --api-base {server.url}", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
