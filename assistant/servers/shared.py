"""One embedded server per user, shared by every program of the user's: the terminal,
one-shot commands, the Python API, `serve` and the daemon. The model loads once and its
KV cache (the system prompt above all) stays between commands, as Ollama's keep_alive does.

Design, the simplest that survives crashes:
- The server is llama-cpp-python's, wrapped by servers/keepalive.py in its own process and
  session (so no client's exit or Ctrl-C reaches it). That wrapper keeps the keep-alive
  clock itself, where the requests arrive, and stops after `embedded_keep_alive` seconds
  without one (-1: never; 0 means no sharing at all: a private server per program, stopped
  when it exits, as servers/embedded.py has always run it).
- It listens on a free loopback port and writes a record (pid, port, model) 0600 in the
  runtime folder: `$XDG_RUNTIME_DIR/assistant`, else a 0700 folder in the user's cache.
  Other users cannot read the folder, and the server answers no request without the
  user's token (a random key in a 0600 file beside the record, sent as the OpenAI API key),
  so the port is of no use to them.
- A client trusts a record only when that pid is alive and answers with the token; a stale
  record (a killed server) is replaced, with one line saying so. Starting is done under a
  lock file, so two programs starting at once get one server.
- A program that runs for long (the daemon, the terminal, `serve`) asks `ensure` before each
  request (through its Servers, servers/started.py): a server stopped by its keep-alive or
  by a crash is started again on the same port when it is free (its token does not
  change), else on a new one.
- Two clients at once queue: llama-cpp-python serves one request at a time (with requests
  not interrupting each other), and every request carries its whole conversation, so
  neither sees the other's; the cached prefix only saves reading the common beginning.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.config import APP, ENV_PREFIX, Settings
from assistant.servers import embedded, keepalive
from assistant.servers.reach import accepts_connections

FOLDER_VARIABLE = ENV_PREFIX + "RUNTIME_DIR"  # another runtime folder (tests, benchmarks)
TOKEN_FILE = "embedded-token"
STOP_WAIT = 10.0  # seconds a server gets to end after SIGTERM


def folder() -> Path:
    """The user's runtime folder for the shared server, made 0700; EmbeddedError when it
    belongs to someone else."""
    if os.environ.get(FOLDER_VARIABLE):
        path = Path(os.environ[FOLDER_VARIABLE])
    elif os.environ.get("XDG_RUNTIME_DIR"):
        path = Path(os.environ["XDG_RUNTIME_DIR"]) / APP
    else:
        import platformdirs

        path = Path(platformdirs.user_cache_dir(APP, appauthor=False)) / "run"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = path.stat()
    if info.st_uid != os.getuid():
        raise embedded.EmbeddedError(f"{path} belongs to another user: set {FOLDER_VARIABLE} "
                                     "to a folder of yours")
    if info.st_mode & 0o077:
        path.chmod(0o700)
    return path


def token() -> str:
    """The user's token for the shared server, made on first use."""
    path = folder() / TOKEN_FILE
    with contextlib.suppress(FileNotFoundError):
        found = path.read_text().strip()
        if found:
            return found
    made = secrets.token_urlsafe(32)
    keepalive.write_private(path, made + "\n")
    return made


def record_path(name: str) -> Path:
    """The record of the server of the model `name`."""
    return folder() / f"embedded-{re.sub(r'[^A-Za-z0-9_.-]', '_', name)}.json"


@dataclass(frozen=True)
class Running:
    """What a server wrote about itself when it began to listen."""

    record: Path
    pid: int
    port: int
    model: str
    path: str
    n_ctx: int
    keep_alive: float
    started: float

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_url(self) -> str:
        return f"{self.url}/v1"


