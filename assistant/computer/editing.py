"""A file open in an editor, changed the way a person changes it: in the editor.

    computer.replace("Monday", "Friday", window="letter.txt")
    computer.save(window="letter.txt")
    computer.save_as("soup.txt", window="recipe.txt")

Asked to change a word in the letter open in Mousepad, a small model reaches for
`computer.replace` or rewrites the file behind the editor's back (which then holds stale
text the next save writes over); asked to save under a new name, it cannot drive a file
chooser key by key. These verbs do each as one call. The text is changed through the
text area's own editable text (the editor marks itself modified, as typing does). A file
name is the working folder's, as everywhere else in a run, and is given to the chooser
as a whole path; a chooser that asks whether to replace an existing file is left open
for the person (nothing is overwritten unasked).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from assistant.computer import a11y, finding, keyboard, tree
from assistant.computer.acting import fill_in, front
from assistant.computer.finding import NotOnScreen, titles
from assistant.computer.tree import Control, Window
from assistant.computer.verbs import press, said, text_area

__all__ = ["editor", "replace", "save", "save_as"]

T = TypeVar("T")
WAIT_S = 5.0  # for the chooser to open, and for the file to be written
POLL_S = 0.1
SAVE_WORDS = ("save",)  # a file chooser's title and its confirm button
CONFIRM = ("replace", "overwrite", "already exists")


def editor(window: str | None = None) -> tuple[Window, Control]:
    """The editor window titled like `window` (else the focused one, else the only one)
    and its text area: an editable field of many lines. A `window` no window is titled
    like is let go when one editor alone is on screen, as finding.find lets it go for a
    control: what is changed is said from the screen before anyone approves it."""
    found = tree.windows(window)
    if window is not None and not found:
        everywhere = [(w, area) for w in tree.windows() for area in [text_area(w)]
                      if area is not None]
        if len(everywhere) == 1:  # a title copied wrong (the text it holds): the one editor
            return everywhere[0]
        raise NotOnScreen(f"no window titled {window!r}; {titles()}")
    editors = [(w, area) for w in found for area in [text_area(w)] if area is not None]
    if not editors:
        where = found[0].kind() if window is not None else "any window"
        raise NotOnScreen(f"no text area to edit in {where}; {titles()}")
    if window is None and not found[0].active and len(editors) > 1:
        names = ", ".join(repr(w.title) for w, _ in editors)
        raise NotOnScreen(f"say which editor: window= one of {names}")
    return editors[0]


def _text(area: Control) -> str:
    return str(a11y._atspi().Text.get_text(area.ref, 0, -1) or "")


@said
def replace(old: str, new: str, window: str | None = None) -> str:
    """Replace every `old` in the editor's text with `new` (as the editor's Replace All);
    the case of `old` counts only when the text has it so written. A whole line replaced
    with "" is deleted, its line break too."""
    if not old:
        raise ValueError('say what to replace: replace("Monday", "Friday")')
    shown, area = editor(window)
    text = _text(area)
    at = _places(text, old)
    if not at:
        begins = " ".join(text.split())[:60]
        raise NotOnScreen(f"no {old!r} in the text of {shown.kind()}; it begins {begins!r}")
    spans = [_whole_line(text, start, start + len(old)) if not new else (start, start + len(old))
             for start in at]
    atspi = a11y._atspi()
    for start, end in reversed(spans):  # from the end: the earlier offsets stay right
        if not (atspi.EditableText.delete_text(area.ref, start, end) and
                (not new or atspi.EditableText.insert_text(area.ref, start, new,
                                                           len(new.encode())))):
            raise LookupError(f"the text of {shown.kind()} cannot be changed this way: "
                              "type into it instead")
    times = "once" if len(at) == 1 else f"{len(at)} times"
    if not new and all(end - start > len(old) for start, end in spans):
        return f"Deleted the line {old!r} {times} in {shown.kind()}; not saved yet."
    return f"Replaced {old!r} with {new!r} {times} in {shown.kind()}; not saved yet."


def _whole_line(text: str, start: int, end: int) -> tuple[int, int]:
    """What replacing text[start:end] with nothing deletes: the line with its line break
    when that text is a whole line (a person who says "delete the line Feed the cat"
    wants no blank line left), else just the text."""
    if (start and text[start - 1] != "\n") or (end < len(text) and text[end] != "\n"):
        return start, end
    if end < len(text):
        return start, end + 1
    return (start - 1 if start else start), end


def _places(text: str, old: str) -> list[int]:
    """Where `old` starts in `text`: as written, else in any case."""
    for haystack, needle in ((text, old), (text.casefold(), old.casefold())):
        if len(haystack) != len(text):  # a case fold that changed lengths: no offsets
            break
        found, at = [], haystack.find(needle)
        while at >= 0:
            found.append(at)
            at = haystack.find(needle, at + len(needle))
        if found:
            return found
    return []


@said
def save(target: str | None = None, name: str | None = None, *,
         window: str | None = None) -> str:
    """Save the file open in the editor (Ctrl+S). A document that has no file yet opens
    the chooser, which is closed again: it needs a name, `save_as("name.txt")`. The forms
    models write for a new name save as it (`saving` says which they are). A Save dialog
    already open (a program's file chooser) takes the name and its own Save or OK."""
    window, name = saving(target, name, window)
    chooser = save_chooser(window)
    if chooser is not None:
        return _into_chooser(chooser, name)
    if name is not None:
        return save_as(name, window)
    shown, _ = editor(window)
    front(shown)
    before = {w.title for w in tree.windows()}
    keyboard.hotkey("ctrl", "s")
    deadline = time.monotonic() + WAIT_S / 2
    while time.monotonic() < deadline:
        chooser = _chooser(before)
        if chooser is not None:
            keyboard.press("esc")
            raise NotOnScreen(f"{shown.kind()} has no file yet: give it a name, "
                              f'computer.save_as("name.txt", window={shown.title!r})')
        now = tree.window(shown.title) or _renamed(shown)
        if now is not None and not now.title.startswith("*"):
            return f"Saved {now.kind()}."
        time.sleep(POLL_S)
    return f"Pressed ctrl+s in {shown.kind()}."


def saving(target: str | None, name: str | None, window: str | None
           ) -> tuple[str | None, str | None]:
    """The window and the new name of a save call, as models write it: `save("recipe.txt",
    "soup.txt")`, `save("soup.txt")` where no window is so titled, `save("soup.txt",
    window="recipe.txt")`, and `save("Save minutes", window="Save minutes")` (a title
    said twice: no name)."""
    if target is None:
        return window, name
    titled = bool(tree.windows(target))
    if window is None:
        if name is None and not titled and Path(target).suffix:
            return None, target
        return target, name
    return window, name if name is not None or titled else target


def save_chooser(window: str | None) -> Window | None:
    """The Save dialog the call means: the window so titled, else the focused one, when
    it is a file chooser with a name field."""
    found = tree.windows(window)
    shown = found[0] if found else None
    if shown is None or shown.role != "file chooser":
        return None
    return shown if finding.matches(shown.controls, "Name", "field") else None


def _into_chooser(chooser: Window, name: str | None) -> str:
    """The name given to an open Save dialog as a whole path, and its Save (or OK)."""
    if name is None:
        raise NotOnScreen(f"{chooser.kind()} asks for the file's name: "
                          f'computer.save("name.txt", window={chooser.title!r})')
    path = _path(name)
    fill_in(finding.matches(chooser.controls, "Name", "field")[0], chooser, str(path))
    button = "Save" if has_save(chooser) else "OK"
    press(button, window=chooser.title)
    return f"Gave {str(path)!r} to {chooser.kind()} and pressed {button}."


def has_save(chooser: Window) -> bool:
    """Whether the chooser's button is called Save (else OK: zenity's, yad's)."""
    return any(finding.is_kind(c, "button") and c.name.casefold() == "save"
               for c in chooser.controls)


def _path(name: str) -> Path:
    """A file's name as a whole path: the working folder's unless it is one."""
    if not str(name).strip():
        raise ValueError('say the file\'s name: save_as("notes.txt")')
    path = Path(os.path.expanduser(str(name)))
    path = path if path.is_absolute() else Path.cwd() / path
    if not path.parent.is_dir():
        raise NotOnScreen(f"no folder {str(path.parent)!r} to save {path.name!r} in")
    return path


def _renamed(shown: Window) -> Window | None:
    """The editor after a save dropped the "*" its title showed, by its program."""
    return next((w for w in tree.windows() if w.pid == shown.pid and
                 w.title == shown.title.lstrip("*").strip()), None)


@said
def save_as(name: str, window: str | None = None) -> str:
    """Save the editor's text as the file `name` (in the working folder unless a whole
    path), through its Save As chooser (Ctrl+Shift+S); the editor then shows that file."""
    chooser = save_chooser(window)
    if chooser is not None:
        return _into_chooser(chooser, name)
    path = _path(name)
    shown, _ = editor(window)
    existed = path.stat().st_mtime_ns if path.exists() else None
    front(shown)
    before = {w.title for w in tree.windows()}
    keyboard.hotkey("ctrl", "shift", "s")
    chooser = _wait(lambda: _chooser(before), f"{shown.kind()} opened no Save As dialog "
                    "(ctrl+shift+s)")
    field = finding.matches(chooser.controls, "Name", "field") or \
        [c for c in chooser.controls if c.field and c.enabled]
    if not field:
        raise NotOnScreen(f"no name field in {chooser.kind()}")
    fill_in(field[0], chooser, str(path))
    if has_save(chooser):
        press("Save", window=chooser.title)  # once the name has enabled it
    else:
        keyboard.press("enter")
    written = _wait(lambda: _written(path, existed, chooser.title),
                    f"{path.name} was not written")
    if written == "confirm":
        raise NotOnScreen(f"{str(path)!r} exists already: the dialog asks whether to "
                          "replace it (press Replace to overwrite it, or pick another name)")
    return f"Saved {shown.kind()} as {str(path)!r}."


def _chooser(before: set[str]) -> Window | None:
    """A Save dialog opened since `before`: a new window whose title says Save."""
    return next((w for w in tree.windows() if w.title not in before and
                 any(word in w.title.casefold() for word in SAVE_WORDS)), None)


def _written(path: Path, existed: int | None, chooser: str) -> str | None:
    """"saved" once the file is there (changed, if it was); "confirm" when the chooser
    asks whether to replace it; None while neither."""
    if path.exists() and path.stat().st_mtime_ns != existed:
        return "saved"
    for window in tree.windows():
        words = " ".join([window.title, *(c.name for c in window.controls)]).casefold()
        if window.title != chooser and window.role in ("dialog", "alert") and \
                any(word in words for word in CONFIRM):
            return "confirm"
    return None


def _wait(look: Callable[[], T | None], miss: str) -> T:
    """What `look` finds within WAIT_S seconds; a miss that says `miss` when nothing."""
    deadline = time.monotonic() + WAIT_S
    while True:
        found = look()
        if found is not None:
            return found
        if time.monotonic() > deadline:
            raise NotOnScreen(miss)
        time.sleep(POLL_S)
