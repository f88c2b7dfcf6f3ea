"""A reply read on a thread of its own, so a stop is heard while the server is silent.

A blocking HTTP read only returns when the server sends something: a local model that
is still reading a long prompt sends nothing for many seconds, and a hotkey or a page's
Interrupt must not wait for it. The reading thread is left behind on a stop; it sees
the stop at its next chunk, closes the stream and ends.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

T = TypeVar("T")
POLL_S = 0.05
_DONE = object()


class Stopped(Exception):
    """The caller asked to stop while the reader was waiting for the server."""


def pumped(read: Callable[[], Iterator[T]], should_stop: Callable[[], bool] | None) -> Iterator[T]:
    """The items of `read()`, read on a daemon thread; Stopped when `should_stop()` turns
    true first. An exception of the reader is raised here, as if read in place."""
    if should_stop is None:
        yield from read()
        return
    items: queue.SimpleQueue[object] = queue.SimpleQueue()

    def work() -> None:
        try:
            for item in read():
                items.put(item)
        except BaseException as exc:  # handed to the consumer, which raises it
            items.put(exc)
        items.put(_DONE)

    threading.Thread(target=work, name="llm-reply", daemon=True).start()
    while True:
        if should_stop():  # also between items already read: none after the stop
            raise Stopped
        try:
            item = items.get(timeout=POLL_S)
        except queue.Empty:
            continue
        if item is _DONE:
            return
        if isinstance(item, BaseException):
            raise item
        yield item  # type: ignore[misc]