def read(record: Path) -> Running | None:
    """The record at `record`, None when there is none (or it cannot be read)."""
    try:
        data = json.loads(record.read_text())
        return Running(record, int(data["pid"]), int(data["port"]), str(data["model"]),
                       str(data["path"]), int(data["n_ctx"]), float(data["keep_alive"]),
                       float(data["started"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def records() -> list[Running]:
    """Every record in the runtime folder, live or stale."""
    found = (read(path) for path in sorted(folder().glob("embedded-*.json")))
    return [running for running in found if running is not None]


def status(running: Running, timeout: float = 3.0, use: float | None = None
           ) -> dict[str, Any] | None:
    """What the server says of itself (keepalive.Guard.status), or None when the record is
    stale: its pid is gone, or nothing there answers with the token as that pid. `use`
    (a keep-alive, in seconds) makes the question count as a request, from a program
    about to send some: the keep-alive starts again, and the latest program's applies."""
    if not alive(running.pid):
        return None
    query = "" if use is None else f"?{keepalive.USE_QUERY}={use:g}"
    request = urllib.request.Request(f"{running.url}{keepalive.STATUS_PATH}{query}",
                                     headers={"Authorization": f"Bearer {token()}"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            said = json.loads(response.read())
    except (OSError, ValueError):
        return None
    return said if isinstance(said, dict) and said.get("pid") == running.pid else None


def stop(running: Running) -> bool:
    """Stop the server of this record (a stale one is only forgotten); whether one ran."""
    live = status(running) is not None
    if live or _ours(running):
        with contextlib.suppress(ProcessLookupError):
            os.kill(running.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_WAIT
        while alive(running.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if alive(running.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(running.pid, signal.SIGKILL)
    running.record.unlink(missing_ok=True)
    return live


def alive(pid: int) -> bool:
    """Whether `pid` is a process that has not ended (a zombie has)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    return state not in ("Z", "X")


def _ours(running: Running) -> bool:
    """Whether `running.pid` is still the server that wrote this record (not a pid reused
    by another program), by its command line."""
    try:
        command = Path(f"/proc/{running.pid}/cmdline").read_bytes()
    except OSError:
        return False
    return keepalive.__name__.encode() in command and str(running.record).encode() in command


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    """The user's start lock: one program at a time checks and starts servers."""
    descriptor = os.open(folder() / "embedded.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


class Shared:
    """This program's use of the shared server of one model."""

    def __init__(self, model: embedded.Model, keep_alive: float,
                 tell: Callable[[str], None], ready_timeout: float = 60.0) -> None:
        self.model = model
        self.keep_alive = keep_alive
        self.tell = tell
        self.ready_timeout = ready_timeout
        self.record = record_path(model.name)
        self.running: Running | None = None
        self._lock = threading.Lock()

    def connect(self) -> Running:
        """The live server, found or started; EmbeddedError when it cannot start."""
        with self._lock, _locked():
            running = read(self.record)
            if running is not None and status(running, use=self.keep_alive) is not None:
                if running.path == str(self.model.path) and running.n_ctx == self.model.n_ctx:
                    self.running = running
                    return running
                self.tell(f"the embedded model's server (pid {running.pid}) runs other "
                          f"weights ({running.path}); starting {self.model.name} instead")
                stop(running)
            elif running is not None:
                self.tell(f"the embedded model's server (pid {running.pid}) has stopped "
                          "unexpectedly; starting it again")
                stop(running)
            else:
                self.tell(self.model.notice)
            port = running.port if running is not None else (
                self.running.port if self.running is not None else 0)
            self.running = self._start(port)
            return self.running

    def ensure(self) -> str:
        """The server's OpenAI URL, after starting it again if it has stopped."""
        running = self.running
        if running is not None and accepts_connections(running.url, 1.0):
            return running.openai_url
        return self.connect().openai_url

    def settings_for(self, settings: Settings) -> Settings:
        running = self.running or self.connect()
        return embedded.settings_for(self.model, running.openai_url, settings).replace(
            api_key=token())

    def _start(self, port: int) -> Running:
        """Start a server (on `port` when it is free, else on any) and wait for its record."""
        try:
            return self._launch(port or embedded.free_port())
        except embedded.EmbeddedError:
            if not port:
                raise
            return self._launch(embedded.free_port())  # the old port was taken meanwhile

    def _launch(self, port: int) -> Running:
        if self.model.path is None:
            raise embedded.EmbeddedError(f"the embedded model {self.model.name} is not "
                                         f"installed: run {self.model.install}")
        lacking = embedded.server_missing()
        if lacking:
            raise embedded.EmbeddedError(f"the embedded model cannot start: {'; '.join(lacking)}")
        self.record.unlink(missing_ok=True)
        server = embedded.EmbeddedServer(self.model)
        server.port = port
        log = self.record.with_suffix(".log")
        command = [sys.executable, "-m", keepalive.__name__, "--record", str(self.record),
                   "--keep_alive", str(self.keep_alive), *server.options()]
        with log.open("wb") as out:
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                cwd=self.record.parent, start_new_session=True,
                env={**embedded.environment(), keepalive.TOKEN_VARIABLE: token()})
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise embedded.EmbeddedError(
                    f"the embedded model exited at start: {embedded.last_line(log)}")
            running = read(self.record)
            if (running is not None and running.pid == process.pid
                    and status(running, use=self.keep_alive)):
                return running
            time.sleep(0.1)
        process.kill()
        raise embedded.EmbeddedError(
            f"the embedded model did not start within {self.ready_timeout:g} s")

