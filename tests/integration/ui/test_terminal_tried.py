"""The terminal through the real loop, a fenced reply whose first try fails in a copy of
the files: that try is one line, not streamed code, and its code is one key (`t`) away at
the next question; the proposal that worked shows its effect first. `assistant history`
shows the conversation the same way."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from assistant.events import Approval, Proposal
from assistant.ui.history import print_conversation
from assistant.ui.terminal import Terminal
from assistant.whatif.preview import problem
from tests.support.llm_server import LLMServer, fenced, text
from tests.support.loop import make

pytestmark = pytest.mark.skipif(bool(problem()), reason=problem() or "previews work")

FAILING = "mkdir -p old && mv a.txt old/"


def test_a_failed_try_is_one_line_and_its_code_is_one_key_away(
        server: LLMServer, work: Path) -> None:
    (work / "a.log").write_text("a")
    server.add(fenced("shell", FAILING, before="I'll move the log."),
               fenced("shell", "mkdir -p old && mv a.log old/", before="Now a.log."),
               text("Moved a.log into old/."))
    out = io.StringIO()
    term = Terminal(Console(file=out, width=200, color_system=None), io.StringIO("t\ny\n"))
    asked_at: list[int] = []

    def approve(proposal: Proposal) -> Approval:
        asked_at.append(len(out.getvalue()))
        return term.approve(proposal)

    with make(server, "fenced", approver=approve) as a:
        for event in a.turn("move the log file into a new folder called old"):
            term.show(event)
    before, after = out.getvalue()[:asked_at[0]], out.getvalue()[asked_at[0]:]
    assert "I'll move the log." in before and "Now a.log." in before
    assert "mv a.txt" not in before and "```" not in before
    tried = [line for line in before.splitlines() if "Tried in a copy of your files" in line]
    assert len(tried) == 1 and "failed (" in tried[0]
    assert "shell · risk" in before and "Moves 1 file" in before  # the effect first
    assert "[t]ried" in after and FAILING in after  # the t key showed the try's code
    assert (work / "old" / "a.log").read_text() == "a"


def test_history_shows_a_failed_try_as_its_line_and_the_words_without_its_code(
        server: LLMServer, work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "a.log").write_text("a")
    server.add(fenced("shell", FAILING, before="I'll move the log."),
               fenced("shell", "mkdir -p old && mv a.log old/", before="Now a.log."),
               text("Moved a.log into old/."))
    with make(server, "fenced") as a:
        list(a.turn("move the log file into a new folder called old"))
        assert a.journal is not None
        conversation: dict[str, Any] = a.journal.conversation(a.conversation_id)
    print_conversation(conversation)
    shown = capsys.readouterr().out
    assert "I'll move the log." in shown and "Tried in a copy of your files" in shown
    assert "mv a.txt" not in shown and "```" not in shown
    assert "mkdir -p old && mv a.log old/" in shown  # the proposal that ran, as approved
    assert any(r["kind"] == "tried" and r["code"] == FAILING for r in conversation["records"])
