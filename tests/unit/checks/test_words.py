"""A turn's words when the model has none: what ran printed or wrote, else how it ended;
never empty and never the loop's instructions."""

from __future__ import annotations

from pathlib import Path

from assistant.checks.answers import AnswerCheck
from assistant.checks.record import TurnRecord
from assistant.checks.words import from_record, stand_in
from assistant.events import RunEnd


def keep(text: str) -> str:
    return text.replace("s3cret", "[redacted]")


def record(folder: Path) -> TurnRecord:
    return TurnRecord(AnswerCheck("which file holds the notes?", folder))


def test_what_the_last_successful_run_printed_stands_in(tmp_path: Path) -> None:
    turn = record(tmp_path)
    turn.answer.ran("tuesday.txt\n", "", True)
    turn.ran(RunEnd("1", 0, "tuesday.txt\n", 0.1))
    assert stand_in(turn, keep) == from_record(turn, keep) == "The last run printed:\ntuesday.txt"


def test_a_turn_where_nothing_ran_says_so(tmp_path: Path) -> None:
    turn = record(tmp_path)
    assert stand_in(turn, keep) == ""
    assert from_record(turn, keep) == "Nothing ran in this turn."
    turn.declined += ["", "not now"]
    assert from_record(turn, keep) == "Nothing ran: 2 proposals declined."


def test_a_failed_last_run_is_said_with_its_last_line_redacted(tmp_path: Path) -> None:
    turn = record(tmp_path)
    for status, output in ((0, ""), (1, "Traceback\nKeyError: 's3cret'\n")):
        turn.answer.ran(output, "", status == 0)
        turn.ran(RunEnd("1", status, output, 0.1))
    assert from_record(turn, keep) == (
        "2 runs in this turn; the last failed (exit status 1): KeyError: '[redacted]'")
    turn.ran(RunEnd("2", None, "", 0.1))
    assert from_record(turn, keep).endswith("the last did not finish, with no output")


def test_a_quiet_success_says_nothing_changed(tmp_path: Path) -> None:
    turn = record(tmp_path)
    turn.ran(RunEnd("1", 0, "", 0.1))
    assert from_record(turn, keep) == (
        "1 run in this turn; the last succeeded and printed nothing, and no file changed.")
