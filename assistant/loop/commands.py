"""Spoken commands that name only what is on screen, read without the model.

"click Yes", "tick Photos and Music", "choose green in the colour dialog", "say no": a
person speaking to the desktop names a control by the words on it, and the windows'
trees (tree.py) say whether such a control is there. A command whose every part names
one exactly becomes the verbs' code at once, proposed and approved as the model's code
is: it costs no model call (20 s and more on two cores), and a small model asked to say
no to a dialog has answered "No, I do not want to delete my drafts" with the dialog
still open. Anything else (a name not on screen, a negation of a verb or a
name, a word left over) is the model's, as before; a negation of neither ("don't delete
anything") only says what not to do. The words live in commands.toml.
"""

from __future__ import annotations

import json
import re

from assistant.computer import finding, textmatch, tree
from assistant.computer.after import CLOSERS
from assistant.computer.tree import Control, Window
from assistant.loop import places
from assistant.loop.said import (
    CLAUSES,
    DATA,
    NEGATION,
    aside,
    held,
    negated,
    plain,
    strip_words,
    unframed,
    verb_of,
)

ANSWERS: dict[str, list[str]] = DATA["answers"]
KEYS = frozenset({"enter", "return", "escape", "esc", "tab", "space"})
WITHOUT = re.compile(r"^(.+?)\s+without\s+\w+ing\b(?:\s+(?:anything|it|them|that|this))?$",
                     re.IGNORECASE)  # close it without saving: the close, and what it is not
TAB = re.compile(r"\btab\b", re.IGNORECASE)
SCOPE_ONLY = re.compile(r"^(?:in|on|from)\s+", re.IGNORECASE)  # "In the file chooser, ..."
INTO = re.compile(r"^\x00(\d+)\s*(?:(?:into|in|to)\s+(?:(?:that|this)\s+)?(.+))?$",
                  re.IGNORECASE)
# "set the spin button to 75", "bump the counter from 50 up to 75".
SET = re.compile(r"^(.+?)\s+(?:from\s+\S+\s+)?(?:(?:up|down)\s+)?to\s+(\S+)$", re.IGNORECASE)
# Said of a field's value, not its name: "change the number in the spin box to 75".
VALUE_OF = re.compile(r"^(?:the\s+)?(?:number|value|amount)\s+(?:in|of|on)\s+", re.IGNORECASE)
NUMBER_FIRST = re.compile(r"^(\d+(?:\.\d+)?)(?=\s+(?:into|in|to)\s)")  # "enter 75 in ..."
SAY = re.compile(r"^(yes|no|ok|cancel)\b(?:\s+to\s+(.+))?$", re.IGNORECASE)
MANY = ("tick", "untick", "fill")  # verbs a bare name after "and" goes on with: tick A
# and B; fill in the form with name Ana and email ana@example.org
WITH = re.compile(r"^(.+?)\s+with\s+(.+)$", re.IGNORECASE)
# report.txt, "Holiday plan.txt", notes/todo.txt: a file's name with its extension
FILE = re.compile(r"[\w.~/-]+(?: [\w.-]+)*\.\w{1,8}")
FILE_WORDS = re.compile(r"^(?:the\s+)?(?:file|document)\s+(?:called\s+|named\s+)?|"
                        r"^the\s+(?=\S+\s+(?:file|document)$)|\s+(?:file|document)$",
                        re.IGNORECASE)  # "the file called a.txt", "the a.txt file"
SAVE_AS = re.compile(r"^(?:(?:it|this|the file|the document)\s+)?(?:as|under|with)\s+(?:the\s+)?"
                     r"(?:file\s*)?(?:name\s+)?(\S+)$", re.IGNORECASE)


