"""Files a proposal's filter leaves out because their extension is written in capitals.

A small model filters files by a lower-case extension (`name.endswith('.pdf')`, `*.jpg`,
`find -name '*.csv'`), and a person's folder holds `Scan_001.PDF` and `beach.JPG` beside
them: the run succeeds, leaves those out, and nothing it prints says so. The folder is the
witness from outside the model: its listing names the files of that type in another case,
and the preview shows the run did not touch them. Code that folds case itself (`.lower()`,
`-iname`, `re.I`, `[pP]`) is trusted to have matched them.
"""

from __future__ import annotations

import os
import re

from assistant.events import Effect
from assistant.runtime.changes import list_folder

# An extension as a filter writes it: quoted alone ('.pdf'), after a wildcard (*.pdf) or
# after a backslash (\.pdf$ in a regular expression), and ending there. A quoted file
# name ('report.pdf') is not a filter and does not match.
FILTER = re.compile(r"""(?:["'*]|\\)\.([A-Za-z][A-Za-z0-9]{1,4})(?=["'\s)\]},;|$]|$)""")
# Code that matches names in any case already.
FOLDS = re.compile(r"""\.lower\(|\.upper\(|\.casefold\(|toLowerCase|toUpperCase|IGNORECASE"""
                   r"""|re\.I\b|\(\?i\)|-i(?:name|regex|path|wholename)\b|nocaseglob"""
                   r"""|case_sensitive|grep\s+(?:-\w*i|--ignore-case)|\[[a-z][A-Z]\]"""
                   r"""|\[[A-Z][a-z]\]""")
# Code that names a folder outside the working one (an absolute path, the home folder):
# a file of the working folder is within its reach only where the code names its folder.
ELSEWHERE = re.compile(r"""["'\s(=]/(?!dev/null)\w|~/|expanduser|Path\.home|\$HOME|homedir""")
# Code that goes down into folders it does not name.
RECURSES = re.compile(r"""os\.walk|\.rglob\(|\*\*|\bfind\s|recursive|\bls\s+-\w*R|globstar""")


def spellings(code: str) -> dict[str, set[str]]:
    """The extensions `code` filters by: lower-cased extension -> the spellings used."""
    found: dict[str, set[str]] = {}
    for match in FILTER.finditer(code):
        found.setdefault(match.group(1).lower(), set()).add(match.group(1))
    return found


def left_out(code: str, folder: str, effect: Effect) -> list[str]:
    """The files under `folder` whose extension `code` filters by in another case only,
    within the code's reach, that its preview's `effect` did not touch (sorted,
    folder-relative); empty when the code folds case, filters by no extension, or the
    folder has no such file."""
    wanted = spellings(code)
    if not wanted or FOLDS.search(code):
        return []
    listing = list_folder(folder)
    if listing is None:
        return []
    touched = set(effect.modified) | set(effect.deleted) | {old for old, _ in effect.moved}
    copied = {os.path.basename(path) for path in effect.created}
    missed = []
    for path, (is_dir, _, _) in listing.entries.items():
        extension = os.path.splitext(path)[1][1:]
        used = None if is_dir else wanted.get(extension.lower())
        if used and extension not in used and path not in touched \
                and os.path.basename(path) not in copied and within_reach(path, code):
            missed.append(path)
    return sorted(missed)


def within_reach(path: str, code: str) -> bool:
    """Whether `code` may have meant the file at `path` (relative to the working folder):
    it names one of the file's folders, or, naming no folder elsewhere, the file is at the
    top or the code goes down into folders. A filter over ~/Downloads says nothing about
    a capitalised file in the working folder."""
    folders = path.split("/")[:-1]
    if any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", code) for name in folders):
        return True
    if ELSEWHERE.search(code):
        return False
    return not folders or bool(RECURSES.search(code))
