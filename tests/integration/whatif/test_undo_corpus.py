"""Every snippet of the blind everyday corpus, proposed by a scripted LLM (real litellm on
127.0.0.1) and run by the loop in auto mode with undo on, then undone: the folder is byte
for byte as it was, and the real run did what its preview showed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assistant.api import Assistant
from assistant.events import Approval, Notice, Proposal, RunEnd
from assistant.whatif.undo import UndoError
from tests.integration.conftest import MODEL
from tests.integration.whatif.corpus import ENTRIES, lay_out
from tests.support.folders import contents
from tests.support.llm_server import LLMServer, text, tool_call


def person(proposal: Proposal) -> Approval:
    """The person at the keyboard, who says yes to what auto mode leaves to them."""
    return Approval(proposal.id, True, "user", proposal.code)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_a_run_of_the_loop_then_undo_puts_the_folder_back_byte_for_byte(
        entry: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "work"
    lay_out(entry, folder)
    before = contents(folder)
    monkeypatch.chdir(folder)
    expect = entry["expect"]
    changes = any(expect[key] for key in ("created", "modified", "deleted", "moved"))
    with LLMServer([tool_call(entry["language"], entry["code"]), text("Done.")]) as server, \
            Assistant(MODEL, api_base=server.openai_url, api_key="test-key",
                      code_style="tools", approval="auto", approver=person,
                      checks_off="preview") as assistant:  # failing entries run, for undo
        events = list(assistant.turn("please do it"))
        ends = [e for e in events if isinstance(e, RunEnd)]
        notices = [e.text for e in events if isinstance(e, Notice)]
        assert ends and ends[0].exit_status == expect["exit"], ends
        assert not [n for n in notices if "did not do what its preview showed" in n]
        assert (contents(folder) != before) == changes
        if changes:
            assert assistant.undo().startswith("Undid run ")
        else:
            with pytest.raises(UndoError, match="no run to undo"):
                assistant.undo()
    assert contents(folder) == before
