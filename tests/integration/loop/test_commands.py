"""A spoken command that names only controls on screen, read without the model: the
turn proposes the verbs' code at once, the person approves it by what the tree says it
will hit, and the dialog's own exit status proves what happened. Real zenity dialogs on
a managed desktop; the scripted model server shows whether the model was asked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from assistant import Assistant
from assistant.events import Event, Proposal, RuleFired, TurnEnd
from tests.support.desktop import Program, desktop
from tests.support.llm_server import LLMServer, text, tool_call


@pytest.fixture(scope="module", autouse=True)
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop() as name:
        yield name


def turn(server: LLMServer, request: str, asked: list[Proposal], answer: bool = True,
         off: str = "") -> list[Event]:
    def approver(proposal: Proposal) -> bool:
        asked.append(proposal)
        return answer

    with Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                   code_style="tools", screen_format="text", journal=False,
                   checks_off=off, approver=approver) as assistant:
        return list(assistant.turn(request))


def test_click_yes_is_pressed_without_asking_the_model(server: LLMServer) -> None:
    asked: list[Proposal] = []
    server.add(text("(never asked)"))
    with Program("zenity", "--question", "--title=Export",
                 "--text=Export the quarterly report now?") as dialog:
        dialog.focused("Export")
        events = turn(server, "Click yes.", asked)
        assert dialog.result() == (0, "")  # zenity's own word: Yes was pressed
    assert server.chat_requests == [] and server.pending == 1
    [proposal] = asked
    assert proposal.code == 'computer.press("Yes")' and proposal.effect is not None
    assert proposal.effect.summary == "Presses Yes in the dialog 'Export'."
    assert [e.action for e in events if isinstance(e, RuleFired)
            and e.rule == "screen.command"] == ["rewrite"]
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "answered"
    assert end.text.endswith("On screen now: the dialog 'Export' is gone.")


def test_a_destructive_button_named_is_still_rated_high_and_declining_keeps_it(
        server: LLMServer) -> None:
    asked: list[Proposal] = []
    server.add(text("Left the drafts as they are."))
    with Program("zenity", "--question", "--title=Drafts", "--text=Delete all drafts?",
                 "--ok-label=Delete", "--cancel-label=Keep") as dialog:
        dialog.shown("Drafts")
        turn(server, "press Delete", asked, answer=False)
        assert dialog.running()  # declined: nothing was pressed
    [proposal] = asked
    assert proposal.risk == "high" and proposal.effect is not None
    assert proposal.effect.summary.startswith("Presses Delete in the dialog 'Drafts'")


def test_a_step_left_undone_goes_to_the_model_with_the_screen(server: LLMServer) -> None:
    """Ticked as said; the dialog still waits for its OK, so the model is asked next."""
    asked: list[Proposal] = []
    server.add(tool_call("python", 'computer.press("OK")'), text("Backed up."))
    with Program("zenity", "--list", "--checklist", "--title=Backup", "--text=What to back up",
                 "--column=Pick", "--column=Folder", "FALSE", "Photos", "FALSE", "Music",
                 "FALSE", "Videos") as dialog:
        dialog.shown("Backup")
        turn(server, "tick Photos and Music", asked, off="screen.done")
        assert dialog.result() == (0, "Photos|Music")
    assert [p.code for p in asked] == ['computer.tick("Photos")\ncomputer.tick("Music")',
                                       'computer.press("OK")']
    told = str(server.chat_requests[0].body["messages"])
    assert "the dialog 'Backup' is still open, with the buttons Cancel, OK" in told


def test_with_the_rule_off_the_model_is_asked(server: LLMServer) -> None:
    asked: list[Proposal] = []
    server.add(tool_call("python", 'computer.press("Yes")'), text("Pressed Yes."))
    with Program("zenity", "--question", "--title=Export", "--text=Export now?") as dialog:
        dialog.focused("Export")
        turn(server, "click Yes", asked, off="screen.command")
        assert dialog.result() == (0, "")
    assert len(server.chat_requests) >= 1
