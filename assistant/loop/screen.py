"""Screen-aware turns: which turns carry the screen, and how it reaches the LLM.

Runs write views (see assistant.computer.views) into this session's folder; before each
LLM request the newest unseen one becomes a user message: the image for models with
vision, otherwise the screen as text (assistant.computer.screen_text: windows, and each
control by role, name and state, in the words the verbs take). Only the last few images
stay in the history. Screen content is marked as untrusted data: it informs, it never
instructs.
"""

from __future__ import annotations

import base64
import re
import shutil
import tempfile
import weakref
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.actions.apply import applies
from assistant.checks.verdicts import Annotate
from assistant.computer import windows as x_windows
from assistant.config import Settings
from assistant.events import Event, Notice
from assistant.llm.backend import Backend, InProcess
from assistant.llm.context import has_image
from assistant.messages import KIND, SCREEN_HEADER, untrusted
from assistant.texts import text

if TYPE_CHECKING:
    from assistant.checks.rules import Rules
    from assistant.computer.tree import Window

ABOUT_SCREEN = re.compile(
    r"\b(screen|click|button|window|dialog|menu|icon|mouse|cursor|desktop|scroll|"
    r"field|checkbox|tab|type (?:in|into)|see|look|shown|visible|open app)\w*"
    r"|\b(?:un)?tick\b|\bpress\b",  # said to a control ("tick Photos"), not "ticket"
    re.IGNORECASE,
)
# Asked to act on a window, in words ABOUT_SCREEN's stems would take too widely ("form"
# in "format"): whole words only.
ACTS_ON_SCREEN = re.compile(
    r"\b(press|tick|untick|choose|box|form|message|popup|prompt|dismiss|close|fill|submit|"
    r"say (yes|no)|editor|browser|page|app)\b", re.IGNORECASE)
# Words that point at something displayed ("in the editor", "the page that's open", "the
# dialog"): "page" alone does not ("save the page at 127.0.0.1:9 as page.html").
POINTS = re.compile(
    r"\b(?:screen|windows?|dialog(?:ue)?s?|pop-?ups?|prompts?|editor|terminal|browser|shown|"
    r"showing|popped up|(?:is|are|that's|that is|i have|i've got|got|currently|still) open|"
    r"open (?:in|on))\b", re.IGNORECASE)
# Words of a title that name no window in particular.
COMMON = frozenset({"the", "and", "for", "with", "new", "untitled", "file", "files", "folder",
                    "window", "dialog", "home", "root", "work", "mousepad", "chromium"})
# The parts of a text a request over an editor in front speaks of ("delete line 2").
TEXT_PARTS = re.compile(r"\b(?:lines?|words?|sentences?|paragraphs?|typos?)\b", re.IGNORECASE)
# Words that only join others: two of them in a row say nothing of a text ("of the").
GRAMMAR = frozenset({"a", "an", "the", "of", "in", "on", "to", "and", "or", "for", "with",
                     "at", "by", "from", "it", "is", "that", "this", "my", "me", "i", "as"})
# Code that writes a file, by language, and a file's name in a window's title
# ("guests.txt - Mousepad").
WRITES = {"python": re.compile(r"""open\([^)]*,\s*(?:mode\s*=\s*)?["'][wax]|"""
                               r"\.write_(?:text|bytes)\(|\bshutil\.(?:copy|move)"),
          "shell": re.compile(r"(?<![<>2&])>>?\s*[\w\"'/.~$]|\bsed\s+(?:-\w+\s+)*-i|\btee\b|"
                              r"\b(?:cp|mv)\s")}
FILE_NAME = re.compile(r"[\w-][\w.-]*\.[A-Za-z]\w{0,7}")
UNTRUSTED = text("screen.untrusted")
REMOVED = text("screen.removed")


