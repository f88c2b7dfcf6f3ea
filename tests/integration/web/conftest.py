"""`assistant serve` as a real process on a free port, reached by real HTTP requests."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.integration.conftest import MODEL, ROOT
from tests.support.browser import chromium, missing
from tests.support.environ import isolate
from tests.support.llm_server import LLMServer
from tests.support.require import require

PREFIX = "assistant serve: open "


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Served:
    """A running `assistant serve`; requests carry the token unless told otherwise."""

    process: subprocess.Popen[str]
    url: str  # the line it printed, token included
    stderr: Path
    data: Path
    base: str = field(init=False)
    token: str = field(init=False)
    port: int = field(init=False)

    def __post_init__(self) -> None:
        parts = urlsplit(self.url)
        self.base = f"{parts.scheme}://{parts.netloc}"
        self.token = parts.query.removeprefix("token=")
        self.port = parts.port or 0

    def request(self, method: str, path: str, body: Any = None, *, token: str | None = None,
                headers: dict[str, str] | None = None) -> Reply:
        """One HTTP request; token="" sends none, headers may replace Host or add Origin."""
        sent = {"Host": f"127.0.0.1:{self.port}"}
        token = self.token if token is None else token
        if token:
            sent["Authorization"] = f"Bearer {token}"
        if body is not None:
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            payload = b"" if body is None else json.dumps(body).encode()
            for name, value in sent.items():
                connection.putheader(name, value)
            if payload or method == "POST":
                connection.putheader("Content-Length", str(len(payload)))
            connection.endheaders(payload)
            response = connection.getresponse()
            return Reply(response.status, {k.lower(): v for k, v in response.getheaders()},
                         response.read())
        finally:
            connection.close()

    def events(self, turn_id: str, *, until: str = "turn_end", count: int = 1,
               timeout: float = 60) -> list[dict[str, Any]]:
        """The turn's events from its stream, up to the `count`-th of kind `until`."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        connection.request("GET", f"/api/turns/{turn_id}/events",
                           headers={"Host": f"127.0.0.1:{self.port}",
                                    "Authorization": f"Bearer {self.token}"})
        response = connection.getresponse()
        assert response.status == 200, response.read()
        found: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                line = response.readline().decode()
                if not line:
                    break
                if line.startswith("data: "):
                    found.append(json.loads(line[6:]))
                    if found[-1]["kind"] == until:
                        count -= 1
                        if not count:
                            return found
        finally:
            connection.close()
        raise AssertionError(f"no {until} in the stream: {[e['kind'] for e in found]}")

    def start_turn(self, text: str, conversation_id: str = "") -> str:
        reply = self.request("POST", "/api/turns", {"text": text,
                                                    "conversation_id": conversation_id})
        assert reply.status == 202, reply.body
        return str(reply.json()["turn_id"])

    def log(self) -> str:
        return self.stderr.read_text()


def serve(llm: LLMServer | None, tmp: Path, *extra: str, env: dict[str, str] | None = None,
          timeout: float = 60) -> Served:
    """Start `assistant serve --port 0` against the scripted LLM (no model named for None);
    waits for its URL line."""
    stderr = tmp / f"serve-{time.monotonic_ns()}.err"
    child_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    model = [] if llm is None else ["--model", MODEL, "--api-base", llm.openai_url,
                                    "--api-key", "test-key", "--code-style", "tools"]
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant.cli", "serve", "--port", "0", *model, *extra],
        stdout=subprocess.PIPE, stderr=stderr.open("w"), text=True, env=child_env, cwd=ROOT,
        start_new_session=True)
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    line = ""
    while time.monotonic() < deadline and not line:
        line = process.stdout.readline()
        if process.poll() is not None and not line:
            break
    if not line.startswith(PREFIX):
        process.kill()
        raise AssertionError(f"no URL line (got {line!r}): {stderr.read_text()[-2000:]}")
    return Served(process, line.strip().removeprefix(PREFIX), stderr,
                  Path(os.environ["ASSISTANT_DATA_DIR"]))


def stop(served: Served) -> int:
    """SIGTERM, as a service manager stops it; returns the exit status."""
    served.process.terminate()
    try:
        return served.process.wait(20)
    except subprocess.TimeoutExpired:
        served.process.kill()
        raise AssertionError("assistant serve did not stop on SIGTERM") from None


@pytest.fixture
def served(server: LLMServer, tmp_path: Path) -> Iterator[Served]:
    running = serve(server, tmp_path)
    yield running
    assert stop(running) == 0, running.log()


class Shared:
    """One `assistant serve` and its scripted LLM for the tests of a module that need no
    server of their own: each start costs seconds of CPU (its warm-up imports litellm, and
    its exit waits for that). It runs in folders of its own, never a test's, and with no
    limit on LLM calls: many tests' turns come within a minute, and the limit has a test
    with a server of its own."""

    def __init__(self, llm: LLMServer, folders: pytest.TempPathFactory) -> None:
        self.llm = llm
        self._folders = folders
        self.served = self._start()

    def _start(self) -> Served:
        with pytest.MonkeyPatch.context() as patch:
            folder = self._folders.mktemp("shared-serve")
            isolate(folder, patch)
            patch.setenv("ASSISTANT_SERVE_LLM_CALLS_PER_MINUTE", "0")
            return serve(self.llm, folder)

    def idle(self, timeout: float = 10) -> bool:
        """Whether no turn is live, waiting `timeout` seconds for the last to end."""
        deadline = time.monotonic() + timeout
        while self.served.request("GET", "/api/turns").json():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def after_test(self) -> None:
        """A test that left a turn live leaves the next a new server; one that ended the
        server fails."""
        if self.served.process.poll() is not None:
            pytest.fail(f"the shared assistant serve ended: {self.served.log()[-2000:]}")
        if not self.idle():
            self.end()
            self.served = self._start()

    def end(self) -> None:
        assert stop(self.served) == 0, self.served.log()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shared]:
    with LLMServer() as llm:
        running = Shared(llm, tmp_path_factory)
        yield running
        running.end()


@pytest.fixture
def shared_server(shared: Shared) -> LLMServer:
    """The module's scripted LLM, with no script left and nothing received."""
    shared.llm.reset()
    return shared.llm


@pytest.fixture
def shared_served(shared: Shared, shared_server: LLMServer) -> Iterator[Served]:
    """The module's `assistant serve`, on `shared_server`, with no turn live."""
    yield shared.served
    shared.after_test()


@pytest.fixture
def browser() -> Iterator[Any]:
    """Headless Chromium for a test of the page (skipped, or failed under CI, without it)."""
    require(not missing(), missing())
    with chromium() as driver:
        yield driver
