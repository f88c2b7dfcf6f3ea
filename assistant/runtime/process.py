"""One live interpreter in its own process group, and the threads that listen to it.

Output is read as bytes by one thread per stream, decoded incrementally and put
on a queue together with the process's exit, so a run can wait on a single
queue with a timeout instead of polling. A bounded number of output items may
be in flight: a program that floods its output is slowed down instead of
filling memory.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import queue
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from typing import IO, Any

from assistant.events import Stream
from assistant.runtime.marker import MarkerScanner
from assistant.runtime.sandbox import Sandbox
from assistant.runtime.spec import Language
from assistant.runtime.watchdog import guard

_READ_SIZE = 65536
_IN_FLIGHT = 32

Item = tuple[str, Any]
"""("stdout"|"stderr", text), ("eof", stream), ("exit", exit status) or ("wake", None)."""


class RuntimeProcess:
    """A started runtime: its process group, control pipe, output threads and queue."""

    def __init__(
        self,
        language: Language,
        executable: str,
        cwd: str | None,
        env: dict[str, str] | None,
        sandbox: Sandbox | None = None,
    ) -> None:
        self.language = language
        self._sandbox = sandbox
        self._interpreter: int | None = None
        self._scratch = tempfile.mkdtemp(prefix="assistant-run-") if language.code_in_file else ""
        read_end, self._control = os.pipe()
        try:
            argv = language.argv(executable, read_end)
            if sandbox is not None:
                readable = (self._scratch,) if self._scratch else ()
                folder = os.path.abspath(cwd or os.getcwd())
                shared_env = os.environ if env is None else env
                argv = sandbox.command(argv, folder, readable, env=shared_env)
            self._popen = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(read_end,),
                cwd=cwd,
                env=env,
                start_new_session=True,
            )
        except BaseException:
            os.close(self._control)
            if self._scratch:
                shutil.rmtree(self._scratch, ignore_errors=True)
            raise
        finally:
            os.close(read_end)
        os.set_blocking(self._control, False)
        self.pid = self._popen.pid
        self._guard = guard(self.pid)
        assert self._popen.stdin is not None  # stdin=PIPE
        self._stdin = self._popen.stdin
        self.stdin_fd = self._stdin.fileno()
        # Per stream: the end-marker scanner, and whether it has reached end of file.
        self.scanners: dict[Stream, MarkerScanner] = {
            "stdout": MarkerScanner(),
            "stderr": MarkerScanner(),
        }
        self.eof: set[Stream] = set()
        self.exit_status: int | None = None
        self.state_lost_reported = False
        self._runs = 0
        self._closed = False
        self._queue: queue.SimpleQueue[Item] = queue.SimpleQueue()
        self._slots = threading.Semaphore(_IN_FLIGHT)
        for stream, pipe in (("stdout", self._popen.stdout), ("stderr", self._popen.stderr)):
            threading.Thread(target=self._read, args=(stream, pipe), daemon=True).start()
        threading.Thread(target=self._wait, daemon=True).start()

    @property
    def alive(self) -> bool:
        return self.exit_status is None and not self._closed

    @property
    def interpreter_pid(self) -> int:
        """The interpreter itself: the group leader, or inside a sandbox bwrap's grandchild."""
        if self._interpreter is None:
            found = self._sandbox.interpreter_pid(self.pid) if self._sandbox else None
            self._interpreter = found or self.pid
        return self._interpreter

    def send(self, token: str, code: str, deadline: float,
             extra: Mapping[str, Any] | None = None) -> None:
        """Hand one run to the driver; gives up silently at `deadline` (the run then times out).
        `extra` goes with the request to drivers that read JSON (a what-if plan)."""
        self._runs += 1
        for scanner in self.scanners.values():
            scanner.start(token)
        if self.language.code_in_file:
            path = os.path.join(self._scratch, f"run-{self._runs}.sh")
            with open(path, "w", encoding="utf-8") as file:
                file.write(code)
            request = f"{token} {path}\n".encode()
        else:
            request = (json.dumps({**(extra or {}), "token": token, "code": code}) + "\n").encode()
        view = memoryview(request)
        while view:
            try:
                view = view[os.write(self._control, view) :]
            except BlockingIOError:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not select.select([], [self._control], [], remaining)[1]:
                    return
            except OSError:
                return

    def finish_run(self) -> None:
        """Drop the code file of the run that just ended."""
        if self._scratch:
            with contextlib.suppress(OSError):
                os.remove(os.path.join(self._scratch, f"run-{self._runs}.sh"))

    def get(self, timeout: float) -> Item | None:
        """The next item from the output threads, or None after `timeout` seconds."""
        try:
            item = self._queue.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None
        if item[0] in self.scanners:
            self._slots.release()
        return item

    def wake(self) -> None:
        """Make a pending get() return now; safe from a signal handler (SimpleQueue.put is)."""
        self._queue.put(("wake", None))

    def signal(self, signum: int) -> None:
        """Send a signal to the whole process group (children included)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signum)

    def close(self) -> None:
        """Kill the process group and release pipes and files; safe to call more than once."""
        self._closed = True
        self.signal(signal.SIGKILL)
        with contextlib.suppress(OSError):
            self._stdin.close()
        with contextlib.suppress(OSError):
            os.close(self._control)
        if self._scratch:
            shutil.rmtree(self._scratch, ignore_errors=True)
        self._guard.kill()
        self._guard.wait()

    def _read(self, stream: Stream, pipe: IO[bytes]) -> None:
        fd = pipe.fileno()
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        while True:
            try:
                data = os.read(fd, _READ_SIZE)
            except OSError:
                data = b""
            text = decoder.decode(data, final=not data)
            if text:
                self._deliver((stream, text))
            if not data:
                break
        pipe.close()
        self._queue.put(("eof", stream))

    def _deliver(self, item: Item) -> None:
        while not self._closed:
            if self._slots.acquire(timeout=0.5):
                self._queue.put(item)
                return

    def _wait(self) -> None:
        returncode = self._popen.wait()
        self.exit_status = 128 - returncode if returncode < 0 else returncode
        self._queue.put(("exit", self.exit_status))
