"""Dates as people write them, and where GTK's calendar puts a day (dates.py)."""

from __future__ import annotations

import datetime

import pytest

from assistant.computer import dates
from assistant.computer.dates import Shown, Wanted


@pytest.mark.parametrize(("text", "want"), [
    ("14", Wanted(14)),
    ("the 14th", Wanted(14)),
    ("2 June 2027", Wanted(2, 6, 2027)),
    ("June 2nd", Wanted(2, 6)),
    ("Wednesday, 2 June", Wanted(2, 6)),
    ("Sept 30, 2026", Wanted(30, 9, 2026)),
    ("2027-06-02", Wanted(2, 6, 2027)),
    ("25/12/2026", Wanted(25, 12, 2026)),
    ("12/25/2026", Wanted(25, 12, 2026)),
])
def test_a_date_written_any_usual_way_is_read(text: str, want: Wanted) -> None:
    assert dates.wanted(text) == want


@pytest.mark.parametrize("text", ["Dark", "page 2", "3 June 4 June", "03/04/2027", "40",
                                  "June", "2027"])
def test_what_is_not_just_one_date_is_not_read_as_one(text: str) -> None:
    assert dates.wanted(text) is None


def test_a_month_that_begins_on_the_weeks_first_day_starts_on_the_second_row() -> None:
    assert dates.cell(2026, 11, 1, week_start=6) == 7  # 1 November 2026 is a Sunday
    assert dates.cell(2026, 11, 1, week_start=0) == 6  # weeks from Monday: row one's end
    assert dates.cell(2027, 3, 14, week_start=6) == 14  # 1 March 2027 is a Monday


def test_the_month_and_year_left_out_are_those_shown() -> None:
    shown = Shown(3, 2027)
    assert dates.target(Wanted(14), shown) == datetime.date(2027, 3, 14)
    assert dates.target(Wanted(2, 6), shown) == datetime.date(2027, 6, 2)
    with pytest.raises(LookupError, match="April 2027 has 30 days, not 31"):
        dates.target(Wanted(31, 4), shown)
