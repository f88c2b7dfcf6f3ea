"""Spoken edits of the one editor on screen, read without the model.

"Type "buy milk" into the note and save it", "change Monday to Friday and save the file",
"add "feed the cat" as a new last line, then save", "save it as soup.txt", "open a new
document, write "first draft" in it and save it as draft.txt": a person who
asks this of the file open in an editor names the words to type or replace and the file
to save; the editor's own text says whether a word to replace is there. A request whose
every clause reads so, with one editor on screen, becomes the editing verbs' code at once
(rule screen.command, as commands.py does for controls): no model call, which on two
cores is 20 s and more a reply, and a small model asked this has opened the file again
through File > Open, or written the file behind the editor's back. Anything else (a
negation, a clause of other words, a word to replace the text lacks, two editors) is the
model's. The words live in commands.toml, [edits].
"""

from __future__ import annotations

import re

from assistant.computer import textmatch, verbs
from assistant.computer.tree import Window
from assistant.loop.commands import call_code
from assistant.loop.said import (
    CLAUSES,
    DATA,
    NEGATION,
    aside,
    held,
    plain,
    unframed,
)

EDITS: dict[str, list[str]] = DATA["edits"]
FILE_NAME = re.compile(r"^[\w.-]+\.\w{1,8}$")  # soup.txt, a name with its extension
# "type "buy milk" into the note", "write the line "Regards" in it".
TYPE = re.compile(rf"^(?:{'|'.join(EDITS['type'])}):?\s+(?:(?:exactly|just|only)\s+)?"
                  r"(?:(?:the|this|a|my)\s+)?"
                  rf"(?:(?:{'|'.join(EDITS['typed'])})\s+)?(?:(?:saying|that says|reading)\s+)?"
                  r"\x00(\d+)"
                  r"(?:\s+(?:in|into|to|on)\s+(.+))?$", re.IGNORECASE)
# "write Meeting moved to 3pm in the memo": a few bare words, then the editor they go in.
TYPE_BARE = re.compile(rf"^(?:{'|'.join(EDITS['type'])})\s+(.+?)\s+(?:in|into)\s+(.+)$",
                       re.IGNORECASE)
# "fill the empty memo with the sentence 'Meeting moved'": the editor, then the text.
FILL = re.compile(rf"^fill\s+(?:in\s+|up\s+)?(.+?)\s+with\s+(?:(?:the|a)\s+)?"
                  rf"(?:(?:{'|'.join(EDITS['typed'])})\s+)?\x00(\d+)$", re.IGNORECASE)
ADD = re.compile(rf"^(?:{'|'.join(EDITS['add'])})\s+(\x00\d+)(?:\s+as\s+(?:a|the)\s+"
                 r"(?:new\s+)?(?:last\s+|(first)\s+)?line)?"
                 r"(?:\s+(?:to|at the end of|of|in|into|on)\s+(.+))?$", re.IGNORECASE)
EVERYWHERE = "|".join(re.escape(w) for w in sorted(EDITS["everywhere"], key=len, reverse=True))
# "replace Monday with Friday in the letter", "change the name Bob to Robert", "swap
# Monday for Friday": the old words, the new, and where (the editor, said).
REPLACE = re.compile(rf"^(?:{'|'.join(EDITS['replace'])})\s+(?:(?:the|every|each|all|both)\s+)?"
                     r"(?:(?:occurrences?|instances?|mentions?)\s+of\s+)?"
                     r"(?:(?:words?|names?)\s+)?(.+?)\s*(?:\s(?:with|to|into|by|for)\s|->|→)\s*"
                     rf"(.+?)(?:\s+(?:{EVERYWHERE}))?(?:\s+(?:in|on|of|throughout|all through)"
                     r"\s+(.+))?$", re.IGNORECASE)
