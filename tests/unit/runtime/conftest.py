"""Fixtures for runtime tests: real interpreters, one Runtimes per test."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator

import pytest

from assistant.events import OutputChunk, RunEnd
from assistant.runtime import Runtimes


@pytest.fixture
def runtimes() -> Iterator[Runtimes]:
    with Runtimes(timeout=20.0) as rt:
        yield rt


@pytest.fixture
def execute(runtimes: Runtimes) -> Callable[..., RunEnd]:
    """Run code to its end, check the event contract, and return the RunEnd."""

    def _execute(language: str, code: str, *, interrupt_after: float | None = None, **options):
        if interrupt_after is not None:
            threading.Timer(interrupt_after, runtimes.interrupt).start()
        events = list(runtimes.run(language, code, proposal_id="t1", **options))
        *chunks, end = events
        assert isinstance(end, RunEnd)
        assert all(isinstance(chunk, OutputChunk) for chunk in chunks)
        assert all(event.proposal_id == "t1" for event in events)
        assert "".join(chunk.text for chunk in chunks) == end.output
        return end

    return _execute


@pytest.fixture
def group_members() -> Callable[[int], list[int]]:
    """A function listing the live (not zombie) processes of a process group."""
    return _group_members


def _group_members(pgid: int) -> list[int]:
    members = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as file:
                fields = file.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != b"Z":
            members.append(int(name))
    return members
