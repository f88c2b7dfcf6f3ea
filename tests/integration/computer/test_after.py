"""Act, then check on the screen: after a run that acted on windows, the windows' trees
are read again and the model reads what they show as facts; an answer of steps, or one
calling done what the screen shows undone, goes back once (rule answer.screen). Real
dialogs (zenity, yad) on a managed desktop, a real loop against the scripted model."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from assistant import Assistant, computer
from assistant.computer import after, aim
from assistant.events import Event, Proposal, RuleFired, TurnEnd
from tests.support.desktop import Program, desktop
from tests.support.llm_server import LLMServer, text, tool_call

BACKUP = ("zenity", "--list", "--checklist", "--title=Backup", "--text=What to back up",
          "--column=Pick", "--column=Folder", "FALSE", "Photos", "FALSE", "Music")
"""A check list whose dialog stays open after a tick: the job has a step left (press OK)."""


@pytest.fixture(scope="module", autouse=True)
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop() as name:
        yield name


def turn(server: LLMServer, request: str, off: str = "", style: str = "tools",
         approver: Callable[[Proposal], bool] = lambda proposal: True) -> list[Event]:
    """One turn as the default install takes it: the screen as text, every proposal
    approved by the person (`approver`); `off`: rules turned off, and always the reading
    of a command without the model (screen.command): these turns are the model's."""
    with Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                   code_style=style, screen_format="text", journal=False,
                   checks_off=",".join(filter(None, ["screen.command", off])),
                   approver=approver) as assistant:
        return list(assistant.turn(request))


def told(server: LLMServer, request: int) -> str:
    """What the model was told before its reply number `request` (from 0)."""
    return str(server.chat_requests[request].body["messages"][-3:])


def screen_rule(events: list[Event], rule: str = "answer.screen") -> list[str]:
    return [e.action for e in events if isinstance(e, RuleFired) and e.rule == rule]


def test_after_a_press_the_model_reads_that_the_dialog_is_gone(server: LLMServer) -> None:
    server.add(tool_call("python", 'computer.press("Yes")'), text("Pressed Yes."))
    with Program("zenity", "--question", "--title=Export",
                 "--text=Export the quarterly report now?") as dialog:
        dialog.shown("Export")
        events = turn(server, "click Yes", off="screen.done")
        assert dialog.result() == (0, "")
    assert "On screen now: the dialog 'Export' is gone." in told(server, 1)
    assert len(server.chat_requests) == 2 and screen_rule(events) == []  # done: accepted


def test_a_dialog_the_screen_shows_answered_ends_the_turn_without_asking_again(
        server: LLMServer) -> None:
    server.add(tool_call("python", 'computer.press("Yes")'), text("(never asked)"))
    with Program("zenity", "--question", "--title=Export",
                 "--text=Export the quarterly report now?") as dialog:
        dialog.shown("Export")
        events = turn(server, "click Yes")
        assert dialog.result() == (0, "")
    assert len(server.chat_requests) == 1 and server.pending == 1
    assert screen_rule(events, "screen.done") == ["stand_in"]
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "answered"
    assert end.text == ("Pressed Yes in the dialog 'Export'.\n"
                        "On screen now: the dialog 'Export' is gone.")


def test_a_window_still_open_after_the_run_asks_the_model_again(server: LLMServer) -> None:
    """A tick leaves the dialog open: the job may have a step left (press OK)."""
    server.add(tool_call("python", 'computer.tick("Music")'), text("Music is ticked."))
    with Program(*BACKUP) as dialog:
        dialog.shown("Backup")
        events = turn(server, "tick Music in the backup dialog")
        assert dialog.running()
    assert len(server.chat_requests) == 2 and screen_rule(events, "screen.done") == []


def test_after_a_tick_the_model_reads_the_box_ticked(server: LLMServer) -> None:
    server.add(tool_call("python", 'computer.tick("Music")'), text("Music is ticked."))
    with Program(*BACKUP) as dialog:
        dialog.shown("Backup")
        turn(server, "tick Music in the backup dialog")
        assert dialog.running()
    assert "'Music' is ticked in the dialog 'Backup'; the dialog 'Backup' is still open, " \
        "with the buttons Cancel, OK." in told(server, 1)  # it waits for its OK


def test_an_answer_of_steps_goes_back_once_and_the_press_follows(server: LLMServer) -> None:
    server.add(text("1. Find the Backup dialog.\n2. Click the Yes button."),
               tool_call("python", 'computer.press("Yes")'), text("Pressed Yes."))
    with Program("zenity", "--question", "--title=Backup", "--text=Back up now?") as dialog:
        dialog.shown("Backup")
        events = turn(server, "click Yes in the backup dialog", off="screen.done")
        assert dialog.result() == (0, "")  # zenity's own word: Yes was pressed
    assert "Nothing was done on screen" in told(server, 1)
    assert screen_rule(events) == ["send_back"]
    assert events[-1] == TurnEnd("Pressed Yes.", "answered", events[-1].conversation_id)


