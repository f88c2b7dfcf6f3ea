"""Keeping a long-running daemon's memory flat.

glibc gives each thread that allocates a lot an arena of its own (up to eight per core)
and keeps what is freed there for reuse. The daemon runs each take, transcript and
sentence on short-lived threads, so arenas multiply and resident memory grew by 20-30 MB
a turn. Two arenas are enough for a process that does one thing at a time, and what a
finished turn freed is handed back to the system. Elsewhere than glibc this does nothing.
"""

from __future__ import annotations

import ctypes
import functools

M_ARENA_MAX = -8  # mallopt() parameter, from glibc's malloc.h
ARENAS = 2


@functools.cache
def _libc() -> ctypes.CDLL | None:
    """The C library this process already uses, when it is glibc."""
    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


def limit_arenas() -> bool:
    """At most ARENAS malloc arenas from now on; call before threads start."""
    libc = _libc()
    return bool(libc is not None and libc.mallopt(M_ARENA_MAX, ARENAS))


def trim() -> None:
    """Give memory freed since the last call back to the system (a few milliseconds)."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
