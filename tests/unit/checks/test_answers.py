"""Checks on a final answer: what they catch, and what they let through."""

from __future__ import annotations

from pathlib import Path

from assistant.actions.apply import applies, chosen, first
from assistant.checks.answers import (
    NEVER_RAN,
    NO_FIGURE,
    NO_RUN,
    REFUSED,
    SHOWN_ONLY,
    UNCHANGED,
    UNSEEN_NAMES,
    UNSEEN_NUMBERS,
    Finding,
    grounded,
    numbers,
    pending,
    unasked,
    with_pending,
)
from assistant.checks.reply import confirm
from assistant.checks.state import TurnState
from assistant.checks.verdicts import SendBack
from assistant.runtime.changes import NO_CHANGES
from tests.support.turns import ran, turn

CREATED = "Files in the working directory: created out.txt."


def after_run(request: str, folder: Path, output: str, changes: str = NO_CHANGES,
              code: str = "...") -> TurnState:
    """The state of a turn in which one proposal ran."""
    check = turn(request, folder)
    ran(check, output, changes, code=code)
    return check


def problem(state: TurnState, answer: str) -> str | None:
    """What the model is told of `answer`, as the loop applies it: the first finding whose
    rule may act, fired as sent back; None to accept it."""
    found = chosen(state.rules, unasked(state, answer))
    if found is None:
        return None
    assert applies(state.rules, SendBack(found.rule, {}, "", found.detail))
    return found.told


def unconfirmed(state: TurnState, answer: str) -> str | None:
    """What the user is told of an accepted answer a check still doubts."""
    note = first(state.rules, confirm(answer, state))
    return note.note if note is not None else None


def test_numbers_ignore_separators_list_markers_and_single_digits() -> None:
    assert numbers("1. The total is 5,186.50 from 3 files, port 6432.\n2. -12 left") == {
        5186.5, 6432.0, -12.0}


def test_a_question_about_this_machine_answered_without_code_is_sent_back(
        tmp_path: Path) -> None:
    check = turn("how many CPU cores does this machine have?", tmp_path)
    assert problem(check, "4") == NO_RUN
    assert problem(check, "4") is None  # once a turn


def test_a_general_question_answered_without_code_is_accepted(tmp_path: Path) -> None:
    assert problem(turn("what is a CSV file?", tmp_path), "Comma-separated values.") is None


def test_a_figure_no_output_shows_is_sent_back(tmp_path: Path) -> None:
    check = after_run("which port does the database use in config.json?", tmp_path,
                      "6432\n",
                      code="print(json.load(open('config.json'))['database']['port'])")
    assert problem(check, "The database uses port 5432.") == UNSEEN_NUMBERS.format("5432")


def test_figures_from_the_output_request_or_earlier_turns_are_accepted(tmp_path: Path) -> None:
    check = turn("what is the total of sales.csv, in 2026 terms?", tmp_path,
                        context="The tax rate is 19.6 percent.")
    ran(check, "total: 5186.5\n", NO_CHANGES, code="...")
    assert problem(check, "The total is $5,186.50 for 2026, at 19.6 % tax, in 3 rows.") is None


def test_nothing_is_asked_when_every_proposal_was_declined(tmp_path: Path) -> None:
    check = turn("how big is this folder?", tmp_path)
    check.code.append("du -sh .")
    assert problem(check, "I did not run it, as you declined.") is None


def test_a_question_naming_a_file_here_answered_without_code_is_sent_back(
        tmp_path: Path) -> None:
    (tmp_path / "stock.json").write_text("[]")
    assert problem(turn("which item in stock.json is lowest?", tmp_path), "item1") == NO_RUN


def test_a_change_to_a_file_here_that_changed_nothing_is_sent_back(tmp_path: Path) -> None:
    (tmp_path / "config.ini").write_text("[server]\nport = 8080\n")
    check = after_run("change the server port in config.ini to 9090", tmp_path, "", code="...")
    assert problem(check, "The port is changed to 9090.") == UNCHANGED.format("config.ini")


