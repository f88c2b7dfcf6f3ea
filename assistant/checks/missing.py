"""What is there, said beside a failure on a path that is not.

A small model guesses the names it works on: `transactions.csv` where the folder holds
`expenses.csv`, `~/notes` for the `notes` folder it stands in, `/path/to/file`, or a
script `find_todos.py` it believes its last ```python block was saved as. Told only "No
such file or directory", it guesses again, and the same failure ends the turn. What the
folder holds is a fact from outside the model, the kind of correction that works for
small models: the failure goes back with the names that are there.

Only for a model on this machine (the names of the user's files stay here otherwise), and
only within the working folder: a path elsewhere is answered only by the same name here.
"""

from __future__ import annotations

import os
import re

from assistant.checks.state import TurnState
from assistant.checks.verdicts import Annotate
from assistant.events import RunEnd
from assistant.texts import text

# The path a failure says is missing, as Python, Node, coreutils and bash print it.
MISSING = re.compile(
    r"No such file or directory: '(?P<python>[^'\n]+)'"
    r"|can't open file '(?P<script>[^'\n]+)': \[Errno 2\]"
    r"|Cannot find module '(?P<module>/[^'\n]+)'"
    r"|ENOENT: no such file or directory, \w+ '(?P<node>[^'\n]+)'"
    r"|cannot (?:access|stat|remove|open) '(?P<tool>[^'\n]+)': No such file"
    r"|(?:^|: )(?P<bare>[^:'\n]+): No such file or directory", re.MULTILINE)
SCRIPTS = (".py", ".js", ".mjs", ".sh")
LISTED = 12  # names of the folder said; then "and N more"


def noted(end: RunEnd, state: TurnState) -> Annotate | None:
    """`hint` for a run or preview that failed, on its own line (rule run.missing); None
    for a model elsewhere, whose provider is not sent the names of the user's files
    unasked."""
    if end.exit_status == 0 or not state.lines:
        return None
    said = hint(end.output, str(state.folder))
    return Annotate("run.missing", "\n" + said, missing(end.output) or "") if said else None


def missing(output: str) -> str | None:
    """The first path the output says is not there."""
    found = _found(output)
    return found[1] if found else None


def _found(output: str) -> tuple[str, str] | None:
    """How the first missing path was said (the MISSING group), and the path."""
    found = MISSING.search(output)
    if found is None:
        return None
    return next((kind, value.strip()) for kind, value in found.groupdict().items() if value)


def hint(output: str, folder: str) -> str:
    """What the working `folder` offers for the path the failed run's `output` says is
    missing: the same name here, or what the folder it was looked for in holds. Empty
    when the output names no missing path, or the path is elsewhere with no namesake."""
    found = _found(output)
    if found is None:
        return ""
    kind, path = found
    root = os.path.realpath(folder)
    full = os.path.realpath(os.path.join(root, os.path.expanduser(path)))
    here = os.path.join(root, os.path.basename(full))
    if os.path.dirname(full) != root and os.path.lexists(here):
        return text("missing.here").format(path=path, name=os.path.basename(full))
    parent = os.path.dirname(full)
    while not os.path.isdir(parent):  # the deepest folder of the path that is there
        parent = os.path.dirname(parent)
    if os.path.commonpath([root, parent]) != root:
        if parent != os.path.dirname(parent):
            return ""  # a folder elsewhere that is there: its names are not ours to say
        parent = root  # a path that is nowhere (/path/to/file): a placeholder
    where = (text("missing.working") if parent == root
             else text("missing.folder").format(os.path.relpath(parent, root)))
    said = text("missing.holds").format(path=path, where=where, names=_names(parent))
    if kind != "python" and path.endswith(SCRIPTS):  # run, not read: a block thought saved
        said += " " + text("missing.script").format(os.path.basename(path))
    return said


def _names(folder: str) -> str:
    """The folder's visible entries by name, folders marked with a slash."""
    try:
        with os.scandir(folder) as entries:
            names = sorted(entry.name + ("/" if entry.is_dir() else "") for entry in entries
                           if not entry.name.startswith("."))
    except OSError:
        return text("missing.unreadable")
    if not names:
        return text("missing.empty")
    more = len(names) - LISTED
    return ", ".join(names[:LISTED]) + (text("missing.more").format(more) if more > 0 else "")
