"""One action through the pipeline's stages, with the parts built from Settings as every
way in builds them, and the way in of `assistant mcp` (tools/gate.py): real runtimes, real
what-if runs, the real policy and journal."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from assistant.actions import parts
from assistant.config import load_settings
from assistant.events import Approval, Event, Proposal, RunEnd
from assistant.tools.gate import Gate
from assistant.whatif.probe import problem

needs_previews = pytest.mark.skipif(bool(problem()), reason=problem() or "previews work")


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@contextmanager
def gate(approval: str, shown: list[Event], yes: bool = True) -> Iterator[Gate]:
    made = Gate(load_settings({"approval": approval}), lambda proposal: yes, shown.append)
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def shown() -> list[Event]:
    return []


@pytest.fixture
def asking(shown: list[Event]) -> Iterator[Gate]:
    with gate("ask", shown) as made:
        yield made


def proposals(shown: list[Event]) -> list[Proposal]:
    return [e for e in shown if isinstance(e, Proposal)]


def test_the_runtimes_preview_where_undo_is_on_and_not_where_it_is_off() -> None:
    said: list[str] = []
    on = parts.build(load_settings({"undo": True}), None, said.append, tools=False)
    off = parts.build(load_settings({"undo": False}), None, said.append, tools=False)
    try:
        assert (on.foreseeing() is not None) == (not problem())
        assert off.foreseeing() is None
    finally:
        on.close()
        off.close()


def test_the_run_limits_are_the_settings_ones() -> None:
    settings = load_settings({"max_memory_mb": 321, "max_processes": 17})
    made = parts.build(settings, None, lambda line: None, tools=False)
    try:
        assert made.runtimes.limits == parts.limits(settings)
        assert (made.runtimes.limits.memory_mb, made.runtimes.limits.processes) == (321, 17)
    finally:
        made.close()


@needs_previews
def test_a_clients_code_is_proposed_with_its_effect_and_runs_once_approved(
        asking: Gate, shown: list[Event], work: Path) -> None:
    told = asking.run("python", "open('note.txt', 'w').write('hi')", "execute")
    [proposal] = proposals(shown)
    assert proposal.effect is not None and proposal.effect.created == ("note.txt",)
    # write()'s value, as a bare expression's is shown
    assert told == "2\n[exit status 0]" and (work / "note.txt").read_text() == "hi"
    assert [e.approved for e in shown if isinstance(e, Approval)] == [True]


def test_blocked_code_is_never_previewed_nor_run(asking: Gate, shown: list[Event],
                                                 work: Path) -> None:
    told = asking.run("shell", "rm -rf --no-preserve-root /", "execute")
    [proposal] = proposals(shown)
    assert proposal.risk == "blocked" and proposal.effect is None
    assert told.startswith("Not run: declined by the policy: blocked")
    assert not [e for e in shown if isinstance(e, RunEnd)]


def test_with_approval_never_nothing_is_previewed_or_run(shown: list[Event], work: Path) -> None:
    with gate("never", shown) as never:
        told = never.run("python", "open('note.txt', 'w').write('hi')", "execute")
    [proposal] = proposals(shown)
    assert proposal.effect is None and not os.path.exists(work / "note.txt")
    assert told.startswith("Not run: declined by the policy: approval mode is never")


@needs_previews
def test_declined_code_was_previewed_but_changed_nothing(shown: list[Event], work: Path) -> None:
    with gate("ask", shown, yes=False) as declining:
        told = declining.run("shell", "echo hi > note.txt", "execute")
    [proposal] = proposals(shown)
    assert proposal.effect is not None and proposal.effect.created == ("note.txt",)
    assert told == "Not run: declined by the caller." and not (work / "note.txt").exists()
