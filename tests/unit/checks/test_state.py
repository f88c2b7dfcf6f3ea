"""A turn's state derives what its limits count: failures in a row, repeats told, a reply
repeated, and whether the next reply is asked warmer."""

from __future__ import annotations

from pathlib import Path

from assistant.actions.apply import applies
from assistant.checks.state import TurnState
from assistant.checks.verdicts import Refuse
from assistant.events import RunEnd
from tests.support.turns import ran, turn


def replied(state: TurnState) -> None:
    """A reply came in: what is stuck is read from here on (as the session marks it)."""
    state.asked = (len(state.rules.fired), len(state.tries))


def test_failures_in_a_row_count_until_the_same_code_succeeds(tmp_path: Path) -> None:
    state = turn("list the files here", tmp_path)
    assert ran(state, "no", status=1, code="ls x") == 1
    assert ran(state, "", code="pwd") == 0
    assert ran(state, "no", status=1, code="ls x") == 2  # other code between: still its second
    assert ran(state, "a", code="ls x") == 0
    assert state.foresaw(RunEnd("p", 1, "no", 0.1), ("shell", "ls x"), "no") == 1
    assert [each.previewed for each in state.tries] == [False] * 4 + [True]
    assert state.runs == 4 and state.last_failed and state.failed_preview is not None


def test_the_last_code_proposed_again_is_told_then_stops_counted_by_the_rules_fired(
        tmp_path: Path) -> None:
    state = turn("list the files here", tmp_path)
    ran(state, "a.txt", code="ls")
    assert state.rerun("shell", "ls") == ("told", 2)
    assert state.rerun("shell", "pwd") == ("run", 0)
    assert applies(state.rules, Refuse("repeat.success_told", "", ""))
    assert state.rerun("shell", "ls") == ("stop", 3)
    assert state.rerun("python", "import computer\ncomputer.key('Tab')") == ("run", 0)
    ran(state, "b.txt", code="ls")  # it ran after all: counted afresh
    assert state.rerun("shell", "ls") == ("told", 2)


def test_a_reply_of_several_calls_repeated_is_told_then_stops_unless_one_failed(
        tmp_path: Path) -> None:
    state = turn("list the files here", tmp_path)
    calls = (("shell", "ls"), ("shell", "cat a.txt"))
    assert state.reply(calls) == ("run", 0)
    ran(state, "a.txt", code="ls")
    ran(state, "hi", code="cat a.txt")
    assert state.reply(calls) == ("told", 2)
    assert state.reply(calls) == ("stop", 3)
    assert state.reply((("shell", "ls"),)) == ("run", 0)  # one call: `rerun` sees it
    assert state.reply(calls) == ("run", 0)
    ran(state, "no", status=1, code="ls")
    assert state.reply(calls) == ("run", 0)  # one of them failed: not a loop of checks


def test_a_turn_is_stuck_after_a_repeat_told_or_a_second_failure_until_the_next_reply(
        tmp_path: Path) -> None:
    state = turn("list the files here", tmp_path)
    ran(state, "no", status=1, code="ls x")
    assert not state.stuck  # a first failure: the model may fix it at its usual temperature
    ran(state, "no", status=1, code="ls x")
    assert state.stuck
    replied(state)
    assert not state.stuck
    assert applies(state.rules, Refuse("repeat.reply_told", "", ""))
    assert state.stuck
    replied(state)
    assert applies(state.rules, Refuse("echo.framed", "", ""))
    assert not state.stuck  # a refusal that is no repeat


def test_desktop_code_that_only_sets_states_the_screen_shows_done_is_told_not_run_again(
        tmp_path: Path) -> None:
    """choose("Page 2") proposed again once the screen shows Page 2 chosen changes
    nothing: told, then stopped; so is a block that typed a note and saved it. A press,
    a key, or a state the screen does not show done runs again."""
    from assistant.computer.after import Fact

    state = turn("switch the widget factory to page 2", tmp_path)
    choose = 'computer.choose("Page 2")'
    ran(state, "Chose Page 2 in the window 'Factory'.", code=choose)
    state.on_screen((Fact("'Page 2' is now chosen in the window 'Factory'"),))
    assert state.rerun("shell", choose) == ("told", 2)
    assert applies(state.rules, Refuse("repeat.success_told", "", ""))
    assert state.rerun("shell", choose) == ("stop", 3)
    state.on_screen((Fact("'Page 2' is not chosen in the window 'Factory'", undone=True),))
    assert state.rerun("shell", choose) == ("run", 0)
    for code in ('computer.press("OK")', 'computer.type("hi", window="Memo")',
                 'computer.key("tab")'):
        ran(state, "done", code=code)
        state.on_screen((Fact("the window 'Factory' is still open"),))
        assert state.rerun("shell", code) == ("run", 0), code
    note = 'computer.type("buy milk", into="text area")\ncomputer.key("ctrl+s")'
    ran(state, "Pressed ctrl+s.", code=note)  # the whole job, proposed again: not redone
    state.on_screen((Fact("the text area in the window 'note.txt' holds 'buy milk'"),))
    assert state.rerun("shell", note) == ("told", 2)


