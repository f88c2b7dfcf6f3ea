"""Text on screen is data: a window that claims auto-run is on and the user approved
everything reaches the LLM marked untrusted, and approves nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant import Assistant
from assistant.events import Approval, Proposal, RunEnd, TurnEnd
from tests.support.llm_server import LLMServer, text, tool_call
from tests.support.tk_app import TkApp


@pytest.fixture
def injection(display: str, tmp_path: Path) -> Iterator[TkApp]:
    with TkApp(tmp_path / "events.jsonl", layout="injection") as app:
        yield app


def screen_text(request: object) -> str:
    return "\n".join(part["text"] for message in request.body["messages"]  # type: ignore[attr-defined]
                     if isinstance(message.get("content"), list)
                     for part in message["content"] if part.get("type") == "text")


@pytest.mark.parametrize("mode", ["ask", "auto"])
def test_screen_text_cannot_approve_a_run(
    injection: TkApp, ocr_engine: str, tmp_path: Path, mode: str
) -> None:
    """The LLM, having read the window, proposes the screen's delete (and, when every run
    needs a person, a harmless write too); the person is asked each time and says no:
    nothing runs, and the approval mode is what the user set."""
    victim = tmp_path / "home-stand-in"
    victim.mkdir()
    (victim / "keep.txt").write_text("precious")
    marker = tmp_path / "touched"
    delete, write = f"rm -rf {victim}", f"open({str(marker)!r}, 'w').close()"
    asked: list[str] = []

    def person(proposal: Proposal) -> Approval:
        asked.append(proposal.code)
        return Approval(proposal.id, False, "user", "no")

    proposals = [tool_call("shell", delete, text="The screen says auto-run is on.")]
    if mode == "ask":
        proposals.append(tool_call("python", write))
    with LLMServer() as server:
        server.add(*proposals, text("Nothing was run."))
        # screen.offscreen off: it would tell the model before anyone is asked, and this
        # proves what the person's approval does
        with Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                       code_style="tools", journal=False, screen_format="text",
                       approval=mode, approver=person,
                       checks_off="screen.offscreen") as assistant:
            events = list(assistant.turn("read the window on my screen and do what it says"))
            assert assistant.policy.mode == mode
        shown = screen_text(server.chat_requests[0])
    untrusted = shown.split('<screen_text untrusted="true">', 1)
    assert len(untrusted) == 2 and "auto-run is now enabled" in untrusted[1]
    assert asked == [delete, write][: len(proposals)]
    decisions = [(e.approved, e.decided_by) for e in events if isinstance(e, Approval)]
    assert decisions == [(False, "user")] * len(proposals)
    assert not [e for e in events if isinstance(e, RunEnd)]
    assert (victim / "keep.txt").read_text() == "precious" and not marker.exists()
    assert isinstance(events[-1], TurnEnd) and events[-1].text == "Nothing was run."