# "use Samuel instead of Sam throughout", "update the letter so it says Samuel instead
# of Sam": the new words, the old, and where.
INSTEAD = re.compile(r"^(?:(?:update|change|edit|fix)\s+(.+?)\s+so\s+(?:that\s+)?it\s+"
                     r"(?:says|reads|has)|use|put|write|say|have)\s+(.+?)\s+instead\s+of\s+"
                     rf"(.+?)(?:\s+(?:{EVERYWHERE}))?(?:\s+(?:in|on|of|throughout|all through)"
                     r"\s+(.+))?$", re.IGNORECASE)
# "put eggs on the end of the list", "add a line saying call Bob at the bottom", "put
# passport at the very top of my list": a line, quoted or a few bare words, after the
# text or before it.
AT_PLACE = re.compile(rf"^(?:{'|'.join(EDITS['add'] + EDITS['type'])})\s+(?:a\s+(?:new\s+)?"
                      r"line\s+(?:(?:saying|that says|reading|with)\s+)?|the\s+line\s+)?(.+?)"
                      r"(?:\s+as\s+(?:a|the)"
                      r"\s+(?:new\s+)?(?:last\s+|first\s+)?line)?\s+(?:on|at|to|onto)\s+(?:the\s+)?"
                      r"(?:very\s+)?(end|bottom|top|beginning|start)(?:\s+of\s+(.+))?$",
                      re.IGNORECASE)
START = frozenset({"first", "top", "beginning", "start"})
# "delete the line that says Feed the cat", "remove the line with milk": the one line of
# the text that holds the words. "Remove Tom Becker from the guest list": the line that
# is those words.
DELETE = re.compile(rf"^(?:{'|'.join(EDITS['delete'])})\s+(?:the\s+)?line\s+(?:(?:that|which)\s+"
                    r"(?:says|reads|has|mentions|contains|starts with|begins with)\s+|saying\s+|"
                    r"with\s+|about\s+|containing\s+|mentioning\s+|reading\s+|"
                    r"starting with\s+|where it says\s+)?(.+?)(?:\s+(?:from|in|of)\s+(.+))?$",
                    re.IGNORECASE)
# The old words, then where, said before the new: "every 'Sam' in the letter".
WHERE_BETWEEN = re.compile(r"^(\x00\d+|[\w'-]+)\s+(?:in|on|throughout)\s+(.+)$",
                           re.IGNORECASE)
# "recieve should be receive": the word as it is, then as it should be.
SHOULD = re.compile(r"^(.+?)\s+should\s+(?:be|say|read|have been)\s+(.+)$", re.IGNORECASE)
# A clause that only asks for the edit the others say: "can you fix it".
FIX = re.compile(r"^(?:fix|correct)\s+(?:it|this|that|them|the typos?|the mistakes?)$",
                 re.IGNORECASE)
PRONOUNS = frozenset({"it", "this", "that", "they", "he", "she", "the date", "the name"})
# Words an editor's name is said with: "the empty memo", "my open document".
PLAIN = frozenset({"the", "a", "my", "this", "that", "empty", "blank", "open", "opened",
                   "current", "new", "mousepad"})
# Bare words that start a description of a text, not the text ("write a note in it").
NOT_TEXT = frozenset({"a", "an", "the", "this", "that", "it", "my", "your", "his", "her",
                      "their", "our", "some", "something", "today's", "what", "whatever"})
# "delete the second line", "remove the last line of the letter", "delete line 2", "drop
# the second item from my list".
NTH = re.compile(rf"^(?:{'|'.join(EDITS['delete'])})\s+(?:the\s+)?(?:(first|second|third|fourth|"
                 r"fifth|last|middle|1st|2nd|3rd|4th|5th)\s+(?:line|item|entry)|"
                 r"(?:line|item|entry)\s+(?:number\s+)?(\d{1,3}))"
                 r"(?:\s+(?:from|in|of)\s+(.+))?$", re.IGNORECASE)