class ScreenFeed:
    """One session's views folder, and the part of the history that holds screens."""

    def __init__(self, settings: Settings, backend: Backend | None = None,
                 folder: Path | None = None) -> None:
        self.settings = settings
        self.backend = backend or InProcess()  # asked whether the model has vision
        # the parts' views folder (actions/parts.py), which runs write to; else one of its own
        self.folder = folder or Path(tempfile.mkdtemp(prefix="assistant-screen-"))
        self._shown = 0
        if folder is None:
            weakref.finalize(self, shutil.rmtree, self.folder, True)

    def as_image(self) -> bool:
        """Whether the LLM gets pictures (else the text map)."""
        if self.settings.screen_format != "auto":
            return self.settings.screen_format == "image"
        if self.settings.vision_model:
            return True
        return self.backend.supports("vision", self.settings.model)

    @property
    def shown(self) -> bool:
        """Whether a screen has gone into the history of this conversation."""
        return self._shown > 0

    def wanted_for(self, request: str) -> bool:
        """Whether this request should start with the screen attached: it reads as about
        the screen, points at a window ("the empty note that's open"), names one on it
        ("the sync list" over the window "Sync"), speaks of the text an editor there shows,
        or names a variable only the terminal on screen has."""
        from assistant.loop.terminal import holding

        mode = self.settings.screen_context
        if mode != "auto":
            return mode == "always"
        return bool(ABOUT_SCREEN.search(request) or ACTS_ON_SCREEN.search(request)) or \
            points_at_windows(request) or waits_for_answer() or holding(request) is not None \
            or speaks_of_text(request)

    def wanted_after(self, codes: list[str]) -> bool:
        """Whether runs changed what the LLM should see (they drove the desktop)."""
        mode = self.settings.screen_context
        return mode == "always" or (mode == "auto" and any("computer." in c for c in codes))

    def capture(self) -> str:
        """Take a view of the screen now, as `computer.display.view()` in a run would.

        Returns why not when it cannot ("" in auto mode on a machine without a display).
        """
        from assistant.computer import display, views
        from assistant.computer.capability import Unavailable, require_display

        try:
            require_display()
        except Unavailable as exc:
            return "" if self.settings.screen_context == "auto" else str(exc)
        try:
            port = display.viewport(self.folder, self.settings.screenshot_max_side)
            views.save(port, display.capture(port), folder=self.folder)
        except Exception as exc:  # a broken desktop must not break the conversation
            return str(exc) or type(exc).__name__
        return ""

    def take(self) -> tuple[dict[str, Any] | None, str]:
        """The message for the newest view not yet shown (if any), and why it failed (if so)."""
        from assistant.computer import views

        fresh = [v for v in views.since(self.folder, self._shown) if v.image is not None]
        if not fresh:
            return None, ""
        view = fresh[-1]
        self._shown = view.number
        width, height = view.viewport.size
        if self.as_image() and view.image is not None:
            intro = SCREEN_HEADER + text("screen.intro").format(width, height, UNTRUSTED)
            data = base64.b64encode(view.image.read_bytes()).decode("ascii")
            return {"role": "user", KIND: "screen", "content": [
                {"type": "text", "text": intro},
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{data}"}},
            ]}, ""
        try:
            body = self._read(view)
        except Exception as exc:  # no OCR engine: the LLM can still call view() later
            return None, str(exc) or type(exc).__name__
        intro = SCREEN_HEADER + text("screen.intro_text").format(UNTRUSTED)
        words = f"{intro}\n" + untrusted("screen_text", body)
        return {"role": "user", KIND: "screen", "content": [{"type": "text", "text": words}]}, ""

    def _read(self, view: Any) -> str:
        """The screen as text: the windows' controls from their trees, OCR only for
        windows that publish none; what OCR read is stored with the view, so the ids the
        LLM reads resolve in runs."""
        from PIL import Image

        from assistant.computer import screen_text, views

        with Image.open(view.image) as image:
            return screen_text.describe(
                lambda items: views.update_items(view, items, folder=self.folder),
                view.viewport, image)

    def addendum(self) -> str:
        """The `computer` guide for the system message, when there is a desktop to drive."""
        from assistant.computer.capability import Unavailable, require_display

        if self.settings.screen_context == "never":
            return ""
        try:
            require_display()
        except Unavailable:
            return ""
        return guide()

    def prune(self, messages: list[dict[str, Any]]) -> None:
        """Keep images only in the last `screen_images` messages that carry them."""
        keep = max(0, self.settings.screen_images)
        with_images = [m for m in messages if has_image(m)]
        for message in with_images[: len(with_images) - keep]:
            message["content"] = [
                {"type": "text", "text": REMOVED} if part.get("type") == "image_url" else part
                for part in message["content"]
            ]


