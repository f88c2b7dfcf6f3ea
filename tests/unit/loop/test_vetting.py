"""What a call goes through before the user is asked."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from assistant.checks.repeats import REPEAT_NOT_RUN
from assistant.checks.state import TurnState
from assistant.events import Error, Notice
from assistant.llm import CodeCall
from assistant.loop.turn import CORRECTION, NOT_RUN, RELABELLED
from assistant.loop.vetting import Cleared, vet
from assistant.texts import text
from tests.support import turns


def state(folder: Path, request: str = "list the files here") -> TurnState:
    return turns.turn(request, folder)


def keep(text: str) -> str:
    return text


def test_a_malformed_call_is_sent_back_once_then_ends_the_turn(tmp_path: Path) -> None:
    turn = state(tmp_path)
    bad = CodeCall("1", "python", "", problem="arguments are not JSON")
    notices, outcome = vet(bad, turn, keep)
    assert outcome == (CORRECTION.format("arguments are not JSON"), None)
    assert isinstance(notices[0], Notice) and "malformed" in notices[0].text
    notices, outcome = vet(bad, turn, keep)
    assert outcome == (NOT_RUN, ("error", 0))
    assert isinstance(notices[0], Error)
    assert isinstance(vet(CodeCall("2", "shell", "ls"), turn, keep)[1], Cleared)
    assert not turn.corrected  # a good call in between: the next bad one is told again


def test_code_that_just_succeeded_is_told_then_stops_the_turn(tmp_path: Path) -> None:
    turn = state(tmp_path)
    call = CodeCall("1", "shell", "ls")
    assert vet(call, turn, keep)[1] == Cleared("shell", "ls")
    turns.ran(turn, "a.txt", code="ls")
    notices, outcome = vet(call, turn, keep)
    assert not isinstance(outcome, Cleared) and "a.txt" in outcome[0] and outcome[1] is None
    assert turn.stuck and "same shell code that had just succeeded" in notices[0].text
    assert vet(call, turn, keep) == ([], (REPEAT_NOT_RUN, ("repeated_success", 3)))


def test_mislabelled_code_is_cleared_as_what_it_is(tmp_path: Path) -> None:
    notices, outcome = vet(CodeCall("1", "python", "cd data && ls -la"), state(tmp_path), keep)
    assert outcome == Cleared("shell", "cd data && ls -la", RELABELLED.format("python", "shell"))
    assert "This code is shell, not python" in notices[0].text


def test_code_that_does_not_touch_the_windows_a_request_acts_on_is_told_twice(
        tmp_path: Path) -> None:
    turn = state(tmp_path, "add the line 'eggs' to the list open in Mousepad and save it")
    turn.desktop = True
    behind = CodeCall("1", "shell", "echo eggs >> list.txt")
    notices, outcome = vet(behind, turn, keep)
    assert outcome == (text("screen.offscreen"), None)
    assert "does not act in them" in notices[0].text
    assert vet(CodeCall("2", "python", 'computer.type("eggs\\n", window="list.txt", '
                                       'at="end")'), turn, keep)[1] == Cleared(
        "python", 'computer.type("eggs\\n", window="list.txt", at="end")')
    assert vet(behind, turn, keep)[1] == (text("screen.offscreen"), None)
    assert isinstance(vet(behind, turn, keep)[1], Cleared)  # told twice: then it is asked


def test_code_off_the_screen_is_cleared_without_a_window_shown_or_once_a_run_acted_there(
        tmp_path: Path) -> None:
    turn = state(tmp_path, "add the line 'eggs' to list.txt")
    behind = CodeCall("1", "shell", "echo eggs >> list.txt")
    assert isinstance(vet(behind, turn, keep)[1], Cleared)
    turn = state(tmp_path, "use the newsletter page in the browser to unsubscribe me")
    turn.desktop = True
    fetch = CodeCall("1", "python", "import requests\nrequests.get('http://127.0.0.1/news')")
    assert vet(fetch, turn, keep)[1] == (text("screen.offscreen"), None)
    turn.acted = True
    assert isinstance(vet(fetch, turn, keep)[1], Cleared)


def test_a_press_of_a_button_the_request_says_not_to_press_is_told(tmp_path: Path) -> None:
    turn = state(tmp_path, "I wiped the recipe by mistake. Don't save that! Just close it.")
    turn.desktop = True
    notices, outcome = vet(CodeCall("1", "python", 'computer.press("Save")'), turn, keep)
    assert outcome == (text("screen.negated").format(button="Save"), None)
    assert "says not to save" in notices[0].text
    fine = 'computer.press("Close without Saving")'
    assert vet(CodeCall("2", "python", fine), turn, keep)[1] == Cleared("python", fine)
    turn = state(tmp_path, "close the recipe without saving")
    turn.desktop = True
    assert isinstance(vet(CodeCall("3", "python", 'computer.press("Save")'), turn, keep)[1],
                      tuple)


def test_code_off_the_screen_is_cleared_for_a_request_that_points_at_no_window(
        tmp_path: Path) -> None:
    """A screen attached for the word "page" makes no request about a window."""
    turn = state(tmp_path, "save the page at 127.0.0.1:9 as page.html")
    turn.desktop = True
    fetch = CodeCall("1", "shell", "curl -s http://127.0.0.1:9/ > page.html")
    assert vet(fetch, turn, keep)[1] == Cleared("shell", fetch.code)


def test_code_that_writes_the_file_a_request_names_is_cleared_unless_a_dialog_waits(
        tmp_path: Path) -> None:
    turn = state(tmp_path, "Save a copy of the budget that's open in Mousepad as "
                           "budget-2025.txt, with 2025 in the heading")
    turn.desktop = True
    copy = CodeCall("1", "python", "text = open('budget-2024.txt').read()\n"
                                   "open('budget-2025.txt', 'w').write(text.replace('2024', "
                                   "'2025', 1))")
    assert vet(copy, turn, keep)[1] == Cleared("python", copy.code)
    other = CodeCall("2", "python", "open('notes.txt', 'w').write('2025')")
    assert vet(other, turn, keep)[1] == (text("screen.offscreen"), None)
    turn.request = replace(turn.request, to_dialog=True)  # a Save dialog waits for the name
    assert vet(copy, turn, keep)[1] == (text("screen.offscreen"), None)