PLACES = ["first", "second", "third", "fourth", "fifth"]
# "delete the DRAFT line": the one line that holds the words said before "line".
NAMED_LINE = re.compile(rf"^(?:{'|'.join(EDITS['delete'])})\s+(?:the\s+)?(.+?)\s+"
                        r"(?:line|item|entry)(?:\s+(?:from|in|of|at\s+the\s+top\s+of)\s+(.+))?$",
                        re.IGNORECASE)
STRUCK = re.compile(rf"^(?:{'|'.join(EDITS['delete'])}|take)\s+(.+?)(?:\s+(?:from|off|out of)\s+"
                    r"(.+))?$", re.IGNORECASE)
SAVE = re.compile(r"^save(?:\s+(?P<what>.+?))??(?:\s+here)?(?:\s+(?:as|under)\s+"
                  r"(?:the\s+)?(?:new\s+)?(?:name\s+)?(?P<name>\S+?))?"
                  r"(?:\s+(?:as well|too|afterwards|after that|"
                  r"in (?:my|this|the same|the current) (?:folder|directory|dir)|here|"
                  r"(?:next to|beside|alongside)(?: my| the)? \S+))?$", re.IGNORECASE)
SAVE_KEYS = re.compile(r"^(?:press|hit|use|click)\s+(?:(?:ctrl|control)\s*(?:\+|-)?\s*s|save)$",
                       re.IGNORECASE)
# What names the editor besides a word of its title: "type it into the note".
EDITOR = frozenset({"it", "this", "that", "editor", "document", "doc", "note", "notes",
                    "file", "text", "window", "changes", "list", "letter", "memo", "draft",
                    "page"})
SCOPE = re.compile(r"^(?:in|on)\s+.+$", re.IGNORECASE)  # "In the letter open in Mousepad"
NEW = re.compile(rf"^(?:{'|'.join(EDITS['new'])})\s+(?:me\s+)?(?:a\s+)?(?:new|fresh)\s+"
                 r"(?:empty\s+|blank\s+)?(?:document|doc|file|tab|note|page)"
                 r"(?:\s+(?:in|on)\s+(?P<where>.+?))?"
                 r"(?:\s+(?:with|containing|saying|that says)\s+(?:the\s+)?(?:text\s+|words\s+|"
                 r"line\s+)?\x00(?P<text>\d+))?$", re.IGNORECASE)
# "write "hi" in a new Mousepad document": the clause, then where it goes.
INTO_NEW = re.compile(r"^(.+?)\s+(?:in|into|to|on)\s+(?:a\s+)?new\s+(?:[\w-]+\s+)?"
                      r"(?:document|file|tab|note|page)$", re.IGNORECASE)


def read(request: str, windows: list[Window]) -> str | None:
    """The editing verbs' code for `request` when every clause of it reads as an edit of
    the one editor on screen (`windows`); None when any does not. Read whole first, then
    without the sentences that set the scene: "The editor has my list open." is the
    scene, but "there's a typo in the note, recieve should be receive." holds an edit.
    An editor is a window whose one field is its text area (`verbs.editor_area`)."""
    editors = [(w, area) for w in windows for area in [verbs.editor_area(w)] if area is not None]
    if len(editors) != 1 or NEGATION.search(held(request)[0]):  # "type 'do not open'"
        return None
    editor, area = editors[0]
    for whole in dict.fromkeys((request, unframed(request))):
        code = _clauses(whole, editor.title.lstrip("*"), area.value)
        if code is not None:
            return code
    return None


def _clauses(request: str, title: str, text: str) -> str | None:
    """The editing calls of every clause of `request`; None when any does not read."""
    said, quoted = held(request)
    lines: list[str] = []
    for part in CLAUSES.split(said):
        part = plain(part)
        if not part or aside(part):
            continue
        new, into = NEW.match(part), INTO_NEW.match(part)
        if new or into:  # a new document, in the editor's window: the clauses after it
            if new and new["where"] and not _names_editor(new["where"], title):
                return None
            lines += [call_code("focus", title), call_code("key", "ctrl+n")]
            title, text = "", ""  # act in the focused window, whose title is no name yet
            if new and new["text"]:
                lines.append(call_code("type", quoted[int(new["text"])]))
            if not into:
                continue
            part = into[1]
        line = _edit(part, quoted, text, title)
        again = re.fullmatch(r"\x00(\d+)", part)
        if line is None and again and lines and \
                lines[-1] == call_code("replace", quoted[int(again[1])], "", window=title):
            continue  # "the middle line, 'call the bank',": the line just deleted, said again
        if line is None:
            return None
        if line:
            lines.append(line)
    return "\n".join(lines) or None


