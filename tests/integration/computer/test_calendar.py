"""A day chosen in a real GTK calendar (zenity's and yad's), under openbox with the
accessibility bus up. The calendar publishes nothing but its box, so its month is read
off the screen and the day chosen with its own keys; the date the dialog prints proves
what was chosen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from assistant import computer
from assistant.computer import aim, screen_text
from tests.support.desktop import Program, desktop

ZENITY = ("zenity", "--calendar", "--title=Appointment", "--day=10", "--month=3",
          "--year=2027", "--date-format=%Y-%m-%d")


@pytest.fixture(scope="module", autouse=True)
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop() as name:
        yield name


def test_the_screen_says_the_month_a_calendar_shows_and_the_approval_names_it() -> None:
    with Program(*ZENITY) as dialog:
        dialog.focused("Appointment")
        assert 'calendar showing "March 2027"' in str(screen_text.screen())
        [said] = [each.sentence for each in aim.foresee('computer.choose("14")')]
        assert said == ("Chooses the day '14' in the calendar in the dialog 'Appointment', "
                        "which shows March 2027")


def test_a_day_of_the_month_shown_is_chosen_and_ok_prints_it() -> None:
    with Program(*ZENITY) as dialog:
        dialog.focused("Appointment")
        assert computer.choose("the 14th") == \
            "Chose 14 March 2027 in the calendar in the dialog 'Appointment'."
        assert dialog.running()  # not confirmed unasked
        computer.press("OK")
        assert dialog.result() == (0, "2027-03-14")


def test_a_day_chosen_into_the_calendar_as_models_write_it_is_chosen() -> None:
    with Program(*ZENITY) as dialog:
        dialog.focused("Appointment")
        computer.choose("23", into="Calendar")  # no window so titled: the day by its name
        computer.choose("24", into="Appointment")  # the window so titled
        computer.press("OK")
        assert dialog.result() == (0, "2027-03-24")


def test_a_date_typed_into_the_calendars_window_turns_the_months_back() -> None:
    with Program(*ZENITY) as dialog:
        dialog.focused("Appointment")
        computer.type("2026-11-01", window="Appointment")  # a Sunday: GTK's second row
        computer.press("OK")
        assert dialog.result() == (0, "2026-11-01")


def test_a_yad_calendar_turns_to_the_month_named_after_a_day_chosen_before() -> None:
    with Program("yad", "--calendar", "--title=Delivery", "--day=20", "--month=5",
                 "--year=2027", "--date-format=%Y-%m-%d") as dialog:
        dialog.focused("Delivery")
        computer.choose("27")
        assert computer.choose("2 June 2027") == \
            "Chose 2 June 2027 in the calendar in the window 'Delivery'."
        computer.press("OK")
        assert dialog.result() == (0, "2027-06-02")


def test_a_day_the_month_lacks_is_a_miss_that_says_so() -> None:
    with Program(*ZENITY) as dialog:
        dialog.focused("Appointment")
        with pytest.raises(LookupError, match="February 2027 has 28 days, not 30"):
            computer.choose("30 February 2027")
        assert dialog.running()