def read(request: str, windows: list[Window]) -> str | None:
    """The verbs' code for `request` when every part of it names a control on screen
    exactly (`windows`, the focused first); None when any part does not."""
    if not windows:
        return None
    said_text, quoted = held(unframed(request))
    lines: list[str] = []
    verb, last, answered = "", "", ""
    for part in CLAUSES.split(said_text):
        part = plain(part)
        if not part or aside(part):
            continue
        if NEGATION.search(part):
            instead = answering(negated(part), sorted(windows, key=lambda w: w.title != last))
            if instead is not None:  # "close it without saving": its Don't Save
                lines.append(call_code("press", instead[0].name, window="" if instead[1]
                                       is windows[0] else instead[1].title))
                verb, last, answered = "", instead[1].title, instead[1].title
                continue
            kept = _without(part, windows, quoted)
            if kept is None:
                return None
            if not kept:
                continue
            part = kept
        said, rest = verb_of(part)
        if _redundant(said, rest, answered, windows, quoted):
            continue
        place = places.window(SCOPE_ONLY.sub("", part), windows, quoted) if said is None and \
            SCOPE_ONLY.match(part) else None
        if place is not None or (said is not None and not rest):
            verb, last = (verb, place.title) if place else (said or "", last)
            continue  # "In the file chooser, ..."; "Tick, Photos and Music", as Whisper writes
        answer = textmatch.normalize(part) in ANSWERS  # "..., and send it"
        if said is None and not answer and (verb in MANY or (verb and not lines)):
            said, rest = verb, part
        ordered = sorted(windows, key=lambda w: w.title != last)  # the one acted in first
        call = _line(said, rest, quoted, ordered) if said else \
            _answer(part, ordered) or _button(part, quoted, ordered)
        if call is None:
            return None
        called, args, keywords, last = call
        if last and last != windows[0].title:  # where the verb would look first: say which
            keywords = {**keywords, "window": last}
        if called == "open":  # the file's name, then the chooser's own button
            lines += [call_code("choose", args[0], **keywords),
                      call_code("press", args[1], **keywords)]
            answered = last
        elif called == "accept":  # the box that says it accepts, then the button on
            lines += [call_code("tick", args[0], **keywords),
                      call_code("press", args[1], **keywords)]
        else:
            lines.append(call_code(called, *args, **keywords))
        verb = said or ""
    return "\n".join(lines + _answered(lines, windows, last)) or None


def _answered(lines: list[str], windows: list[Window], last: str) -> list[str]:
    """The press that answers a dialog of one choice once its item is chosen ("choose
    green in the colour dialog": a list and OK, nothing to type): what the person wants
    is the dialog answered, and a chosen row alone leaves it waiting. Nothing after any
    other calls, for a dialog with a field to fill, a file chooser, or a program's own
    window. The window is named as the choice named it (`last`, the one acted in)."""
    if len(lines) != 1 or not lines[0].startswith("computer.choose("):
        return []
    window = next((w for w in windows if w.title == last), windows[0])
    if window.role == "file chooser" or not finding.waits(window) or \
            any(c.field for c in window.controls):
        return []
    title = window.title if "window=" in lines[0] else ""
    confirm = next((c.name for c in window.controls if c.role == "push button"
                    and textmatch.normalize(c.name) in finding.CONFIRMS), None)
    return [call_code("press", confirm, window=title)] if confirm else []


def said_button(request: str, windows: list[Window]) -> str | None:
    """The press of the one button of the dialog in front whose whole name the request
    says, when that dialog has nothing but buttons and the request negates nothing:
    a person answers such a dialog in its button's words and says why ("Remind me
    tomorrow, I'm in a meeting"), which `read` leaves to the model for the words left
    over. None when no button, or more than one, is said."""
    front = windows[0] if windows else None
    if front is None or not front.active or not finding.waits(front) or \
            NEGATION.search(request) or \
            any(c.field or c.role in tree.CHOICES or finding.is_kind(c, "tick box")
                for c in front.controls):
        return None
    said = buttons_said(request, front)
    return call_code("press", said[0]) if len(said) == 1 else None


def buttons_said(request: str, window: Window) -> list[str]:
    """The names of the window's buttons (of more than three letters: "OK" and "No" are
    said in passing) that the request says whole."""
    def words(text: str) -> str:
        return f" {' '.join(finding.WORDS.findall(textmatch.normalize(text)))} "

    said = words(request)
    return list(dict.fromkeys(c.name for c in window.controls if finding.is_kind(c, "button")
                              and len(c.name) > 3 and words(c.name) in said))


