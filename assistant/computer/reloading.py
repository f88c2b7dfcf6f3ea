"""A file a run wrote while an editor on screen held it, shown there again.

Asked to change the guest list open in Mousepad, a small model writes the file whatever
it is told: told twice to use the editor, it fetched the file with `requests` instead.
The file it writes is the change the person asked for (the preview shows it before anyone
approves, undo takes it back); what is left is the editor, which still shows the old text,
asks on its next focus whether to reload, and would save the old text over the new. So
after such a run the editor is brought forward and its own prompt answered Reload (the
assistant answers for a change it made, which the person approved). An editor holding
changes not yet saved is never written behind (loop/vetting.py, rule screen.offscreen):
a reload would throw them away.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from pathlib import Path

from assistant.computer import acting, finding, tree
from assistant.computer.tree import Control, Window

WAIT_S = 3.0  # for the editor's prompt, which comes once it has the focus
AGAIN_S = 1.0  # for a second prompt after one answered
POLL_S = 0.1
RELOAD = "reload"
# A file's name in a title, with the folders before it when the title shows them
# ("/home/ana/guests.txt - Mousepad", "*guests.txt (~/work) - gedit").
NAMED = re.compile(r"(?:[~\w.-]*/)*[\w-][\w.-]*\.[A-Za-z]\w{0,7}")


def unsaved(title: str) -> bool:
    """Whether a window so titled holds changes it has not saved ("*guests.txt")."""
    return title.lstrip().startswith("*")


def names(title: str, path: Path) -> bool:
    """Whether the title names the file at `path`: by its whole path when it shows one,
    else by its name."""
    for said in NAMED.findall(title):
        if "/" in said:
            if Path(said).expanduser() == path:
                return True
        elif said == path.name:
            return True
    return False


def holding(paths: Iterable[Path]) -> list[tuple[Path, Window]]:
    """Each file of `paths` (whole paths) that an editor on screen holds with nothing
    unsaved, and that editor's window; none without a display."""
    from assistant.computer import windows as x_windows
    from assistant.computer.verbs import editor_area

    paths = list(paths)
    titles = x_windows.shown()
    if not any(names(title, path) for title in titles for path in paths):
        return []  # the usual case, told from the X titles without a walk of the tree
    return [(path, window) for window in tree.windows() for path in paths
            if names(window.title, path) and not unsaved(window.title)
            and editor_area(window) is not None]


def reload(window: Window) -> bool:
    """Bring the editor forward and answer its prompt about its file changed on disk with
    Reload (Mousepad asks in a window of its own, gedit in a bar of the editor's); False
    when no prompt came. A write seen halfway (the file emptied, then written) asks
    again: each prompt within a moment of the last is answered too."""
    acting.front(window)
    answered = False
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        for shown in tree.windows():
            button = _reload(shown) if shown.pid == window.pid else None
            if button is None:
                continue
            try:
                acting.do(button, shown)
            except LookupError:  # the prompt went as it was answered
                continue
            answered = True
            deadline = time.monotonic() + AGAIN_S
        time.sleep(POLL_S)
    return answered


def _reload(window: Window) -> Control | None:
    return next((c for c in window.controls if finding.is_kind(c, "button")
                 and c.name.casefold() == RELOAD), None)
