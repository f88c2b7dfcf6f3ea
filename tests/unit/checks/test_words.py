"""A turn's words when the model has none: what ran printed or wrote, else how it ended;
never empty and never the loop's instructions."""

from __future__ import annotations

from pathlib import Path

from assistant.checks.state import TurnState
from assistant.checks.words import from_record, stand_in
from tests.support.turns import ran, turn


def keep(text: str) -> str:
    return text.replace("s3cret", "[redacted]")


def record(folder: Path) -> TurnState:
    return turn("which file holds the notes?", folder)


def test_what_the_last_successful_run_printed_stands_in(tmp_path: Path) -> None:
    state = record(tmp_path)
    ran(state, "tuesday.txt\n")
    assert stand_in(state, keep) == from_record(state, keep) == "The last run printed:\ntuesday.txt"


def test_a_turn_where_nothing_ran_says_so(tmp_path: Path) -> None:
    state = record(tmp_path)
    assert stand_in(state, keep) == ""
    assert from_record(state, keep) == "Nothing ran in this turn."
    state.declined += ["", "not now"]
    assert from_record(state, keep) == "Nothing ran: 2 proposals declined."


def test_a_failed_last_run_is_said_with_its_last_line_redacted(tmp_path: Path) -> None:
    state = record(tmp_path)
    for status, output in ((0, ""), (1, "Traceback\nKeyError: 's3cret'\n")):
        ran(state, output, status=status)
    assert from_record(state, keep) == (
        "2 runs in this turn; the last failed (exit status 1): KeyError: '[redacted]'")
    ran(state, "", status=None)
    assert from_record(state, keep).endswith("the last did not finish, with no output")


def test_a_quiet_success_says_nothing_changed(tmp_path: Path) -> None:
    state = record(tmp_path)
    ran(state, "")
    assert from_record(state, keep) == (
        "1 run in this turn; the last succeeded and printed nothing, and no file changed.")
