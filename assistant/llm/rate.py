"""The limit on LLM calls: every request to the model counts, each of the several a turn
makes as much as a turn's first, whichever front end started it.

One window per data folder in a process, so the conversations of `assistant serve`, or
the daemon's voice and web turns, share it. Its limit is the strictest any part asked for
(`llm_calls_per_minute` for every conversation, `serve_llm_calls_per_minute` for the web
page's); 0 asks for none.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from pathlib import Path

from assistant.llm.reply import LLMError

WINDOW_S = 60.0


class CallRate:
    """At most `per_minute` LLM calls in any 60 s (0: no limit)."""

    def __init__(self, per_minute: int = 0) -> None:
        self.per_minute = per_minute
        self._times: deque[float] = deque()
        self._lock = threading.Lock()

    def ask_for(self, per_minute: int) -> None:
        """Hold to `per_minute` too: the stricter of the two limits stays."""
        with self._lock:
            if per_minute and (not self.per_minute or per_minute < self.per_minute):
                self.per_minute = per_minute

    def wait_s(self) -> float:
        """Seconds until a call may start (0: now); counts nothing."""
        with self._lock:
            return self._wait(time.monotonic())

    def take(self) -> None:
        """Count a call starting now, or refuse it in one line that says what to do."""
        with self._lock:
            now = time.monotonic()
            wait = self._wait(now)
            if wait:
                raise LLMError(
                    f"{self.per_minute} LLM calls in a minute is the limit, and it is reached: "
                    f"ask again in {wait:.0f} s (or raise llm_calls_per_minute, or "
                    "serve_llm_calls_per_minute for the web page)")
            if self.per_minute:
                self._times.append(now)

    def _wait(self, now: float) -> float:
        if not self.per_minute:
            return 0.0
        while self._times and now - self._times[0] >= WINDOW_S:
            self._times.popleft()
        if len(self._times) < self.per_minute:
            return 0.0
        return max(0.5, WINDOW_S - (now - self._times[0]))


_shared: dict[Path, CallRate] = {}
_shared_lock = threading.Lock()


def shared(data_path: Path, per_minute: int) -> CallRate:
    """The window of the assistant keeping its data in `data_path`, holding to `per_minute`
    as well as to what others asked of it."""
    with _shared_lock:
        rate = _shared.setdefault(Path(data_path).resolve(), CallRate())
    rate.ask_for(per_minute)
    return rate