def test_a_change_that_changed_a_file_or_cannot_be_told_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "config.ini").write_text("[server]\nport = 8080\n")
    for changes in ("Files in the working directory: modified config.ini.", ""):
        check = turn("change the server port in config.ini to 9090", tmp_path)
        ran(check, "", changes, code="...")
        assert problem(check, "The port is changed to 9090.") is None, changes


def test_a_path_that_exists_nowhere_and_no_output_showed_is_sent_back(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir(exist_ok=True)  # the tests' data folder may be there already
    (tmp_path / "data" / "big.bin.txt").write_text("x" * 5000)
    check = after_run("which file in data is the largest?", tmp_path,
                      "total 16K\n",
                      code="ls -lh data | sort -hr | head -n 1")
    invented = f"{tmp_path}/data/2026-11-23_14_59_08.csv"
    assert problem(check, f"The largest is `{invented}`.") == UNSEEN_NAMES.format(invented)


def test_paths_that_exist_or_were_seen_are_accepted(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir(exist_ok=True)
    (tmp_path / "data" / "big.bin.txt").write_text("x")
    check = after_run("clean up old.log and find the largest file", tmp_path,
                      "big.bin.txt\n",
                      code="rm old.log; ls -S data | head -1")
    assert problem(check, "Removed old.log; the largest is data/big.bin.txt, then "
                         f"{tmp_path}/data/big.bin.txt.") is None


def test_a_figure_from_the_system_message_is_accepted(tmp_path: Path) -> None:
    check = turn("what is today's date?", tmp_path, context="Date: 2026-11-23 (Monday)")
    ran(check, "2026-11-23\n", NO_CHANGES, code="date +%F")
    assert problem(check, "Today is 2026-11-23.") is None


def test_a_quoted_value_no_output_showed_is_sent_back(tmp_path: Path) -> None:
    check = after_run("what is the hostname of this computer?", tmp_path, "vm\n", code="hostname")
    assert problem(check, "The hostname is `localhost`.") == UNSEEN_NAMES.format("localhost")
    quoted = after_run("what is the hostname of this computer?", tmp_path, "vm\n", code="hostname")
    assert problem(quoted, "The hostname of this computer is `vm` (from `hostname`).") is None


def test_a_file_only_shown_in_a_block_is_sent_back_saying_blocks_like_it_never_run(
    tmp_path: Path,
) -> None:
    """Won a task of the fresh suite: config.json shown in a ```javascript block, never
    written, until the model was told such blocks never run."""
    check = turn("create a package.json for a project named tiny-tool", tmp_path)
    told = problem(check, '```json\n{"name": "tiny-tool"}\n```')
    assert told == SHOWN_ONLY.format("writes it to package.json", "json")
    assert "code that writes it to package.json, then check" in told
    assert unconfirmed(check, "```json\n{}\n```") == (
        "Not confirmed by what ran: the json block was only shown; nothing was written.")
    (tmp_path / "settings.json").write_text('{"debug": true}')
    edit = turn("in settings.json, set debug to false", tmp_path)
    assert problem(edit, '```\n{"debug": false}\n```') == SHOWN_ONLY.format("does it",
                                                                             "untagged")
    question = turn("what is in settings.json?", tmp_path)
    shown = problem(question, '```json\n{"debug": false}\n```')
    assert shown != SHOWN_ONLY.format("does it", "json")


def test_a_change_to_files_here_that_changed_nothing_is_sent_back(tmp_path: Path) -> None:
    check = after_run("rename the .jpeg files here to .jpg", tmp_path,
                      "mv: target '*.jpg': No such file or directory\n",
                      code="mv *.jpeg *.jpg")
    ran(check, "beach.jpeg\ncat.jpeg\n", NO_CHANGES, code="ls -l *.jpeg")
    assert problem(check, "The task is done.") == UNCHANGED.format("everything here")
    summed = after_run("add up the numbers in the .txt files here", tmp_path, "1123\n")
    assert problem(summed, "The sum is 1123.") is None  # a sum, not a change


def test_a_change_elsewhere_is_not_judged_by_the_working_folder(tmp_path: Path) -> None:
    check = after_run("add an alias ll='ls -l' to my .bashrc", tmp_path,
                      "",
                      code="echo \"alias ll='ls -l'\" >> ~/.bashrc")
    assert problem(check, "The alias is added.") is None


def test_an_answer_that_stays_wrong_is_marked_unconfirmed_for_the_user(tmp_path: Path) -> None:
    check = after_run("which port is in config.json?", tmp_path, "6432\n")
    assert unconfirmed(check, "Port 5432.") is None  # the model is asked first
    assert problem(check, "Port 5432.") == UNSEEN_NUMBERS.format("5432")
    assert unconfirmed(check, "Port 5432.") == (
        "Not confirmed by what ran: 5432 appears in no output.")
    assert unconfirmed(check, "Port 6432.") is None


def test_an_answer_is_grounded_by_what_a_successful_run_printed(tmp_path: Path) -> None:
    check = turn("use node to count the active users in users.json", tmp_path)
    ran(check, "Number of active users: 4\n", NO_CHANGES)
    ran(check, "Error: Cannot find module 'count.js'\n7 frames\n", NO_CHANGES, status=1)
    assert grounded(check, "There are 4 active users.")
    assert not grounded(check, "There are 7 active users.")  # printed only by the failure
    assert not grounded(check, "The task is done.")
    assert grounded(check, "The count is in `Number of active users`.")


def test_an_empty_file_the_request_asked_for_is_sent_back_once(tmp_path: Path) -> None:
    (tmp_path / "todo.txt").write_text("")
    check = turn("collect the TODO lines of the .py files into todo.txt", tmp_path)
    ran(check, "", CREATED)
    check.wrote.add("todo.txt")
    told = problem(check, "todo.txt now holds every TODO.")
    assert told is not None and told.startswith("todo.txt is empty")
    assert problem(check, "todo.txt now holds every TODO.") is None
    assert unconfirmed(check, "todo.txt now holds every TODO.") == (
        "Not confirmed by what ran: todo.txt is empty: nothing was written into it. Check "
        "what your code matched or selected against the files it read.")
    assert problem(check, "There are no TODO lines, so todo.txt is empty.") is None


def test_a_refusal_with_nothing_run_is_told_that_code_runs_here(tmp_path: Path) -> None:
    check = turn("replace every 'colour' with 'color' in the .md files here", tmp_path)
    assert problem(check, "I cannot access or modify files on this machine.") == REFUSED
    unsure = turn("what version is in package.json?", tmp_path)
    assert problem(unsure, "I cannot provide that without running some code.") == REFUSED
    ran = after_run("replace every 'colour' with 'color' in notes.md", tmp_path, "",
                    CREATED)
    assert problem(ran, "I can't edit it, the file is read-only.") is None


def test_each_kind_of_check_is_asked_once_and_two_at_most(tmp_path: Path) -> None:
    check = turn("replace every 'colour' with 'color' in the .md files here", tmp_path)
    assert problem(check, "I cannot access your files.") == REFUSED
    assert problem(check, "Done, every colour is now color.") == NO_RUN
    assert problem(check, "I cannot access your files.") is None
    assert unconfirmed(check, "I cannot access your files.") == (
        "Not confirmed by what ran: nothing ran.")


def test_a_script_the_request_asks_to_run_that_no_code_ran_is_sent_back(tmp_path: Path) -> None:
    (tmp_path / "sum.js").write_text("console.log(1)\n")
    (tmp_path / "numbers.txt").write_text("1\n")
    request = "write a Node.js script sum.js that prints the sum of numbers.txt, run it"
    written = "require('fs').writeFileSync('sum.js', 'console.log(1)')"
    check = after_run(request, tmp_path, "", CREATED, code=written)
    assert problem(check, "The sum is 1.") == NEVER_RAN.format("node sum.js", "sum.js")
    for runs in ("node sum.js", "cd . && node ./sum.js", "python3 -c 1; require('./sum.js')"):
        assert problem(after_run(request, tmp_path, "1\n", CREATED, code=runs), "1") is None
    unasked = after_run("write sum.js that prints 1", tmp_path, "", CREATED, code=written)
    assert problem(unasked, "sum.js is written.") is None


def test_a_question_about_a_folder_here_answered_without_code_is_sent_back(
        tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    check = turn("in which file under lib/ is the function parse_date defined?", tmp_path)
    assert problem(check, "It is defined in lib/date_utils.py.") == NO_RUN


def test_a_second_answer_without_code_is_told_what_else_is_wrong_with_it(
        tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    check = turn("in which file under lib/ is the function parse_date defined?", tmp_path)
    assert problem(check, "It is in lib/dates.py.") == NO_RUN
    assert problem(check, "It is in lib/parse_date.py.") == UNSEEN_NAMES.format(
        "lib/parse_date.py")
    assert problem(check, "It is in lib/parse_date.py.") is None  # two a turn
    general = turn("what is 15 times 3?", tmp_path)
    assert problem(general, "45") is None  # not about this machine: no run needed


def test_an_answer_without_the_figure_asked_for_is_sent_back(tmp_path: Path) -> None:
    (tmp_path / "sum.js").write_text("console.log(1123)\n")
    (tmp_path / "numbers.txt").write_text("1123\n")
    request = "write sum.js that prints the sum of numbers.txt, run it, and tell me the sum"
    check = after_run(request, tmp_path, "1123\n", code="node sum.js")
    assert problem(check, "sum.js was written and run: the sum is printed.") == NO_FIGURE.format(
        "tell me the sum")
    # no answer yet: nothing to miss in it
    assert with_pending("told", chosen(check.rules, pending(check))) == "told"
    for answer in ("The sum is 1123.", "There are no errors.", "Four users are active.",
                   "I could not run sum.js."):
        assert problem(after_run(request, tmp_path, "1123\n", code="node sum.js"),
                       answer) is None, answer
    unasked = after_run("sort names.txt into sorted.txt", tmp_path, "", code="sort")
    assert problem(unasked, "sorted.txt holds the names in order.") is None


def shown_a_window(request: str, folder: Path) -> TurnState:
    """The state of a turn that was shown the windows on screen."""
    state = turn(request, folder)
    state.desktop = True
    return state


def finding(state: TurnState, answer: str) -> Finding | None:
    """The first finding the model would be told of `answer`, not applied."""
    return chosen(state.rules, unasked(state, answer))


def test_asked_to_act_on_a_window_an_answer_of_steps_goes_back(tmp_path: Path) -> None:
    check = shown_a_window("choose Dark and press OK", tmp_path)
    answer = "1. Click the Dark option.\n2. Press the OK button."
    found = finding(check, answer)
    assert found is not None and found.rule == "answer.screen"
    assert "Nothing was done on screen" in found.told
    assert unconfirmed(check, answer) is None  # told nothing yet: the answer is not doubted


def test_asked_to_act_without_a_window_shown_the_screen_rule_keeps_out(tmp_path: Path) -> None:
    check = turn("press the button on my keyboard that mutes", tmp_path)
    found = finding(check, "Press F1 to mute.")
    assert found is None or found.rule != "answer.screen"


def test_done_called_over_a_field_the_screen_shows_undone_goes_back(tmp_path: Path) -> None:
    from assistant.computer.after import Fact

    check = shown_a_window("type many into Copies", tmp_path)
    ran(check, "Typed 'many' into 'Copies:' in the window 'Order'.\n",
        code='computer.type("many", into="Copies:")')
    check.on_screen((Fact("the field 'Copies:' in the window 'Order' holds '0'", True),))
    found = finding(check, "Done: Copies now says many.")
    assert found is not None and found.rule == "answer.screen"
    assert "holds '0'" in found.told and found.told.startswith("The screen does not show it done")
    assert finding(check, "I could not: the field takes only numbers and holds 0.") is None


def test_done_called_over_what_the_screen_shows_done_is_accepted(tmp_path: Path) -> None:
    from assistant.computer.after import Fact

    check = shown_a_window("click Yes", tmp_path)
    ran(check, "Pressed Yes in the dialog 'Export'.\n", code='computer.press("Yes")')
    check.on_screen((Fact("the dialog 'Export' is gone"),))
    assert finding(check, "Pressed Yes; the dialog is gone.") is None