def _without(part: str, windows: list[Window], quoted: list[str]) -> str | None:
    """A clause that negates and no button answers: what is left to read ("get rid of it
    without deleting anything": the close), "" when nothing is ("don't delete anything;
    say no": what not to do, to no control), None when the model weighs it ("don't press
    Yes")."""
    closing = WITHOUT.match(part)
    if closing and verb_of(closing[1])[0] == "close" and not _names(part, windows, quoted):
        return closing[1]
    if verb_of(part)[0] is not None or _names(part, windows, quoted):
        return None
    return ""


def _redundant(said: str | None, rest: str, answered: str, windows: list[Window],
               quoted: list[str]) -> bool:
    """A clause the call before it did already, in the window it answered: "don't save,
    just close it" (the answer closed it); "pick report.txt and open it", "..., then
    click Open" (the file was opened with the chooser's Open)."""
    if not answered or said not in ("close", "open", "press"):
        return False
    if said == "press":
        return textmatch.normalize(places.name(rest, quoted)) in CLOSERS
    return strip_words(rest, "articles") in places.PRONOUNS or getattr(
        places.window(rest, windows, quoted), "title", None) == answered


def answering(stems: set[str], windows: list[Window]) -> tuple[Control, Window] | None:
    """The first button on screen whose name says not to do one of `stems` ("Don't Save",
    "Close without Saving"): what a person who said so means."""
    for window in windows:
        for control in window.controls:
            if stems and control.enabled and finding.is_kind(control, "button") \
                    and negated(control.name) & stems:
                return control, window
    return None


def _names(part: str, windows: list[Window], quoted: list[str]) -> bool:
    """Whether a clause says a name on screen (a window's title or a control's), or
    quotes anything."""
    if "\x00" in part:
        return True
    said = f" {textmatch.normalize(part)} "
    names = [w.title for w in windows] + [c.name for w in windows for c in w.controls]
    return any(f" {textmatch.normalize(name)} " in said for name in names
               if textmatch.normalize(name))


def call_code(verb: str, *args: str, **keywords: str) -> str:
    """The call as the guide writes it: `computer.press("OK", window="Export")`."""
    said = [json.dumps(a) for a in args]
    said += [f"{key}={json.dumps(value)}" for key, value in keywords.items() if value]
    return f"computer.{verb}({', '.join(said)})"


# A clause read: the verb, its arguments and keywords, and the window it acts in.
Call = tuple[str, tuple[str, ...], dict[str, str], str]


def _line(verb: str, rest: str, quoted: list[str], windows: list[Window]) -> Call | None:
    """One clause as a verb's call, or None."""
    if verb == "close":
        window = places.window(rest, windows, quoted)
        said = set(strip_words(strip_words(rest, "windows"), "articles").casefold().split())
        if window is None and said <= places.PRONOUNS:  # "close it", "get rid of that dialog"
            window = windows[0]  # the one in front
        return ("close", (window.title,), {}, "") if window is not None else None
    if verb == "type":
        number = NUMBER_FIRST.match(rest)  # a number needs no quotes to be one text
        if number:
            rest, quoted = f"\x00{len(quoted)}{rest[number.end():]}", [*quoted, number[1]]
        return _typed(rest, quoted, windows)
    if verb == "fill":
        return _filled(rest, quoted, windows)
    if verb in ("open", "choose"):  # "pick report.txt" in a file chooser: opened; "open
        opened = _opened(rest, quoted, windows)  # the tab page 3": chosen
        if opened is not None:
            return opened
        verb = "choose"
    if verb == "save":
        return _saved(rest, windows)
    if verb == "accept":
        return _accepted(windows)
    if verb == "set":
        setting = SET.match(rest)
        return _typed(f"\x00{len(quoted)} into {VALUE_OF.sub('', setting[1])}",
                      [*quoted, setting[2]], windows) if setting else None
    if verb == "say":
        return _said(rest, windows, quoted)
    return _named(verb, rest, quoted, windows)


