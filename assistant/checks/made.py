"""The files a run wrote, held against the request that asked for them.

A small model calls its work done when todo.txt is empty, when it wrote
tiny-tool/package.json for package.json, or averages.csv with a column named score where
the user asked for average; shown the file, it still reads it as right. Said in one line
each, from the files themselves, these get fixed.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from pathlib import Path

from assistant.checks.requested import Request
from assistant.messages import untrusted
from assistant.texts import text

READ_LIMIT = 1_000_000  # bytes of a written file read for its names
TABLES = {".csv", ".tsv"}
RECORDS = {".json", ".jsonl"}
JSON_KEY = re.compile(r'"((?:[^"\\\n]|\\.)*)"\s*:')
# A word a request looks for: quoted ('colour', "TODO") or in capitals (TODO, FIXME).
SEARCHED = re.compile(r"""['"`]([^'"`\n]{2,40})['"`]|\b([A-Z][A-Z_]{2,})\b""")
SEARCHED_FILES = 300  # entries of the working folder looked through for it, at most


def problems(request: Request | str, folder: Path, wrote: Iterable[str],
             lines: bool = False) -> list[str]:
    """What is wrong with the files `request` names, given the files the turn's runs wrote
    (`wrote`, relative to `folder`): one sentence each; [] when nothing is. With `lines`,
    an empty file's sentence quotes a line of the user's files holding what the request
    looks for (only for a model on this machine: it is the files' text)."""
    asks = request if isinstance(request, Request) else Request.parse(request)
    wrote = set(wrote)
    kind, fields = asks.field_kind, asks.fields
    found: list[str] = []
    for name in asks.files:
        path = folder / name
        if name in wrote:
            held_text = _read(path)
            if held_text is not None and not held_text.strip():
                seen = _sighting(asks.text, folder, wrote) if lines else ""
                found.append(text("made.empty").format(name=name, seen=seen))
            elif held_text is not None and fields and (
                    held := _names(path, held_text)) is not None:
                absent = [field for field in fields if field not in held]
                if absent:
                    found.append(text("made.fields").format(
                        name=name, kind=kind, absent=", ".join(absent), fields=", ".join(fields)))
        elif not path.exists():
            elsewhere = sorted(p for p in wrote if Path(p).name == Path(name).name)
            if elsewhere:
                found.append(text("made.elsewhere").format(name=name, wrote=elsewhere[0]))
    return found


def _sighting(request: str, folder: Path, wrote: set[str]) -> str:
    """Where a word the request looks for appears in the working folder's files: the
    evidence that an empty result missed it ('# TODO: retry' read by startswith('TODO'))."""
    terms = [quoted or capitals for quoted, capitals in SEARCHED.findall(request)]
    if not terms:
        return ""
    for path in sorted(itertools.islice(folder.rglob("*"), SEARCHED_FILES)):
        relative = path.relative_to(folder).as_posix()
        if relative in wrote or not path.is_file():
            continue
        content = _read(path) or ""
        if "\0" in content[:8192]:
            continue
        for number, line in enumerate(content.splitlines(), 1):
            term = next((term for term in terms if term in line), "")
            if term:
                return text("made.sighting").format(
                    term=term, path=relative, number=number,
                    line=untrusted("line", line.strip()[:120]))
    return ""


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