@pytest.mark.parametrize("style", ["tools", "fenced"])
def test_calls_written_as_words_are_proposed_and_press_the_button_without_asking_again(
        server: LLMServer, style: str) -> None:
    """The model wrote the call in its words: it is asked for once, as code, and runs;
    the screen shows the job done, so no second model call is needed."""
    server.add(text('To answer it, use `computer.press("Yes")` in the Backup dialog.'),
               text("(never asked)"))
    asked: list[Proposal] = []

    def approver(proposal: Proposal) -> bool:
        asked.append(proposal)
        return True

    with Program("zenity", "--question", "--title=Backup", "--text=Back up now?") as dialog:
        dialog.shown("Backup")
        events = turn(server, "click Yes in the backup dialog", style=style, approver=approver)
        assert dialog.result() == (0, "")  # zenity's own word: Yes was pressed
    assert [(p.language, p.code) for p in asked] == [("python", 'computer.press("Yes")')]
    assert screen_rule(events, "answer.screen_calls") == ["rewrite"]
    assert screen_rule(events) == [] and len(server.chat_requests) == 1
    assert isinstance(events[-1], TurnEnd) and events[-1].reason == "answered"


def test_calls_written_as_words_with_the_rule_off_go_back_as_steps(server: LLMServer) -> None:
    server.add(text('Use `computer.press("Yes")`.'),
               tool_call("python", 'computer.press("Yes")'), text("(never asked)"))
    with Program("zenity", "--question", "--title=Backup", "--text=Back up now?") as dialog:
        dialog.shown("Backup")
        events = turn(server, "click Yes in the backup dialog", off="answer.screen_calls")
        assert dialog.result() == (0, "")
    assert screen_rule(events) == ["send_back"] and len(server.chat_requests) == 2


def test_done_called_over_a_field_that_does_not_hold_the_text_goes_back(
        server: LLMServer) -> None:
    """A number field takes no words: the run says it typed, the field holds none."""
    server.add(tool_call("python", 'computer.type("many", into="Copies:")'),
               text("Done: Copies is set to many."),
               text("I could not set it: Copies takes only a number."))
    with Program("yad", "--form", "--title=Order", "--field=Copies::NUM", "2") as form:
        form.shown("Order")
        events = turn(server, "type many into the Copies field")
        assert form.running()
    first = told(server, 1)
    assert "On screen now: the field 'Copies:' in the window 'Order' holds " in first
    assert "holds 'many'" not in first
    sent_back = told(server, 2)
    assert "The screen does not show it done: the field 'Copies:'" in sent_back
    assert screen_rule(events) == ["send_back"] and len(server.chat_requests) == 3
    assert isinstance(events[-1], TurnEnd) and events[-1].text.startswith("I could not")


def test_the_facts_come_from_the_screen_not_from_the_calls() -> None:
    """Read with nothing run: the field is said as it is, empty, and undone."""
    with Program("yad", "--form", "--title=Order", "--field=Name:", "") as form:
        form.shown("Order")
        aims = aim.foresee('computer.type("Ana", into="Name:")')
        then = after.before()
        facts = after.after(aims, then)
        assert form.running()
    assert [f.sentence for f in facts] == [
        "the field 'Name:' in the window 'Order' holds nothing",
        "the window 'Order' is still open, with the buttons Cancel, OK"]  # yad's: a window
    assert facts[0].undone


def test_a_password_typed_is_said_by_its_length_and_not_undone() -> None:
    with Program("zenity", "--forms", "--title=Sign in", "--text=Who are you",
                 "--add-password=Password:") as form:
        form.shown("Sign in")
        code = 'computer.type("s3cret", into="Password:")'
        aims, then = aim.foresee(code), after.before()
        computer.type("s3cret", into="Password:")
        facts = after.after(aims, then)
        assert form.running()
    assert [(f.sentence, f.undone) for f in facts] == [
        ("the field 'Password:' in the dialog 'Sign in' holds 6 characters", False),
        ("the dialog 'Sign in' is still open, with the buttons Cancel, OK", False)]


def test_a_box_pressed_is_said_on_or_off_as_the_screen_shows_it() -> None:
    """press() on a form's box flips it: the fact says the state it is in now."""
    with Program("yad", "--form", "--title=Table", "--field=Window seat:CHK", "FALSE") as form:
        form.shown("Table")
        code = 'computer.press("Window seat")'
        aims, then = aim.foresee(code), after.before()
        computer.press("Window seat")
        on = after.after(aims, then)[0]
        computer.press("Window seat")
        off = after.after(aims, then)[0]
        assert form.running()
    assert (on.sentence, on.toggled) == ("'Window seat' is now on in the window 'Table'", "on")
    assert (off.sentence, off.toggled) == ("'Window seat' is now off in the window 'Table'",
                                           "off")
