"""Loading ahead of need on a thread that the process waits for, briefly, as it exits.

The thread is a daemon, so it never keeps the process alive. But a daemon thread still
importing when the interpreter finalizes is frozen holding that import's lock, and the next
import of the same module, e.g. by the finalizer of a litellm HTTP client collected at
exit, then waits for it forever: the process never ends. Exit handlers run before that
freeze, so the wait is one of them. It is process-wide because exit is.
"""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Callable

WAIT = 5.0  # seconds at exit for all of them; importing litellm takes about 3 on a busy machine

_running: set[threading.Thread] = set()
_lock = threading.Lock()


def start(work: Callable[[], object], name: str = "warm-up") -> threading.Thread:
    """Run `work` on a daemon thread that exit waits for (`WAIT` seconds at most)."""

    def run() -> None:
        try:
            work()
        finally:
            with _lock:
                _running.discard(thread)

    thread = threading.Thread(target=run, name=name, daemon=True)
    with _lock:
        _running.add(thread)
    thread.start()
    return thread


def wait(timeout: float = WAIT) -> None:
    """Wait for the threads still running, `timeout` seconds in all."""
    deadline = time.monotonic() + timeout
    with _lock:
        running = list(_running)
    for thread in running:
        thread.join(max(0.0, deadline - time.monotonic()))


atexit.register(wait)
