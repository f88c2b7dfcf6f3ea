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
from pathlib import Path

from assistant.llm.hints import ABSOLUTE

PLACEHOLDER = re.compile(
    r"""(?:(?<=["'`])|(?<![^\s=(]))"""  # quoted, or a shell word
    r"""((?:~|/)?[\w./-]*(?:\bpath/to\b|\byour[_-]?(?:dir|directory|folder|path|files?)\b|"""
    r"""(?<=/)your(?=/))[\w./<>-]*|<[\w -]*(?:path|dir|directory|folder|file)[\w -]*>)""",
    re.IGNORECASE,
)
TOLD = (
    "Not run: {} is a placeholder, not a path on this machine. The user's files are in "
    "the working folder: use '.' for it, and relative names for the files in it."
)
ROOTED = (
    "Not run: {0} is not the user's {1}, which is in the working folder: use the relative "
    "path {1} in place of {0}."
)


def placeholder(code: str, request: str, folder: Path) -> str:
    """The first placeholder path in `code`, or "": a name the user said, or one that is
    there (a file may be called your_notes.txt), is not one."""
    for found in PLACEHOLDER.finditer(code):
        name = found[1]
        if name.lower() not in request.lower() and not (folder / name).expanduser().exists():
            return name
    return ""


def misplaced(code: str, request: str, folder: Path) -> tuple[str, str]:
    """The first path in `code` that cannot be the user's, and what the model is told of
    it; ("", "") when there is none."""
    held = placeholder(code, request, folder)
    if held:
        return held, TOLD.format(held) + _instead(code, held)
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
                return found[0], ROOTED.format(found[0], relative) + _instead(
                    code, found[0], instead)
    return "", ""


def _instead(code: str, path: str, relative: str = ".") -> str:
    """The line of `code` that names `path`, written with `relative` in its place: a small
    model copies a line it is shown, where it does not apply a rule."""
    if path.rstrip("/").rsplit("/", 1)[-1].count(".") and relative == ".":
        return ""  # a file: which of the user's is meant is not known here
    line = next(line.strip() for line in code.splitlines() if path in line)
    return f" For example: {line.replace(path, relative)}"