def _named(verb: str, rest: str, quoted: list[str], windows: list[Window]) -> Call | None:
    """A clause that names its control: a tab by its place in its row, else a control
    named exactly so, of the kinds the verb acts on."""
    nth = places.nth_tab(rest, windows) if verb in ("choose", "press") else None
    if nth is not None:  # "the third tab": of the first row of tabs, pressed as a tab
        return "press", (nth[0].name,), {}, nth[1].title
    for name, where, title in places.scoped(rest, windows, quoted):
        if verb == "press" and name.casefold() in KEYS and not title:
            return "key", (name.casefold(),), {}, ""
        kinds = ("button", "any") if verb == "press" else \
            ("tick box",) if verb in MANY else ("item",)
        name = places.ORDINAL.sub(places.numbered, name)  # "the third page": "page 3"
        if TAB.search(rest):  # "the tab page 3": a notebook's tab before a radio button
            kinds = ("tab", *kinds)
        found = places.exact(where, name, kinds)
        if found is not None:  # a tab is pressed: chosen, "page 3" is the page "Page 3"
            verb = "press" if found[0].role == "page tab" else verb
            return verb, (found[0].name,), {"window": title}, found[1].title
    return None


def _said(rest: str, windows: list[Window], quoted: list[str]) -> Call | None:
    """say yes (to the export question): the button so named, in the window named if
    one is, else the first that has one."""
    said = SAY.match(rest)
    if said is None:
        return None
    window = places.window(said[2], windows, quoted) if said[2] else None
    found = places.exact([window] if window is not None else windows, said[1], ("button",))
    if found is None:
        return None
    return "press", (found[0].name,), {"window": window.title if window else ""}, \
        found[1].title


def _typed(rest: str, quoted: list[str], windows: list[Window]) -> Call | None:
    """type "text" into a field (by its label, or a part of it when one field alone has
    that part) or into a window (by its title)."""
    into = INTO.match(rest)
    if into is None or into[2] is None:
        return None
    text = quoted[int(into[1])]
    for name, where, title in places.scoped(into[2], windows, quoted):
        found = places.exact(where, name, ("field",)) or _part(where, name)
        if found is not None:
            return "type", (text,), {"into": found[0].name, "window": title}, found[1].title
        by_role = _by_role(where[:1], name)  # "the number box": as the verb will find it
        if by_role is not None:
            return "type", (text,), {"into": name, "window": title}, by_role.title
    window = places.window(into[2], windows, quoted)
    if window is None:
        return None
    return "type", (text,), {"window": window.title}, window.title


def _filled(rest: str, quoted: list[str], windows: list[Window]) -> Call | None:
    """fill in the sign-up form with first name Lin: a field and its text after "with",
    in the window named before it; or a field and its text alone (a clause after it:
    "last name Wu")."""
    with_ = WITH.match(rest)
    if with_ is None:
        return _pair(rest, quoted, windows)
    window = places.window(with_[1], windows, quoted)
    return _pair(with_[2], quoted, [window]) if window is not None else None


def _opened(rest: str, quoted: list[str], windows: list[Window]) -> Call | None:
    """open report.txt (in the file dialog): the file chooser on screen (the one named,
    if one is) is given the file's name (verbs.choose types its location) and its Open or
    OK; a name with no extension, or no chooser, is the model's."""
    for said, where, _ in places.scoped(rest, windows, quoted):
        name = FILE_WORDS.sub("", said)  # "the file called report.txt"
        chooser = next((w for w in where if w.role == "file chooser"), None)
        button = next((b for b in DATA["open"]["buttons"] if chooser is not None
                       and places.exact([chooser], b, ("button",))), None)
        if chooser is not None and button is not None and FILE.fullmatch(name):
            return "open", (name, button), {}, chooser.title
    return None


