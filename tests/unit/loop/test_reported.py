"""What the model reads after its code ran, and the turn's state after it."""

from __future__ import annotations

from pathlib import Path

from assistant.actions.outcomes import Cleared, Ran
from assistant.events import RunEnd
from assistant.loop.reported import reported
from assistant.loop.turn import RELABELLED
from assistant.runtime.changes import NO_CHANGES
from tests.support.turns import turn


def secret_free(text: str) -> str:
    return text.replace("s3cret", "[redacted]")


def test_a_run_that_left_the_requested_file_empty_is_told_so(tmp_path: Path) -> None:
    (tmp_path / "todo.txt").write_text("")
    state = turn("collect the TODO lines into todo.txt", tmp_path)
    end = RunEnd("1", 0, "", 0.1)
    cleared = Cleared("shell", "grep ^TODO *.py > todo.txt", RELABELLED.format("python", "shell"))
    told, failures = reported(state, Ran(end, "Files in the working directory: created todo.txt.",
                                      ["todo.txt"]), cleared, secret_free)
    assert told.startswith("Ran as shell: this code is shell, not python.\nExit status 0")
    assert "todo.txt is empty" in told
    assert failures == 0 and state.runs == 1 and not state.failed
    assert state.wrote == {"todo.txt"} and state.changed


def test_a_failure_counts_and_what_it_printed_is_redacted(tmp_path: Path) -> None:
    state = turn("show me the token", tmp_path)
    end = RunEnd("1", 1, "token s3cret refused\n", 0.1)
    for times in (1, 2):
        told, failures = reported(state, Ran(end, NO_CHANGES, []), Cleared("shell", "false"),
                                  secret_free)
        assert failures == times
    assert "s3cret" not in told and "[redacted]" in told
    assert state.failed and state.last_exit == 1 and state.runs == 2
    assert state.result == "token [redacted] refused"
    assert state.stuck  # failed twice in a row: the next reply is asked warmer


def test_a_run_failing_on_a_guessed_name_is_told_what_the_folder_holds(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "expenses.csv").write_text("category,amount\n")
    state = turn("which category cost the most?", work, lines=True)
    end = RunEnd("1", 1, "FileNotFoundError: [Errno 2] No such file or directory: "
                 "'transactions.csv'\n", 0.1)
    told, _ = reported(state, Ran(end, NO_CHANGES, []), Cleared("python", "open('t.csv')"),
                       secret_free)
    assert told.endswith("\ntransactions.csv is not there. The working directory holds: "
                         "expenses.csv.")
