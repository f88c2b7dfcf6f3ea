"""Rows copied from a table with their figures written another way.

Asked to filter or merge CSV files, a small model reads them with pandas and writes them
back: 120.50 comes out as 120.5, a column of whole numbers with a gap as 12.0. The run
succeeds, the file looks right to the model, and the person's data has changed. The
tables the turn did not write are the witness from outside the model: a written row that
is one of theirs, cell for cell, but for figures spelled differently, was rewritten where
it was to be copied. A row that was computed (a total, an average) matches no row of
theirs and is never judged.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from pathlib import Path

TABLES = {".csv", ".tsv"}
READ_LIMIT = 1_000_000  # bytes of a file read
SOURCES = 20  # tables of the working folder compared, at most
FIGURE = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)")

Cell = tuple[bool, str | float]  # a figure by its value, other text as it is


def rewritten(name: str, written: str, folder: Path, wrote: set[str],
              named: tuple[str, ...] = ()) -> tuple[str, str, str] | None:
    """(the written spelling, the source's spelling, the source's name) of the first
    figure that a row of `written` (the table `name`) copies from a table the turn did not
    write, spelled differently; None when every copied row kept its figures. The sources
    are the tables `named` by the request and those at the top of `folder`."""
    rows = _rows(name, written)
    if not rows:
        return None
    for source in _sources(folder, wrote | {name}, named):
        originals: dict[tuple[Cell, ...], list[str]] = {}
        for row in _rows(source.name, read_head(source) or ""):
            originals.setdefault(_key(row), row)
        for row in rows:
            original = originals.get(_key(row))
            differ = [(ours.strip(), theirs.strip()) for ours, theirs
                      in zip(row, original or row, strict=True) if ours.strip() != theirs.strip()]
            if differ:
                return *differ[0], source.relative_to(folder).as_posix()
    return None


def _sources(folder: Path, wrote: set[str], named: tuple[str, ...]) -> list[Path]:
    try:
        top = sorted(path.name for path in folder.iterdir()
                     if path.suffix.lower() in TABLES and path.is_file())
    except OSError:
        return []
    candidates = dict.fromkeys(
        [name for name in named if Path(name).suffix.lower() in TABLES] + top)
    found = (folder / name for name in candidates if name not in wrote)
    return list(itertools.islice((path for path in found if path.is_file()), SOURCES))


def read_head(path: Path) -> str | None:
    """The first READ_LIMIT bytes of a file as text; None when it cannot be read."""
    try:
        with path.open("rb") as file:
            return file.read(READ_LIMIT).decode("utf-8", errors="replace")
    except OSError:
        return None


def _rows(name: str, content: str) -> list[list[str]]:
    """The table's rows, header included; [] for text that is not one."""
    delimiter = "\t" if name.lower().endswith(".tsv") else ","
    try:
        return [row for row in csv.reader(io.StringIO(content), delimiter=delimiter) if row]
    except csv.Error:
        return []


def _key(row: list[str]) -> tuple[Cell, ...]:
    """A row as values: 120.50 and 120.5 are one key, 'London' and 'london' two."""
    return tuple((True, float(cell)) if FIGURE.fullmatch(cell.strip()) else (False, cell.strip())
                 for cell in row)
