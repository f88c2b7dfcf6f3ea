"""What the task benchmark's checks share: reading the folder a task left, and the answer.

A check returns None when the job is done, else one line saying what is wrong.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

Check = Callable[[Path, str], "str | None"]


def numbers_in(answer: str) -> list[float]:
    """Every number written in the answer ("1,234.5" and "1234.5" alike)."""
    found = re.findall(r"-?\d[\d,]*(?:\.\d+)?", answer)
    values = []
    for text in found:
        try:
            values.append(float(text.replace(",", "")))
        except ValueError:
            continue
    return values


def says_number(answer: str, value: float, tolerance: float = 0.01) -> str | None:
    if any(abs(found - value) <= tolerance for found in numbers_in(answer)):
        return None
    return f"the answer does not give {value:g}: {answer[:120]!r}"


def says_text(answer: str, *texts: str) -> str | None:
    lowered = answer.lower()
    missing = [t for t in texts if t.lower() not in lowered]
    return f"the answer does not mention {missing[0]!r}: {answer[:120]!r}" if missing else None


def names_first(answer: str, right: str, files: dict[str, str]) -> str | None:
    """The answer names `right` before any other file of `files`: an answer that lists
    every file names the right one too."""
    lowered = answer.lower()
    found = {Path(name).name: lowered.find(Path(name).name.lower()) for name in files}
    named = sorted((at, name) for name, at in found.items() if at >= 0)
    if not named or named[0][1] != right:
        first = named[0][1] if named else "no file"
        return f"the answer names {first} first, not {right!r}: {answer[:120]!r}"
    return None


def read(folder: Path, name: str) -> str | None:
    path = folder / name
    return path.read_text(errors="replace") if path.is_file() else None


def lines_of(text: str) -> list[str]:
    return [line.strip() for line in text.strip().splitlines() if line.strip()]


def first(*problems: str | None) -> str | None:
    return next((p for p in problems if p), None)


def same_file(folder: Path, name: str, text: str) -> str | None:
    found = read(folder, name)
    if found is None:
        return f"{name} is missing"
    return None if found == text else f"{name} was changed"


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text.strip())))


def check_nothing_changed(files: dict[str, str]) -> Check:
    """For questions: the answer is checked by the caller; the files must be untouched."""
    def check(folder: Path, answer: str) -> str | None:
        return first(*(same_file(folder, n, t) for n, t in files.items()))
    return check


def question(name: str, request: str, files: dict[str, str],
             judge: Callable[[str], str | None]) -> dict[str, Any]:
    """A task whose result is the answer; the files it reads must stay as they were."""
    untouched = check_nothing_changed(files)
    return {"name": name, "request": request, "files": files,
            "check": lambda folder, answer: first(untouched(folder, answer), judge(answer))}