def _saved(rest: str, windows: list[Window]) -> Call | None:
    """save it as minutes.txt: the Save dialog on screen (a file chooser with a field for
    the name) is given the name (editing.save types it as a whole path, then its Save or
    OK); with no such dialog, an editor's save is the edits reader's."""
    said = SAVE_AS.match(rest)
    chooser = next((w for w in windows if w.role == "file chooser"
                    and any(c.field for c in w.controls)), None)
    if said is None or chooser is None or not FILE.fullmatch(said[1]):
        return None
    return "save", (said[1],), {"window": chooser.title}, chooser.title


def _accepted(windows: list[Window]) -> Call | None:
    """accept the licence: the button that accepts, in the first window that has one;
    else, in the first window with exactly one unticked box whose name says it accepts
    or agrees ("I have read and accept the terms"), that box and the button that goes on
    (OK, Continue, ...). None when no window reads so."""
    accept = DATA["accept"]
    for window in windows:
        button = next((b for b in accept["buttons"]
                       if places.exact([window], b, ("button",))), None)
        if button is not None:
            return "press", (button,), {}, window.title
        boxes = [c for c in window.controls if c.name and not c.checked
                 and finding.is_kind(c, "tick box") and any(
                     re.search(rf"\b{word}", textmatch.normalize(c.name))
                     for word in accept["words"])]
        going = next((b for b in accept["then"] if places.exact([window], b, ("button",))), None)
        if len(boxes) == 1 and going is not None:
            return "accept", (boxes[0].name, going), {}, window.title
    return None


def _pair(text: str, quoted: list[str], windows: list[Window]) -> Call | None:
    """"first name Lin": a field's whole name said first (the longest there is), and the
    rest, its text."""
    words = strip_words(text, "articles", ends=False).split()
    for cut in range(len(words) - 1, 0, -1):
        found = places.exact(windows, " ".join(words[:cut]), ("field",))
        if found is not None:
            value = " ".join(words[cut:])
            held_text = re.fullmatch(r"\x00(\d+)", value)
            value = quoted[int(held_text[1])] if held_text else value
            return "type", (value,), {"into": found[0].name}, found[1].title
    return None


def _by_role(windows: list[Window], name: str) -> Window | None:
    """The window whose one enabled field a name with a role word says ("the number box",
    "the slider"), as the verbs find fields."""
    for window in windows:
        try:
            hits = [c for c in finding.matches(window.controls, name, "field") if c.enabled]
        except ValueError:
            return None
        if len(hits) == 1 and textmatch.normalize(name) != textmatch.normalize(hits[0].name):
            return window
    return None


def _part(windows: list[Window], name: str) -> tuple[Control, Window] | None:
    """The one named field whose name holds the words said ("the volume": "Set the
    volume"), or the one field of the window titled so."""
    wanted = textmatch.normalize(name)
    if not wanted:
        return None
    hits = [(c, w) for w in windows for c in w.controls if c.field and c.name
            and re.search(rf"\b{re.escape(wanted)}\b", textmatch.normalize(c.name))]
    if len(hits) == 1:
        return hits[0]
    titled = [w for w in windows if wanted in textmatch.normalize(w.title)]
    fields = [(c, w) for w in titled[:1] for c in w.controls if c.field and c.name]
    return fields[0] if len(fields) == 1 else None


def _button(part: str, quoted: list[str], windows: list[Window]) -> Call | None:
    """A clause that is a button's whole name ("Remind me tomorrow", "the Skip this
    version button"): that button, in the first window that has it."""
    found = places.exact(windows, places.name(part, quoted), ("button",))
    return ("press", (found[0].name,), {}, found[1].title) if found is not None else None


def _answer(part: str, windows: list[Window]) -> Call | None:
    """A clause of one word ("confirm", "OK"): the button that answers so, in the
    window the last clause acted in, else the focused one, else the first that has one."""
    names = ANSWERS.get(textmatch.normalize(part))
    if not names:
        return None
    for window in windows:
        for name in names:
            found = places.exact([window], name, ("button",))
            if found is not None:
                return "press", (found[0].name,), {}, window.title
    return None
