"""One asyncio loop on a thread of its own, so the synchronous loop can use async clients.

asyncio is imported when the loop first starts: most conversations call no tool, and a
command's first word need not wait for it."""

from __future__ import annotations

import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import asyncio

T = TypeVar("T")


class Background:
    """The loop of one Toolbox, started on first use and stopped by close()."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, coroutine: Coroutine[Any, Any, T]) -> Future[T]:
        """Schedule `coroutine` on the loop; the future can wait on it or cancel it."""
        import asyncio

        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(target=self._loop.run_forever,
                                                name="assistant-tools", daemon=True)
                self._thread.start()
            return asyncio.run_coroutine_threadsafe(coroutine, self._loop)

    def close(self) -> None:
        with self._lock:
            loop, thread, self._loop, self._thread = self._loop, self._thread, None, None
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        if not thread.is_alive():
            loop.close()
