"""The files a run wrote, held against the request that asked for them.

A small model calls its work done when todo.txt is empty, when it wrote
tiny-tool/package.json for package.json, or averages.csv with a column named score where
the user asked for average; shown the file, it still reads it as right. Said in one line
each, from the files themselves, these get fixed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from assistant.requested import field_names, named_files

READ_LIMIT = 1_000_000  # bytes of a written file read for its names
TABLES = {".csv", ".tsv"}
RECORDS = {".json", ".jsonl"}
JSON_KEY = re.compile(r'"((?:[^"\\\n]|\\.)*)"\s*:')


def problems(request: str, folder: Path, wrote: Iterable[str]) -> list[str]:
    """What is wrong with the files `request` names, given the files the turn's runs wrote
    (`wrote`, relative to `folder`): one sentence each; [] when nothing is."""
    wrote = set(wrote)
    kind, fields = field_names(request)
    found: list[str] = []
    for name in named_files(request):
        path = folder / name
        if name in wrote:
            text = _read(path)
            if text is not None and not text.strip():
                found.append(f"{name} is empty: nothing was written into it. Check what your "
                             "code matched or selected against the files it read.")
            elif text is not None and fields and (held := _names(path, text)) is not None:
                absent = [field for field in fields if field not in held]
                if absent:
                    found.append(f"{name} has no {kind} {', '.join(absent)}: the request asks "
                                 f"for the {kind}s {', '.join(fields)}, by those names.")
        elif not path.exists():
            elsewhere = sorted(p for p in wrote if Path(p).name == Path(name).name)
            if elsewhere:
                found.append(f"The request asks for {name} in the working folder, but the "
                             f"run wrote {elsewhere[0]}: write {name} itself.")
    return found


def _read(path: Path) -> str | None:
    try:
        with path.open("rb") as file:
            return file.read(READ_LIMIT).decode("utf-8", errors="replace")
    except OSError:
        return None


def _names(path: Path, text: str) -> set[str] | None:
    """A table's header fields, or the keys in a JSON file; None for other files."""
    suffix = path.suffix.lower()
    if suffix in TABLES:
        header = text.splitlines()[0] if text.strip() else ""
        return {cell.strip().strip('"') for cell in re.split(r"[,\t;]", header)}
    if suffix in RECORDS:
        return set(JSON_KEY.findall(text))
    return None