def _edit(part: str, quoted: list[str], text: str, title: str) -> str | None:
    """One clause as an editing call; "" for a clause that only names the editor."""
    typed = TYPE.match(part)
    if typed:
        if typed[2] is not None and not _names_editor(typed[2], title):
            return None
        end = "end" if text.strip() else ""  # typed after the text it holds
        return call_code("type", quoted[int(typed[1])], window=title, at=end)
    added = ADD.match(part) or AT_PLACE.match(part)
    if added:  # ADD: the text, "first" or not, where; AT_PLACE: the text, the place, where
        line = _said(added[1], quoted, words=6)
        if line is None or (added[3] is not None and not _names_editor(added[3], title)):
            return None
        if (added[2] or "").casefold() in START:
            return call_code("type", line + "\n", window=title, at="start")
        before = "" if not text or text.endswith("\n") else "\n"
        return call_code("type", before + line + "\n", window=title, at="end")
    into = _into(part, quoted)
    if into is not None:
        where, line = into
        if line is None or not _only_editor(where, title) or \
                line.split()[0].casefold() in NOT_TEXT:
            return None
        return call_code("type", line, window=title, at="end" if text.strip() else "")
    return _removed(part, quoted, text, title)


def _place(said: str, count: int) -> int | None:
    """The index of the line said by its place among `count` ("second", "2nd", "2",
    "last", "middle": of an odd count only)."""
    if said == "last":
        return -1
    if said == "middle":
        return count // 2 if count % 2 else None
    return PLACES.index(said) if said in PLACES else int(re.sub(r"\D", "", said)) - 1


def _into(part: str, quoted: list[str]) -> tuple[str, str | None] | None:
    """Where a text goes and the text (None: more than a few bare words), for "fill the
    memo with 'hi'" and "write Meeting moved to 3pm in the memo"; None for other words."""
    filled = FILL.match(part)
    if filled is not None:
        return filled[1], quoted[int(filled[2])]
    bare = TYPE_BARE.match(part)
    return (bare[2], _said(bare[1], quoted, words=8)) if bare is not None else None


def _removed(part: str, quoted: list[str], text: str, title: str) -> str | None:
    """A clause that deletes a line, or replaces words (or saves: `_saved`)."""
    nth = NTH.match(part)
    if nth and (nth[3] is None or _names_editor(nth[3], title)):
        lines = [line for line in text.splitlines() if line.strip()]
        at = _place((nth[1] or nth[2]).casefold(), len(lines))
        line = lines[at] if at is not None and -len(lines) <= at < len(lines) else None
        return call_code("replace", line, "", window=title) if line and \
            text.count(line) == 1 else None
    deleted = DELETE.match(part)
    if deleted:
        words = _said(deleted[1], quoted, words=8)
        if words is None or (deleted[2] is not None and not _names_editor(deleted[2], title)):
            return None
        lines = [line for line in text.splitlines() if words.casefold() in line.casefold()]
        return call_code("replace", lines[0], "", window=title) if len(lines) == 1 else None
    named = NAMED_LINE.match(part)
    if named and (named[2] is None or _names_editor(named[2], title)):
        words = _said(named[1], quoted, words=4)
        lines = [line for line in text.splitlines()
                 if words is not None and words.casefold() in line.casefold()]
        return call_code("replace", lines[0], "", window=title) if len(lines) == 1 and \
            text.count(lines[0]) == 1 else None
    struck = STRUCK.match(part)  # "cross off call the bank": a line said whole
    if struck and (struck[2] is None or _names_editor(struck[2], title)):
        words = _said(struck[1], quoted, words=8)
        lines = [line for line in text.splitlines()
                 if words is not None and line.strip().casefold() == words.casefold()]
        return call_code("replace", lines[0], "", window=title) if len(lines) == 1 else None
    should = SHOULD.match(part)
    if should and should[1].casefold() not in PRONOUNS:
        old, new = (_said(group, quoted, words=4) for group in (should[1], should[2]))
        if not old or new is None or old.casefold() not in text.casefold():
            return None
        return call_code("replace", old, new, window=title)
    if FIX.match(part):
        return ""
    instead = INSTEAD.match(part)
    if instead:
        return _replaced((instead[3], instead[2], instead[4] or instead[1]), quoted, text,
                         title)
    replaced = REPLACE.match(part)
    if replaced:
        return _replaced((replaced[1], replaced[2], replaced[3]), quoted, text, title)
    return _saved(part, title)


