"""Words the next take is likely to name, given to Whisper as text said before it.

Whisper continues its prompt: a name it has just read there ("Kdenlive", "GnuCash",
"quarterly_forecast_v2.xlsx") it writes as shown, instead of common words that sound
alike ("K8 and Live", "the boot cache"). The words come from what the user sees when
they press the key: in the focused window and every dialog, the names of what can be
pressed, chosen, ticked or typed into, read from the accessibility tree (milliseconds,
and the very names the verbs take: "tick Darktable" over a list that shows it); window
titles; the labels on screen (the OCR text map, when the OCR engine is already loaded:
loading it costs seconds and memory a take should not pay); and the files and folders of
the working directory. They are gathered in the background from the key press, so
neither the recording nor release waits for them: a piece decoded before they are in
goes with what is. The list ends with a full stop: a prompt that stops on a comma
invites the model to go on listing ("Photos, Texting, Texting, …").
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.computer.tree import Window

MAX_FOLDER_ENTRIES = 30  # the newest first: what the user just worked on
MAX_LABEL_WORDS = 4  # longer OCR lines are text to read, not names to say
MAX_CHARS = 400  # about 100 tokens, a third of Whisper's prompt room
# Said to a tick box, and heard by tiny.en as "take", "Tik" or "I take" unless prompted
# (English: the verbs computer.tick and untick take, as a person says them).
TICK_WORDS = ("Tick", "Untick")
COMMON = re.compile(r"^[\W\d_]*$")  # numbers, punctuation: nothing to spell


def folder_words(folder: str | Path = ".", limit: int = MAX_FOLDER_ENTRIES) -> list[str]:
    """Names of the newest files and folders in `folder`, hidden ones left out."""
    entries = []
    with contextlib.suppress(OSError), os.scandir(folder) as found:
        for entry in found:
            if not entry.name.startswith("."):
                with contextlib.suppress(OSError):
                    entries.append((entry.stat(follow_symlinks=False).st_mtime, entry.name))
    return [name for _, name in sorted(entries, reverse=True)[:limit]]


def control_words(found: Iterable[Window]) -> list[str]:
    """Each window's title and, for the focused window and dialogs (those the screen text
    gives whole), the names of its buttons, items, tick boxes and fields, in its order;
    the assistant's own windows left out. Where tick boxes are shown, the words for
    ticking them come first."""
    from assistant.computer import tree
    from assistant.computer.screen_text import WHOLE
    from assistant.computer.windows import own

    named = tree.BUTTONS | tree.CHOICES | tree.TICKS | tree.FIELDS
    words: list[str] = []
    ticks = False
    for window in found:
        if own(window.title):  # the panel shows what was said before
            continue
        words.append(window.title)
        if window.active or window.role in WHOLE:
            words += [c.name for c in window.controls
                      if c.name and (c.role in named or c.toggle or c.label)]
            ticks = ticks or any(c.role in tree.TICKS or c.toggle for c in window.controls)
    return [*TICK_WORDS, *words] if ticks else words


def screen_words() -> list[str]:
    """The names on the controls of the focused window and dialogs, window titles, and,
    when the OCR engine is loaded, the short labels of the screen's text map in reading
    order; nothing without a display."""
    from assistant.computer import display, ocr, tree, windows
    from assistant.computer.capability import Unavailable, require_display
    from assistant.computer.screen_text import own_areas
    from assistant.computer.textmatch import center

    try:
        require_display()
    except Unavailable:
        return []
    words: list[str] = []
    with contextlib.suppress(Exception):  # no accessibility bus, or a tree that breaks
        words += control_words(tree.windows())
    with contextlib.suppress(Exception):  # a window manager without a client list
        words += [title for window in windows.list()
                  if not windows.own(title := str(window.get("title", "")))]
    if ocr.warm():
        with contextlib.suppress(Exception):  # a screen that cannot be read: titles only
            port = display.viewport()
            mine = own_areas()
            words += [str(item.get("text", "")) for item in ocr.read(display.capture(port))
                      if not any(area.contains(*port.to_physical(*center(item["box"])))
                                 for area in mine)]
    return [word for word in words if len(word.split()) <= MAX_LABEL_WORDS]


def prompt(words: Iterable[str], limit: int = MAX_CHARS) -> str:
    """`words` as Whisper's prompt: a comma-separated list, each once, ending with a full
    stop, within `limit`."""
    kept: list[str] = []
    seen: set[str] = set()
    size = 0
    for word in words:
        word = " ".join(word.split())
        if len(word) < 2 or COMMON.match(word) or word.lower() in seen:
            continue
        if size + len(word) + 2 > limit:  # the last one's ", " is the full stop
            break
        seen.add(word.lower())
        kept.append(word)
        size += len(word) + 2
    return ", ".join(kept) + "." if kept else ""


class Hints:
    """The words for one take, gathered in the background from the key press (a big
    folder or a slow screen never delays the recording): the folder's names first, then
    the screen's (`screen=False` skips it)."""

    def __init__(self, folder: str | Path = ".", screen: bool = True) -> None:
        self._folder: list[str] = []
        self._screen: list[str] = []
        self._ready = threading.Event()
        threading.Thread(target=self._gather, args=(folder, screen), name="stt-hints",
                         daemon=True).start()

    def _gather(self, folder: str | Path, screen: bool) -> None:
        try:
            self._folder = folder_words(folder)
            if screen:
                self._screen = screen_words()
        finally:
            self._ready.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Whether everything has been gathered (for tests; decoding never waits)."""
        return self._ready.wait(timeout)

    def text(self) -> str:
        """The prompt with what is known now: screen labels first, then the folder."""
        return prompt([*self._screen, *self._folder])