def _words(said: str) -> set[str]:
    """The words of at least three letters, lower-case and without a plural s."""
    joined = re.sub(r"(?<=[^\W\d_])-(?=[^\W\d_])", "", said.lower())  # "to-do": "todo"
    return {word.removesuffix("s") for word in re.findall(r"[^\W\d_]{3,}", joined)
            if word not in COMMON}


def names_a_window(request: str) -> bool:
    """Whether the request has a word of an open window's title (False without a
    display, or where the windows cannot be listed: by words alone)."""
    asked = _words(request)
    return any(_words(title) & asked for title in x_windows.shown())


def points_at_windows(request: str) -> bool:
    """Whether the request points at something displayed: it says so ("in the editor",
    "the page that's open"), names a window's title or says a button's name."""
    return bool(POINTS.search(request)) or names_a_window(request) or says_a_button(request)


def speaks_of_text(request: str) -> bool:
    """Whether the request speaks of the text an editor on screen shows: it reads as an
    edit of the one editor there (edits.read), says two words in a row of its text
    ("cross off call the bank" over a list that holds "call the bank"), or, with the
    editor in front, speaks of a line or a word ("delete line 2"). A person with the
    list in front of them says what to change in its words, with no word about the
    screen (False without a display)."""
    if not x_windows.shown():
        return False
    from assistant.computer import tree, verbs
    from assistant.loop import edits

    try:
        windows = tree.windows()
    except Exception:  # no accessibility bus
        return False
    asked = _pairs(request)
    editors = [(window, area) for window in windows
               for area in [verbs.editor_area(window)] if area]
    in_front = bool(editors) and editors[0][0] is windows[0] and windows[0].active
    return any(asked & _pairs(area.value) for _, area in editors) or \
        (in_front and TEXT_PARTS.search(request) is not None) or \
        edits.read(request, windows) is not None


def _pairs(said: str) -> set[tuple[str, str]]:
    """Two words in a row, lower-case, of which at least one says more than grammar."""
    words = re.findall(r"[^\W_]+", said.lower())
    return {pair for pair in pairwise(words) if not set(pair) <= GRAMMAR}


def _focused() -> Window | None:
    """The focused window with its controls; None without a display or an accessibility
    bus."""
    if not x_windows.shown():
        return None
    from assistant.computer import tree

    try:
        return tree.window()
    except Exception:  # no accessibility bus
        return None


def waits_for_answer() -> bool:
    """Whether the focused window is a dialog that waits for an answer: a dialog, or a
    small window of buttons with no menus (yad's, zenity's), not the assistant's own. A
    person who speaks over one speaks to it ("book me in for a cleaning", "print just
    the page I'm looking at"), with no word about the screen (False without a display)."""
    from assistant.computer import finding
    from assistant.computer.windows import own

    focused = _focused()
    return focused is not None and focused.active and not own(focused.title) and \
        finding.waits(focused)


def says_a_button(request: str) -> bool:
    """Whether the request says the whole name of a button of the focused window
    ("Remind me tomorrow." over a dialog with that button): a person answers a dialog by
    its button's words, with no word about the screen (False without a display)."""
    from assistant.loop.commands import buttons_said

    focused = _focused()
    return focused is not None and bool(buttons_said(request, focused))