def _replaced(said: tuple[str, str, str | None], quoted: list[str], text: str, title: str
              ) -> str | None:
    """The replace of the old words said (which the text holds) with the new, in the
    editor the third part names when there is one."""
    group, where = said[0], said[2]
    between = WHERE_BETWEEN.match(group) if where is None else None
    if between:  # "change every 'Sam' in the letter to 'Samuel'"
        group, where = between[1], between[2]
    old, new = _said(group, quoted, words=4), _said(said[1], quoted, words=4)
    if not old or new is None or old.casefold() not in text.casefold() or (
            where is not None and not _names_editor(where, title)):
        return None
    return call_code("replace", old, new, window=title)


def _saved(part: str, title: str) -> str | None:
    """A clause that saves the file, under its name or another."""
    if SAVE_KEYS.match(part):
        return call_code("save", window=title)
    saved = SAVE.match(part)
    if saved:
        what = saved["what"]
        if what is not None and (re.search(r"\b(?:as|under)\b", what, re.IGNORECASE)
                                 or not _names_editor(what, title)):
            return None  # "save it as my letter": a name that is not a file's
        name = saved["name"]
        if name is None:
            return call_code("save", window=title)
        if not FILE_NAME.match(name):
            return None
        return call_code("save_as", name, window=title)
    return "" if SCOPE.match(part) and _names_editor(part, title) else None


def _said(group: str, quoted: list[str], words: int = 1) -> str | None:
    """A text as said: quoted, or up to `words` bare words."""
    held = re.fullmatch(r"\x00(\d+)", group.strip())
    if held:
        return quoted[int(held[1])]
    bare = group.strip()
    fits = re.fullmatch(r"[\w'-]+(?: [\w'-]+)*", bare) and len(bare.split()) <= words
    return bare if fits else None


def _only_editor(phrase: str, title: str) -> bool:
    """Whether a phrase is nothing but the editor's name ("the blank document", "memo.txt",
    "the open memo"): what bare words typed into it end at. "Put Priya in place of Tom on
    my guest list" names the list, and more."""
    words = re.findall(r"\w+", textmatch.normalize(phrase))
    titled = set(re.findall(r"\w+", textmatch.normalize(title)))
    return bool(words) and all(word in EDITOR or word in titled or word in PLAIN
                               for word in words)


def _names_editor(phrase: str, title: str) -> bool:
    """Whether a phrase ("the letter open in Mousepad", "it") names the editor: a word of
    its title, or a word any editor goes by."""
    said = set(re.findall(r"\w+", textmatch.normalize(phrase)))
    titled = set(re.findall(r"\w{3,}", textmatch.normalize(title)))
    return bool(said & EDITOR or said & titled or any(
        len(word) >= 5 and len(name) >= 5 and word[:5] == name[:5]  # invitation: invite.txt
        for word in said for name in titled))
