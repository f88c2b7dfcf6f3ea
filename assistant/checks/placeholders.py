"""Paths in proposed code that cannot be the user's files: a placeholder for a path the
model did not know (/path/to/your/files), or the user's own folder made absolute (/lib/
for the lib/ in the working folder, /root/config.json for its config.json).

Small models write tutorial code: `directory = '/path/to/your/directory'`. Run, it fails;
shown a hint, a model answers the user that they must fill in the path. Asked "which file
under lib/", a model looked in /lib/ and answered from the system's files. Caught before
the user is asked to approve anything, the model is told once where the files are instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from assistant.checks.hints import ABSOLUTE
from assistant.texts import text

PLACEHOLDER = re.compile(
    r"""(?:(?<=["'`])|(?<![^\s=(]))"""  # quoted, or a shell word
    r"""((?:~|/)?[\w./-]*(?:\bpath/to\b|\byour[_-]?(?:dir|directory|folder|path|files?)\b|"""
    r"""(?<=/)your(?=/))[\w./<>-]*|<[\w -]*(?:path|dir|directory|folder|file)[\w -]*>)""",
    re.IGNORECASE,
)
TOLD = text("path.placeholder")
ROOTED = text("path.rooted")


def placeholder(code: str, request: str, folder: Path) -> str:
    """The first placeholder path in `code`, or "": a name the user said, or one that is
    there (a file may be called your_notes.txt), is not one."""
    for found in PLACEHOLDER.finditer(code):
        name = found[1]
        if name.lower() not in request.lower() and not (folder / name).expanduser().exists():
            return name
    return ""


@dataclass(frozen=True)
class Misplaced:
    """A path in proposed code that cannot be the user's."""

    path: str
    told: str  # what the model is told, the code not run
    instead: str  # what stands for it in the working folder; "" when that is not known


def misplaced(code: str, request: str, folder: Path) -> Misplaced | None:
    """The first path in `code` that cannot be the user's; None when there is none."""
    held = placeholder(code, request, folder)
    if held:
        instead = "" if _is_file(held) else "."
        return Misplaced(held, TOLD.format(held) + _example(code, held, instead), instead)
    for found in ABSOLUTE.finditer(code):
        if found[0] in request:
            continue
        path = Path(found[0])
        # The user's folder at the top of the path (/lib/x.py), or a made-up path to a
        # file that is here (/root/config.json): what to write in its place.
        tops = [(found[1].lstrip("/"), found[0].lstrip("/"))]
        if not path.exists():
            tops.append((path.name, path.name))
        for part, instead in tops:
            inside = folder / part
            said = re.search(rf"(?<![\w./-]){re.escape(part)}\b", request)
            if said and inside.exists() and not folder.resolve().is_relative_to(f"/{part}"):
                relative = part + ("/" if inside.is_dir() else "")
                told = ROOTED.format(found[0], relative) + _example(code, found[0], instead)
                return Misplaced(found[0], told, instead)
    return None


def _is_file(path: str) -> bool:
    return "." in path.rstrip("/").rsplit("/", 1)[-1]


def _example(code: str, path: str, instead: str) -> str:
    """The line of `code` that names `path`, written with `instead` in its place: a small
    model copies a line it is shown, where it does not apply a rule."""
    if not instead:
        return ""  # a file: which of the user's is meant is not known here
    line = next(line.strip() for line in code.splitlines() if path in line)
    return text("path.example").format(line.replace(path, instead))
