"""How a task suite reads files and answers, and the facts of this machine its questions
ask about.

Suites were written apart and each reads its own way (how numbers are written, what
counts as a mention, whether trailing blanks matter); a suite's `reading` names its way
once, so one check kind judges each suite as its author wrote it.
"""

from __future__ import annotations

import contextlib
import os
import platform
import re
import socket
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.tasks import spoken as tasks_spoken

READINGS: dict[str, tuple[str, ...]] = {
    # "1,234.5" as 1234.5, commas anywhere between digits; thousands separators
    # (, space _ ' and no-break space) before each group of three digits; or commas in
    # whole groups of three only, a whole number up to twenty also in words ("five"); or
    # commas before a last group of three dropped, and every number word up to twenty; or
    # as spoken (spoken.py): digits or words ("thirty-six"), dates, times, versions,
    # file names and ids set aside
    "numbers": ("commas", "separators", "grouped", "words", "spoken"),
    # a word is mentioned anywhere (case aside), or only as a whole token (optionally plural)
    "mentions": ("substring", "token"),
    # files compare byte for byte, up to line endings and trailing blanks, or up to
    # trailing blanks only
    "text": ("exact", "trimmed", "rstripped"),
    # undecodable bytes are replaced, or the file counts as unreadable
    "decode": ("replace", "strict"),
    # lines split as str.splitlines after a strip, or at "\n" only (CRLF as LF)
    "lines": ("splitlines", "newlines"),
}


NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
                "sixteen", "seventeen", "eighteen", "nineteen", "twenty")


@dataclass(frozen=True)
class Reading:
    numbers: str
    mentions: str
    text: str
    decode: str
    lines: str


@dataclass(frozen=True)
class Context:
    """What a check sees besides its arguments: the task's folder, answer and files."""

    folder: Path
    answer: str
    files: dict[str, str]
    reading: Reading
    reports: Any = None  # a desktop task's tasks_desktop.Reports, once its turn is over

    def read(self, name: str) -> str | None:
        path = self.folder / name
        if self.reading.decode == "replace":
            return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def same(self, found: str | None, text: str, compare: str = "") -> bool:
        if found is None:
            return False
        compare = compare or self.reading.text
        if compare == "stripped":
            return found.strip() == text.strip()
        if compare == "rstripped":
            return found.rstrip() == text.rstrip()
        if compare == "trimmed":
            return found.replace("\r\n", "\n").rstrip() == text.replace("\r\n", "\n").rstrip()
        return found == text

    def lines(self, text: str | None) -> list[str]:
        if text is None:
            return []
        if self.reading.lines == "splitlines":
            raw = text.strip().splitlines()
        else:
            raw = text.replace("\r\n", "\n").split("\n")
        return [line.strip() for line in raw if line.strip()]

    def numbers(self, text: str) -> list[float]:
        if self.reading.numbers == "spoken":
            return tasks_spoken.numbers(text or "")
        if self.reading.numbers == "commas":
            found = [t.replace(",", "") for t in re.findall(r"-?\d[\d,]*(?:\.\d+)?", text)]
        elif self.reading.numbers == "words":
            plain = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text or "")
            found = re.findall(r"\d+(?:\.\d+)?", plain)
            found += [str(NUMBER_WORDS.index(w)) for w in re.findall(r"[a-z]+", plain.lower())
                      if w in NUMBER_WORDS]
        elif self.reading.numbers == "grouped":
            found = [m.replace(",", "") for m in re.findall(
                r"(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\d)", text or "")]
        else:
            plain = re.sub(r"(?<=\d)[,\u00a0 _'](?=\d{3}(?!\d))", "", (text or "").lower())
            found = re.findall(r"-?\d+(?:\.\d+)?", plain)
        values = []
        for item in found:
            try:
                values.append(float(item))
            except ValueError:
                continue
        return values

    def has_number(self, text: str, value: float, tolerance: float) -> bool:
        if any(abs(found - value) <= tolerance for found in self.numbers(text)):
            return True
        if self.reading.numbers == "grouped" and value == int(value) and 0 <= value < 21:
            word = NUMBER_WORDS[int(value)]
            return re.search(rf"\b{word}\b", (text or "").lower()) is not None
        return False

    def mentions(self, word: str, plural: bool = False) -> bool:
        if self.reading.mentions == "substring":
            return word.lower() in self.answer.lower()
        pattern = (r"(?<![\w.-])" + re.escape(word.lower()) + (r"(?:e?s)?" if plural else "")
                   + r"(?![\w-]|\.\w)")
        return re.search(pattern, (self.answer or "").lower()) is not None


# --- facts of this machine, for questions about it --------------------------------------

def usable_cpus() -> list[float]:
    counts = {os.cpu_count() or 0}
    with contextlib.suppress(AttributeError, OSError):
        counts.add(len(os.sched_getaffinity(0)))
    return sorted(float(n) for n in counts if n)


def node_version() -> str:
    done = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False)
    return done.stdout.strip().lstrip("v")


# each reads the machine, or the file system holding the task's folder
FACTS: dict[str, Callable[[Path], Any]] = {
    "cpu_count": lambda _: [float(os.cpu_count() or 0)],
    "usable_cpus": lambda _: usable_cpus(),
    "hostname": lambda _: socket.gethostname(),
    # the full name or the part before the first dot, either will do
    "hostnames": lambda _: [socket.gethostname().lower(),
                            socket.gethostname().split(".")[0].lower()],
    "kernel_release": lambda _: platform.release(),
    "node_version": lambda _: node_version(),
    "page_size": lambda _: float(os.sysconf("SC_PAGE_SIZE")),
    "name_max": lambda folder: float(os.pathconf(str(folder), "PC_NAME_MAX")),
}


def fact_or(c: Context, args: dict[str, Any], key: str) -> Any:
    return FACTS[args["fact"]](c.folder) if "fact" in args else args[key]


