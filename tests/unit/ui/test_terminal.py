from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from assistant.events import Approval, Error, OutputChunk, Proposal, RunEnd, TextDelta
from assistant.ui.summary import run_summary
from assistant.ui.terminal import Terminal

P = Proposal("p1", "shell", "ls -la")


def terminal(keys: str = "") -> tuple[Terminal, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    return Terminal(console, io.StringIO(keys) if keys is not None else None), out


@pytest.mark.parametrize(
    ("keys", "approved", "always"),
    [("y\n", True, False), ("n\n", False, False), ("a\n", True, True), ("maybe\ny\n", True, False)],
)
def test_keys_decide(keys: str, approved: bool, always: bool) -> None:
    term, _ = terminal(keys)
    decision = term.approve(P)
    assert (decision.approved, decision.always, decision.decided_by) == (approved, always, "user")


def test_closed_keyboard_declines_and_says_why() -> None:
    term, _ = terminal("")
    decision = term.approve(P)
    assert not decision.approved and "-y" in decision.reason


def test_edit_uses_the_editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    editor = tmp_path / "ed.sh"
    editor.write_text("#!/bin/sh\nprintf 'ls -1\\n' > \"$1\"\n")
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    term, out = terminal("e\n")
    decision = term.approve(P)
    assert decision.approved and decision.code == "ls -1\n" and decision.reason == "edited"
    assert "(edited)" in out.getvalue()


def test_empty_edit_asks_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    editor = tmp_path / "ed.sh"
    editor.write_text("#!/bin/sh\n: > \"$1\"\n")
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    term, out = terminal("e\nn\n")
    assert not term.approve(P).approved
    assert "empty" in out.getvalue()


def test_rendering_keeps_streamed_text_and_output_in_order() -> None:
    term, out = terminal()
    for event in (
        TextDelta("Listing "), TextDelta("files."), P,
        Approval("p1", True, "policy", "ls -la", reason="auto-run is on"),
        OutputChunk("p1", "stdout", "a.txt\n"), OutputChunk("p1", "stderr", "warn"),
        RunEnd("p1", 2, "a.txt\nwarn", 0.5), Error("The LLM is down: start it"),
    ):
        term.show(event)
    shown = out.getvalue()
    order = [shown.index(s) for s in ("Listing files.", "ls -la", "approved by policy", "a.txt",
                                      "warn\n", "exit 2", "error: The LLM is down")]
    assert order == sorted(order)


def test_run_summaries_name_how_a_run_ended() -> None:
    waiting = RunEnd("p", None, "", 1, waiting_for_input=True)
    assert "waited for input" in run_summary(waiting)
    assert "time limit" in run_summary(RunEnd("p", None, "", 1, timed_out=True))
    assert "interrupted" in run_summary(RunEnd("p", 130, "", 1, interrupted=True))
    assert "done" in run_summary(RunEnd("p", 0, "", 1))
