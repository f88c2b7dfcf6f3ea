"""Reading an answer as it would be spoken: numbers in digits or words ("thirty-six"),
with the figures that are not answers (dates, times, versions, file names, ids) set aside;
and the months, hours of the day and clock times it names, in the order it names them.

The `spoken` reading of numbers and the `answer_when` kind use these.
"""

from __future__ import annotations

import re

UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen"]
TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
SCALES = {"hundred": 100, "thousand": 1000, "million": 1000000}
WORD = "|".join(sorted(UNITS + TENS + list(SCALES), key=len, reverse=True))
WORD_NUMBER = re.compile(rf"\b(?:{WORD})(?:(?:\s+and\s+|[\s-]+)(?:{WORD}))*\b", re.I)
DIGITS = re.compile(r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?!\d)")
# "one" is a pronoun, not a count, after these words or before "of"/"another"
ONE_AS_PRONOUN_AFTER = {"the", "which", "this", "that", "each", "any", "every", "no", "only",
                        "last", "first", "newest", "oldest", "latest", "biggest", "largest",
                        "one", "someone", "anyone"}

NOISE = [
    re.compile(r"https?://\S+"),
    re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),                                # e-mails
    re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?)?"),         # ISO dates
    re.compile(r"\d{1,2}/[A-Za-z]{3}/\d{4}(?::\d{2}:\d{2}:\d{2})?"),           # log dates
    re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b"),                               # clock times
    re.compile(r"\b\d+(?:\.\d+){2,}\b"),                                        # versions, IPs
    re.compile(r"(?:[\w.-]+/)*[\w-]*[A-Za-z_][\w-]*\.[A-Za-z]\w*"),             # file names
    re.compile(r"(?:[\w.-]+/)+[\w.-]*"),                                        # dir paths
    re.compile(r"\b[A-Za-z]+[-_#]\d+\b"),                                       # ids: INV-102
    re.compile(r"\b[0-9a-f]{16,}\b"),                                           # hashes
]


def without_noise(text: str) -> str:
    for pattern in NOISE:
        text = pattern.sub(lambda m: " " * len(m.group()), text)
    return text


def words_to_int(words: str) -> int:
    total = current = 0
    for word in re.split(r"[\s-]+", words.lower()):
        if word in UNITS:
            current += UNITS.index(word)
        elif word in TENS:
            current += (TENS.index(word) + 2) * 10
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in SCALES:
            total += (current or 1) * SCALES[word]
            current = 0
    return total + current


def numbers(answer: str) -> list[float]:
    """Every number in the answer, in order: digits (commas in groups of three) and number
    words; dates, times, versions, file names and ids are not numbers of the answer."""
    text = without_noise(answer)
    found = [(m.start(), float(m.group().replace(",", ""))) for m in DIGITS.finditer(text)]
    for m in WORD_NUMBER.finditer(text):
        if m.group().lower() == "one":
            before = re.findall(r"[A-Za-z]+", text[:m.start()])
            after = re.match(r"\s*([A-Za-z]+)", text[m.end():])
            if (before and before[-1].lower() in ONE_AS_PRONOUN_AFTER) or \
                    (after and after.group(1).lower() in {"of", "another"}):
                continue
        found.append((m.start(), float(words_to_int(m.group()))))
    return [value for _, value in sorted(found)]


def kib_as_bytes(answer: str) -> str:
    """"4 KB" or "4 KiB" written as 4096, for questions answered in bytes."""
    return re.sub(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:kib|kb|k|kilobytes?|kibibytes?)\b",
                  lambda m: str(int(float(m.group(1)) * 1024)), answer, flags=re.I)


MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
MONTH_FORMS = [
    (re.compile(r"(?<![\d/.-])(\d{4})[-/.](\d{1,2})(?!\d)"), "ym"),
    (re.compile(r"(?<![\d/.-])(\d{1,2})[-/.](\d{4})(?!\d)"), "my"),
    (re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+(?:of\s+)?"
                r"(\d{4})\b", re.I), "name"),
]


def months(text: str) -> list[str]:
    """The months named ("2024-01", "01/2024", "January 2024"), as YYYY-MM, in order."""
    found = []
    for pattern, form in MONTH_FORMS:
        for m in pattern.finditer(text):
            first, second = m.group(1), m.group(2)
            if form == "ym":
                year, month = int(first), int(second)
            elif form == "my":
                month, year = int(first), int(second)
            else:
                month, year = MONTHS.index(first.lower()[:3]) + 1, int(second)
            if 1 <= month <= 12:
                found.append((m.start(), f"{year:04d}-{month:02d}"))
    return [month for _, month in sorted(found)]


HOUR_FORMS = [
    re.compile(r"(?<![\d:])(\d{1,2}):\d{2}(?::\d{2})?(?:\s*([ap])\.?m\b\.?)?", re.I),
    re.compile(r"(?<![\d:.])(\d{1,2})\s*(?:[-\u2013]|to)\s*\d{1,2}\s*([ap])\.?m\b", re.I),
    re.compile(r"(?<![\d:.])(\d{1,2})\s*([ap])\.?m\b", re.I),
    re.compile(r"(?<![\d:.])(\d{1,2})\s*(?:h\b|hrs?\b|o'clock)()", re.I),
    re.compile(r"\b(?:hour|at|from|between)\s+(\d{1,2})\b(?![:.]\d)"
               r"(?!\s*(?:requests?|hits?|times|visits?|%))()", re.I),
]


def on_the_clock(hour: int, half: str) -> int:
    """An hour of "2 PM" or "12 am" on the 24-hour clock."""
    if half == "p" and hour < 12:
        return hour + 12
    return 0 if half == "a" and hour == 12 else hour


def hours(text: str) -> list[str]:
    """The hours of the day named ("14:00", "2 PM", "the 2-3pm hour", "14 o'clock"), as
    two digits, in order; dates are not hours."""
    text = re.sub(r"\d{4}-\d{2}-\d{2}", " ", text)
    found: dict[int, str] = {}
    for pattern in HOUR_FORMS:
        for m in pattern.finditer(text):
            half = (m.group(2) or "").lower() if m.lastindex and m.lastindex >= 2 else ""
            hour = on_the_clock(int(m.group(1)), half)
            if 0 <= hour <= 23 and m.start() not in found:
                found[m.start()] = f"{hour:02d}"
    return [found[at] for at in sorted(found)]


def clock_times(text: str) -> list[str]:
    """The clock times named ("17:42:10", "5:42 PM"), as HH:MM, in order."""
    return [f"{on_the_clock(int(m.group(1)), (m.group(3) or '').lower()):02d}:{m.group(2)}"
            for m in re.finditer(r"(?<![\d:])(\d{1,2}):(\d{2})(?::\d{2})?(?:\s*([ap])\.?m\b\.?)?",
                                 text, re.I)]


WHEN = {"month": months, "hour": hours, "clock": clock_times}
