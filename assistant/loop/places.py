"""Where a spoken command acts, and what it names there: the window a phrase names ("the
backup dialog", "the file picker", "it"), a part of a window named only to say where ("in
the notebook", "at the top of the window"), and a control as said ("the OK button", "the
third tab"). What the readers of commands (commands.py) share; the words live in
commands.toml.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.computer import finding, textmatch, tree
from assistant.computer.tree import Control, Window
from assistant.loop.said import WORDS, strip_words

PRONOUNS = frozenset({"it", "this", "that", "them"})
ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th",
            "10th"]
ORDINAL = re.compile(rf"^({'|'.join(ORDINALS)})\s+(page|tab)$", re.IGNORECASE)
NTH_TAB = re.compile(rf"^(?:the\s+)?({'|'.join(ORDINALS)}|last)\s+tab$", re.IGNORECASE)
SCOPE = re.compile(r"^(.*?)\s+(?:in|on|of|from|at)\s+(.+)$", re.IGNORECASE)
PARTS = frozenset(WORDS["parts"])


def name(text: str, quoted: list[str]) -> str:
    """A control's name as said: no article, no role word, a quoted name unquoted."""
    text = strip_words(strip_words(text, "articles", ends=False), "roles")
    text = strip_words(text, "articles", ends=False)
    held = re.fullmatch(r"\x00(\d+)", text)
    return quoted[int(held[1])] if held else text


def window(phrase: str, windows: list[Window], quoted: list[str]) -> Window | None:
    """The window a phrase names ("the backup dialog", "the sign-up form" for "Sign up"):
    by its title, whole or a part."""
    def flat(text: str) -> str:
        return textmatch.normalize(text.replace("-", " "))

    if flat(strip_words(phrase, "articles")) in WORDS["choosers"]:  # "the file picker"
        return next((w for w in windows if w.role == "file chooser"), None)
    wanted = flat(strip_words(name(phrase, quoted), "windows"))
    if not wanted:
        return None
    exact = [w for w in windows if flat(w.title) == wanted]
    words = re.compile(rf"(?<!\w){re.escape(wanted)}(?!\w)")  # "it" is no part of "Edit"
    within = exact or [w for w in windows if words.search(flat(w.title))]
    return within[0] if within else None


def where_only(phrase: str, windows: Sequence[Window] = ()) -> bool:
    """Whether a phrase names a part of a window only to say where ("the notebook", "the
    top of the window", "the window"; "Page 2 of the Widget Factory" over a window so
    titled that shows "Page 2"): every word of it is such a word, or a word of a window's
    title or of one of its controls' names."""
    words = re.findall(r"[\w']+", textmatch.normalize(phrase))
    shown = {word for window in windows
             for said in (window.title, *(c.name for c in window.controls))
             for word in re.findall(r"[\w']+", textmatch.normalize(said.replace("-", " ")))}
    return bool(words) and all(word in PARTS or word in shown for word in words)


def scoped(rest: str, windows: list[Window], quoted: list[str]
           ) -> list[tuple[str, list[Window], str]]:
    """Readings of `rest`: (the name, the windows to look in, the title said), the name
    in a window named after it first ("OK in the Export dialog"), or in any window when
    what follows only says where ("page 3 in the notebook"), then `rest` whole (a name
    with "in" in it: "Log in")."""
    readings = []
    said = SCOPE.match(rest)
    if said:  # "from it", "in this dialog": the window in front
        bare = strip_words(strip_words(said[2], "windows"), "articles").casefold()
        found = windows[0] if bare in PRONOUNS else window(said[2], windows, quoted)
        if found is not None:
            readings.append((name(said[1], quoted), [found], found.title))
        elif where_only(said[2], windows):
            readings.append((name(said[1], quoted), windows, ""))
    readings.append((name(rest, quoted), windows, ""))
    return readings


def exact(windows: list[Window], said: str, kinds: tuple[str, ...]
          ) -> tuple[Control, Window] | None:
    """The first control named exactly `said` of the first kind that has one, in the
    windows in order (the focused first). The case a person says a name in counts for
    nothing: spoken, or typed fast, "page 2" meant the page switcher's "Page 2" and not a
    notebook's tab "page 2"."""
    wanted = textmatch.normalize(said)
    if not wanted:
        return None
    for kind in kinds:
        for shown in windows:
            for control in shown.controls:
                if textmatch.normalize(control.name) == wanted and of_kind(control, kind):
                    return control, shown
    return None


def nth_tab(said: str, windows: list[Window]) -> tuple[Control, Window] | None:
    """"the third tab", "the last tab": that tab of the first row of tabs of the first
    window that has tabs (a row ends where a tab's name comes again)."""
    scope = SCOPE.match(said)
    said = scope[1] if scope and where_only(scope[2]) else said  # "... in the notebook"
    ordinal = NTH_TAB.match(strip_words(said, "articles", ends=False))
    if ordinal is None:
        return None
    for shown in windows:
        row: list[Control] = []
        for control in (c for c in shown.controls if c.role == "page tab"):
            if any(textmatch.normalize(c.name) == textmatch.normalize(control.name)
                   for c in row):
                break
            row.append(control)
        if row:
            word = ordinal[1].casefold()
            at = -1 if word == "last" else ORDINALS.index(word) % 10
            return (row[at], shown) if -len(row) <= at < len(row) else None
    return None


def numbered(said: re.Match[str]) -> str:
    """"third page" as a tab names it: "page 3"."""
    return f"{said[2]} {ORDINALS.index(said[1].casefold()) % 10 + 1}"


def of_kind(control: Control, kind: str) -> bool:
    if kind == "tab":
        return control.role == "page tab"
    if kind == "any":
        return control.role not in tree.TEXTS and not control.label
    return finding.is_kind(control, kind)
