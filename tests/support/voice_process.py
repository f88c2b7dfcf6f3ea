"""`assistant voice` run as a real process by the tests: its stderr read as it comes (the
states it prints, such as [listening]), and ended with Ctrl-C as a user ends it."""

from __future__ import annotations

import signal
import subprocess
import threading
import time


class VoiceProcess:
    """`assistant voice` running; `lines` is its stderr so far (its states: [listening])."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.lines: list[str] = []
        stderr = process.stderr
        assert stderr is not None
        threading.Thread(target=lambda: self.lines.extend(iter(stderr.readline, "")),
                         daemon=True).start()

    def wait_for(self, words: str, after: int = 0, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not any(words in line for line in self.lines[after:]):
            assert self.process.poll() is None, self.lines
            assert time.monotonic() < deadline, f"no {words!r} in {self.lines}"
            time.sleep(0.02)

    def interrupt(self) -> str:
        """Ctrl-C, as a user ends it; what it printed to stdout. One that is still running
        30 s later fails the test and is killed, so no process is left behind."""
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        assert self.process.stdout is not None
        return self.process.stdout.read()
