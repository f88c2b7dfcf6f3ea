"""A test window run as a child process that logs what it gets as JSON lines, read back
as records (the Tk and GTK test windows)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class LoggedWindow:
    """`python -m MODULE LOG ARGS...`; ready once it logs {"event": "ready"}."""

    def __init__(self, module: str, log: Path, args: list[str]) -> None:
        self.log = log
        self.module = module
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen([sys.executable, "-m", module, str(log), *args],
                                        env=env, cwd=str(ROOT))
        self.ready = self.wait_for(lambda r: r["event"] == "ready", timeout=15)

    def records(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        lines = self.log.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def mark(self) -> int:
        """How many records there are now: pass as `after` to see only newer ones."""
        return len(self.records())

    def wait_for(self, match: Any, timeout: float = 5.0, after: int = 0) -> dict[str, Any]:
        """The first record `match` accepts; fails with the log so far when none comes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [r for r in self.records()[after:] if match(r)]
            if found:
                return found[0]
            if self.process.poll() is not None:
                raise AssertionError(f"the window of {self.module} exited "
                                     f"({self.process.returncode})")
            time.sleep(0.05)
        raise AssertionError(f"no matching record within {timeout} s; log: {self.records()}")

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def __enter__(self) -> LoggedWindow:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
