"""Paths in proposed code that stand for a path the model did not know: /path/to/your/files.

Small models write tutorial code: `directory = '/path/to/your/directory'`. Run, it fails;
shown a hint, a model answers the user that they must fill in the path. Caught before the
user is asked to approve anything, the model is told once where the files are instead.
"""

from __future__ import annotations

import re
from pathlib import Path

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


def placeholder(code: str, request: str, folder: Path) -> str:
    """The first placeholder path in `code`, or "": a name the user said, or one that is
    there (a file may be called your_notes.txt), is not one."""
    for found in PLACEHOLDER.finditer(code):
        name = found[1]
        if name.lower() not in request.lower() and not (folder / name).expanduser().exists():
            return name
    return ""
