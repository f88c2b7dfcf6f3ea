"""A day chosen in a calendar on screen (GTK's: zenity and yad --calendar, GTK programs).

A GTK calendar publishes its box to the accessibility bus and nothing else: not the month
it shows, not its days, not the day selected. So its heading is read by OCR (the month
and year shown, the first day name), and the day is chosen with the calendar's own keys,
whose effect is known exactly: Ctrl+Right and Ctrl+Left turn the month; Up six times and
Left seven times put the focus on the grid's first cell from wherever it was; Right walks
from there to the day's cell, which follows from the month alone (GTK starts a month that
begins on the week's first day on the second row); Space selects it. Clicks would need
the grid's layout, which depends on the theme and the font.
"""

from __future__ import annotations

import calendar as stdcal
import datetime
import re
import time
from dataclasses import dataclass

from assistant.computer import display, keyboard, ocr
from assistant.computer.capability import Unavailable, load
from assistant.computer.coords import Rect

MONTHS = {name.lower(): number for number, name in enumerate(stdcal.month_name) if name}
MONTHS |= {name.lower(): number for number, name in enumerate(stdcal.month_abbr) if name}
MONTHS["sept"] = 9
WEEKDAYS = {name.lower(): number for number, name in enumerate(stdcal.day_abbr)}
FILLERS = frozenset({"the", "of", "on", "st", "nd", "rd", "th", "day", "date"}) | {
    name.lower() for name in stdcal.day_name} | set(WEEKDAYS)
HEADING_SHARE = 0.45  # of the calendar's height: the month and year, then the day names
ZOOM = 2  # its small type, enlarged: read whole at twice its size, in parts at its own
SETTLE_S = 0.3  # for the calendar to draw what the keys did before it is read again
ISO = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")
SLASHED = re.compile(r"^\s*(\d{1,2})[/.](\d{1,2})[/.](\d{4})\s*$")


@dataclass(frozen=True)
class Wanted:
    """A day, with the month and year when they were given."""

    day: int
    month: int | None = None
    year: int | None = None


@dataclass(frozen=True)
class Shown:
    """What a calendar's heading says: the month and year it shows, and the weekday its
    rows start on (Python's numbering: Monday 0, Sunday 6)."""

    month: int
    year: int
    week_start: int = 6

    def __str__(self) -> str:
        return f"{stdcal.month_name[self.month]} {self.year}"


def wanted(text: str) -> Wanted | None:
    """The date in `text` ("14", "the 14th", "2 June 2027", "June 2", "2027-06-02",
    "02/06/2027" when one side is over 12), or None when it is not just a date."""
    iso = ISO.match(text)
    if iso:
        return _checked(int(iso[3]), int(iso[2]), int(iso[1]))
    slashed = SLASHED.match(text)
    if slashed:
        first, second = int(slashed[1]), int(slashed[2])
        if first > 12 >= second:
            return _checked(first, second, int(slashed[3]))
        if second > 12 >= first:
            return _checked(second, first, int(slashed[3]))
        return None  # 03/04/2027: March the 4th or the 3rd of April
    words = re.findall(r"[a-z]+|\d+", text.lower())
    months = [MONTHS[w] for w in words if w in MONTHS]
    years = [int(w) for w in words if w.isdigit() and len(w) == 4]
    days = [int(w) for w in words if w.isdigit() and len(w) <= 2]
    others = [w for w in words if w.isalpha() and w not in MONTHS and w not in FILLERS]
    if others or len(months) > 1 or len(years) > 1 or len(days) != 1:
        return None
    return _checked(days[0], months[0] if months else None, years[0] if years else None)


def _checked(day: int, month: int | None, year: int | None) -> Wanted | None:
    if not 1 <= day <= 31 or (month is not None and not 1 <= month <= 12):
        return None
    return Wanted(day, month, year)


def heading(box: Rect) -> Shown | None:
    """The month, year and week start a calendar in `box` shows, read by OCR; None when
    its heading does not read as a month and a year."""
    top = Rect(box.left, box.top, box.width, max(1, int(box.height * HEADING_SHARE)))
    image = display.grab(top)
    image = image.resize((image.width * ZOOM, image.height * ZOOM),
                         load("PIL.Image").Resampling.LANCZOS)
    try:
        items = ocr.read(image)
    except Unavailable:  # no OCR engine: the calendar is said without its month
        return None
    words = [w for item in items for w in re.findall(r"[a-z]+|\d+", item["text"].lower())]
    months = [MONTHS[w] for w in words if w in MONTHS]
    years = [int(w) for w in words if w.isdigit() and len(w) == 4]
    if not months or not years:
        return None
    starts = [WEEKDAYS[w[:3]] for w in words if w[:3] in WEEKDAYS and w not in MONTHS]
    return Shown(months[0], years[0], starts[0] if starts else 6)


def cell(year: int, month: int, day: int, week_start: int) -> int:
    """The day's cell in GTK's grid of 6 rows of 7, counted from the top left."""
    first = (datetime.date(year, month, 1).weekday() - week_start) % 7 or 7
    return first + day - 1


def target(want: Wanted, shown: Shown) -> datetime.date:
    """The date meant: the month and year shown where `want` leaves them out; a day the
    month does not have is a miss that says so."""
    month, year = want.month or shown.month, want.year or shown.year
    last = stdcal.monthrange(year, month)[1]
    if want.day > last:
        raise LookupError(f"{stdcal.month_name[month]} {year} has {last} days, not "
                          f"{want.day}")
    return datetime.date(year, month, want.day)


def pick(box: Rect, want: Wanted) -> datetime.date:
    """Choose the day in the calendar in `box`, which has the keyboard focus; the date
    chosen. Its heading is read again after: a month it did not turn to is a miss."""
    shown = heading(box)
    if shown is None:
        raise LookupError("the calendar's month and year could not be read from the "
                          "screen: click the day with computer.mouse.click")
    date = target(want, shown)
    turns = (date.year * 12 + date.month) - (shown.year * 12 + shown.month)
    for _ in range(abs(turns)):
        keyboard.hotkey("ctrl", "right" if turns > 0 else "left")
    keyboard.press("up", presses=6)
    keyboard.press("left", presses=7)
    keyboard.press("right", presses=cell(date.year, date.month, date.day, shown.week_start))
    keyboard.press("space")
    time.sleep(SETTLE_S)
    now = heading(box)
    if now is None or (now.month, now.year) != (date.month, date.year):
        raise LookupError(f"the calendar shows {now or 'a month that cannot be read'}, "
                          f"not {stdcal.month_name[date.month]} {date.year}")
    return date


def said(date: datetime.date) -> str:
    """How a sentence gives the date: "14 March 2027"."""
    return f"{date.day} {stdcal.month_name[date.month]} {date.year}"
