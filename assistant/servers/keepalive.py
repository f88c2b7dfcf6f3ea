"""Inside the shared embedded server's process: the token check, the keep-alive clock and
the record that tells clients where the server is (the client side is servers/shared.py).

`python -m assistant.servers.keepalive --record FILE --keep_alive SECONDS LLAMA-ARGS` serves
llama-cpp-python's OpenAI-compatible app (with our chat template, servers/chatml.py) behind a
small ASGI layer of ours, in the same process:

- every request must carry `Authorization: Bearer TOKEN`; the token comes in the
  environment (`TOKEN_VARIABLE`, readable by this user alone, unlike the command line) and
  is also given to llama-cpp-python as its own `api_key`;
- the layer counts requests in flight and notes when the last one ended; a watchdog thread
  ends the server once none has been in flight for `--keep_alive` seconds (-1: never). The
  clock lives where the requests arrive, so nothing else (no proxy, no last-use file that
  clients must remember to touch) has to agree on it, and a client that dies mid-request
  cannot keep the server up forever: its connection closes and the request ends;
- once the socket is bound, the record (pid, port, model, start time) is written 0600 next
  to the token, and removed at a clean exit. A record left by a killed server is stale;
  clients check the pid and an answer with the token before trusting it.

`GET /assistant/status` (with the token) says what `assistant models status` shows, without
counting as use unless asked with `?keep_alive=SECONDS` (a client that found the server
and is about to send its first request: its keep-alive applies from then on, as the latest
request's does in Ollama).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qs

TOKEN_VARIABLE = "ASSISTANT_EMBEDDED_TOKEN"
STATUS_PATH = "/assistant/status"
# ?keep_alive=SECONDS: a status asked by a client about to send requests; counts as use
USE_QUERY = "keep_alive"
FOREVER = -1.0
TICK = 0.5  # seconds between the watchdog's looks at the clock

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class Clock:
    """Requests in flight and when the last one ended, for the keep-alive."""

    def __init__(self, keep_alive: float) -> None:
        self.keep_alive = keep_alive
        self.started = time.time()
        self.last = time.monotonic()
        self.last_wall = self.started
        self.busy = 0
        self._lock = threading.Lock()

    def touch(self, keep_alive: float | None = None) -> None:
        """Count now as the end of a request (the server is ready, or about to be used),
        and keep the server `keep_alive` seconds from now on, when given."""
        with self._lock:
            self.last, self.last_wall = time.monotonic(), time.time()
            if keep_alive is not None:
                self.keep_alive = keep_alive

    def begin(self) -> None:
        with self._lock:
            self.busy += 1

    def end(self) -> None:
        with self._lock:
            self.busy -= 1
            self.last, self.last_wall = time.monotonic(), time.time()

    def expired(self) -> bool:
        with self._lock:
            return (self.keep_alive >= 0 and not self.busy
                    and time.monotonic() - self.last >= self.keep_alive)

    def stops_at(self) -> float | None:
        """When (epoch seconds) the server will stop if nothing else comes; None: never,
        or not while a request is in flight."""
        if self.keep_alive < 0 or self.busy:
            return None
        return self.last_wall + self.keep_alive


def resident_bytes() -> int:
    """This process's resident memory (Linux's /proc; 0 elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Guard:
    """The ASGI layer in front of llama-cpp-python's app: token, clock, status."""

    def __init__(self, app: App, token: str, clock: Clock) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        offered = dict(scope.get("headers") or []).get(b"authorization", b"")
        if not secrets.compare_digest(offered, self.expected):
            await _json(send, 401, {"error": {"message": "Invalid API key"}})
            return
        if scope.get("path") == STATUS_PATH:
            asked = parse_qs(scope.get("query_string", b"").decode()).get(USE_QUERY)
            if asked:
                with contextlib.suppress(ValueError):
                    self.clock.touch(float(asked[0]))
            await _json(send, 200, self.status())
            return
        self.clock.begin()
        try:
            await self.app(scope, receive, send)
        finally:
            self.clock.end()

    def status(self) -> dict[str, Any]:
        return {"pid": os.getpid(), "started": self.clock.started,
                "last_request": self.clock.last_wall, "busy": self.clock.busy,
                "keep_alive": self.clock.keep_alive, "stops_at": self.clock.stops_at(),
                "rss_bytes": resident_bytes()}


async def _json(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path` 0600, whole or not at all."""
    fresh = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)
    os.replace(fresh, path)


def _watch(server: Any, clock: Clock, record: Path, facts: dict[str, Any]) -> None:
    """Write the record once the socket listens, then end the server when idle."""
    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.05)
    clock.touch()  # loading the model was not use
    write_private(record, json.dumps({**facts, "pid": os.getpid(), "started": clock.started,
                                      "keep_alive": clock.keep_alive}))
    while not server.should_exit:
        time.sleep(TICK)
        if clock.expired():
            server.should_exit = True


def _forget(record: Path) -> None:
    """Remove the record if it is still this process's."""
    try:
        if json.loads(record.read_text()).get("pid") == os.getpid():
            record.unlink()
    except (OSError, ValueError):
        pass


def main() -> None:
    import uvicorn
    from llama_cpp.server.app import create_app
    from llama_cpp.server.cli import add_args_from_model, parse_model_from_args
    from llama_cpp.server.settings import ModelSettings, ServerSettings, Settings

    from assistant.servers import chatml

    ours = argparse.ArgumentParser(prog="python -m assistant.servers.keepalive")
    ours.add_argument("--record", type=Path, required=True)
    ours.add_argument("--keep_alive", type=float, required=True)
    options, rest = ours.parse_known_args()
    theirs = argparse.ArgumentParser(prog="llama_cpp.server")
    add_args_from_model(theirs, Settings)
    args = theirs.parse_args(rest)
    # parse_model_from_args returns an instance; its annotation says the class
    server_settings = cast(ServerSettings, parse_model_from_args(ServerSettings, args))
    model_settings = cast(ModelSettings, parse_model_from_args(ModelSettings, args))
    token = os.environ.pop(TOKEN_VARIABLE, "")
    if not token:
        raise SystemExit(f"{TOKEN_VARIABLE} is not set: the server would be open to anyone")
    server_settings.api_key = token
    server_settings.interrupt_requests = False  # a second client waits; it never cuts a reply
    chatml.register()
    clock = Clock(options.keep_alive)
    app = Guard(create_app(server_settings=server_settings, model_settings=[model_settings]),
                token, clock)
    server = uvicorn.Server(uvicorn.Config(app, host=server_settings.host,
                                           port=server_settings.port, log_level="warning"))
    facts = {"port": server_settings.port, "model": model_settings.model_alias,
             "path": model_settings.model, "n_ctx": model_settings.n_ctx}
    threading.Thread(target=_watch, args=(server, clock, options.record, facts),
                     daemon=True).start()
    try:
        server.run()
    finally:
        _forget(options.record)


if __name__ == "__main__":
    main()