def front_example() -> str:
    """Lines of the verbs' code in the names of the focused window, when it is a form (its
    fields, a box or a row, then its confirming button) or an editor (its file), or the
    buttons of a dialog; "" for any other. Told only to act through `computer`, a small
    model posted a dentist's booking form to an invented site again; lines in its own
    dialog's names leave it values to fill in. A window of buttons alone gets its
    buttons' names and no line: which to press is the whole question, and the first of
    "Move to Trash, Cancel" is no example to give."""
    from assistant.computer import finding, textmatch
    from assistant.computer.verbs import editor_area
    from assistant.computer.windows import own

    window = _focused()
    if window is None or own(window.title):
        return ""
    files = FILE_NAME.findall(window.title)
    if files and editor_area(window) is not None:
        where = files[-1].rsplit("/", 1)[-1]
        lines = [f"computer.replace(..., ..., window={where!r})",
                 f'computer.type(..., window={where!r}, at="end")',
                 f"computer.save(window={where!r})"]
        return text("screen.front").format(where, "\n".join(lines))
    controls = [c for c in window.controls if c.name]
    if not finding.waits(window):
        return ""
    title = window.title
    fields = [c.name for c in controls if c.field and not c.label][:4] or \
        [c.name for c in controls if c.role == "combo box"][:1]
    lines = [f"computer.fill({{{', '.join(f'{name!r}: ...' for name in fields)}}}, "
             f"window={title!r})"] if fields else []
    lines += [f"computer.tick({c.name!r})" for c in controls
              if finding.is_kind(c, "tick box") and c.role != "radio button"][:1] or \
        [f"computer.choose({c.name!r})" for c in controls
         if c.role in ("radio button", "list item", "table cell", "tree item")][:1]
    buttons = sorted((c.name for c in controls if finding.is_kind(c, "button")),
                     key=lambda name: textmatch.normalize(name) not in finding.CONFIRMS)
    if not buttons:
        return ""
    if not lines:
        return text("screen.front_buttons").format(title, ", ".join(map(repr, buttons)))
    lines.append(f"computer.press({buttons[0]!r}, window={title!r})")
    return text("screen.front").format(title, "\n".join(lines))


def written_behind(language: str, code: str) -> tuple[str, str] | None:
    """The file `code` writes (open(..., "w"), write_text, a shell redirect, sed -i) that
    a window on screen has open, by its name in the title ("guests.txt - Mousepad"), and
    that window's title; None when it writes none."""
    if not _writes(language, code):
        return None
    for title in x_windows.shown():
        for base in _files(title):
            if _names(code, base):
                return base, title
    return None


def writes_named(language: str, code: str, request: str) -> bool:
    """Whether `code` writes a file (as written_behind reads it) that the request names
    and no window on screen has open: "save a copy of the budget that's open as
    budget-2025.txt" asks for that file, and code that writes it does what was asked."""
    if not _writes(language, code):
        return False
    held = {base for title in x_windows.shown() for base in _files(title)}
    return any(_names(code, name) for name in set(FILE_NAME.findall(request)) - held)


def _writes(language: str, code: str) -> bool:
    """Whether `code` writes a file: open(..., "w"), write_text, a shell redirect, sed -i."""
    writes = WRITES.get(language)
    return writes is not None and bool(writes.search(code))


def _files(title: str) -> list[str]:
    """The names of the files a window's title names, without their folders."""
    return [name.rsplit("/", 1)[-1] for name in FILE_NAME.findall(title)]


def _names(code: str, name: str) -> bool:
    """Whether `code` names the file `name` whole ("notes.txt", not "notes.txt.bak")."""
    return bool(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", code))


def guide() -> str:
    """The `computer` guide for the system message: one short example per verb."""
    return text("screen.guide") + "\n" + text("screen.guide_end").format(UNTRUSTED)


def screen_wanted(screen: ScreenFeed, rules: Rules, request: str) -> bool:
    """Whether the turn starts with the screen attached: always, or (auto) when the
    request reads as about the screen, in English (rule screen.attach)."""
    mode = screen.settings.screen_context
    if mode != "auto":
        return mode == "always"
    return screen.wanted_for(request) and applies(rules, Annotate("screen.attach", ""))


def look(screen: ScreenFeed) -> Iterator[Event]:
    """Take a view of the screen for the next request; say so when the desktop cannot."""
    problem = screen.capture()
    if problem:
        yield Notice(f"The screen is not attached: {problem}")


def show_screen(screen: ScreenFeed, messages: list[dict[str, Any]], first: bool = False
                ) -> Iterator[Event]:
    """Put the newest unseen view into the history, keeping only the last few images.
    The `first` of a turn goes before its request: a small model then reads last what to
    do, not a screen it would describe instead."""
    message, problem = screen.take()
    if problem:
        yield Notice(f"The screen is not attached: {problem}")
    if message is not None:
        messages.insert(len(messages) - 1 if first and messages else len(messages), message)
    screen.prune(messages)