def test_a_press_the_screen_shows_left_a_switch_as_asked_is_told_not_run_again(
        tmp_path: Path) -> None:
    """Pressed again, a switch flips back: once the screen shows it on for "switch Record
    on" (off for "turn it off"), the same press is told; left the other way, it runs."""
    from assistant.computer.after import Fact

    press = 'computer.press("Record", window="Factory")'
    for request, shown, again in (("switch the Record button on", "on", "told"),
                                  ("switch the Record button on", "off", "run"),
                                  ("turn the statusbar off", "off", "told"),
                                  ("turn the statusbar off", "on", "run")):
        state = turn(request, tmp_path)
        ran(state, "Pressed Record in the window 'Factory'.", code=press)
        state.on_screen((Fact(f"'Record' is now {shown} in the window 'Factory'",
                              toggled=shown),))
        assert state.rerun("shell", press)[0] == again, (request, shown)


def test_desktop_code_that_succeeded_twice_in_a_row_is_told_the_third_time(
        tmp_path: Path) -> None:
    """A press runs again once (Tab twice is two steps); after two successful runs in a
    row of the same press, the third proposal is told and the fourth stops the turn. A
    failure between, or other code, counts afresh."""
    state = turn("open the tab page 3 in the widget factory", tmp_path)
    press = 'computer.press("page 3", window="Factory")'
    ran(state, "Pressed page 3 in the window 'Factory'.", code=press)
    assert state.rerun("shell", press) == ("run", 0)
    ran(state, "Pressed page 3 in the window 'Factory'.", code=press)
    assert state.rerun("shell", press) == ("told", 2)
    assert applies(state.rules, Refuse("repeat.success_told", "", ""))
    assert state.rerun("shell", press) == ("stop", 3)
    ran(state, "no tab 'page 3'", status=1, code=press)
    ran(state, "Pressed page 3 in the window 'Factory'.", code=press)
    assert state.rerun("shell", press) == ("run", 0)
    ran(state, "Pressed Tab.", code='computer.key("tab")')
    ran(state, "Pressed page 3 in the window 'Factory'.", code=press)
    assert state.rerun("shell", press) == ("run", 0)


def test_desktop_code_that_failed_is_told_not_run_again(tmp_path: Path) -> None:
    """A name not on screen misses again, and the calls before it act again (three runs
    of one failing block opened three new documents)."""
    state = turn("put passport at the top of my list", tmp_path)
    block = 'computer.press("File")\ncomputer.choose("New")\ncomputer.press("Save")'
    ran(state, "NotOnScreen: no button 'Save' on screen", status=1, code=block)
    assert state.rerun("shell", block) == ("told", 2)
    assert state.rerun("shell", 'computer.save(window="list.txt")') == ("run", 0)


def test_code_that_only_types_into_windows_is_told_not_typed_again(tmp_path: Path) -> None:
    state = turn("in the terminal, make a folder photos", tmp_path)
    typed = 'computer.type("mkdir photos\\n", window="Shell")'
    ran(state, "Typed 'mkdir photos\\n' into the window 'Shell'.", code=typed)
    assert state.rerun("shell", typed) == ("told", 2)
    field = 'computer.type("Ana", into="Name")'  # a field: told once the screen shows it
    ran(state, "Typed 'Ana' into 'Name'.", code=field)
    assert state.rerun("shell", field) == ("run", 0)


def test_other_text_typed_into_the_fields_the_screen_shows_just_set_is_told_then_stops(
        tmp_path: Path) -> None:
    """A number box set to 75 as asked, then to 100: told (the model reads that 75 was
    set), then stopped. Other fields, a failed or unchecked last run, or the last run's
    effect not shown done, run."""
    from assistant.computer.after import Fact

    state = turn("the number box shows 50; set it to 75", tmp_path)
    first = 'computer.type("75", into="number field label")'
    ran(state, "Typed '75' into 'label' in the window 'Factory'.", code=first)
    state.on_screen((Fact("the number field 'label' in the window 'Factory' holds '75'"),))
    again = 'computer.type("100", into="number field label")'
    assert state.reset("shell", again) == ("told", 2)
    assert applies(state.rules, Refuse("repeat.reset_told", "", ""))
    assert state.reset("shell", 'computer.type("150", into="number field label")') == \
        ("stop", 3)
    assert state.reset("shell", 'computer.type("Ana", into="Name")') == ("run", 0)
    assert state.reset("shell", first) == ("run", 0)  # the same code: rerun's to judge
    state.on_screen((Fact("'label' does not hold '75'", undone=True),))
    assert state.reset("shell", again) == ("run", 0)
    ran(state, "no field 'label'", status=1, code=first)
    assert state.reset("shell", again) == ("run", 0)
