"""A spoken request over a form in front (a dialog's, a page's), its values placed by the
words said with them.

"Book me in for a cleaning on the 14th of March 2026, the name's Omar Haddad" over a
dialog with the fields Patient name, Visit type (a drop-down) and Preferred date: a
person says each value beside a word of its label ("the name's ...", "... as the
email"), says an entry of a drop-down by its own words, and a date as a date; the
form's confirming button goes with the request. A small model asked this posted the
booking to an invented web site, told twice that it should act in the dialog. What is
read here is the verbs' code, proposed and approved as any (its sentence names each
field and value), and only when the dialog waits in front and the request negates
nothing. A value said with no word of its label goes where its kind does: the one email
address to the email field, a name said of the sender ("a note from Ana Lopez") to the
name, the one quoted text no field took to the text area, a value said of "it" ("give
it report-final") to a dialog's one field. A field whose value is not found is left as
it is.
"""

from __future__ import annotations

import datetime
import json
import re

from assistant.computer import dates, finding, textmatch, tree
from assistant.computer.tree import Control, Window
from assistant.loop.commands import call_code
from assistant.loop.said import DATA, NEGATION, held

# Where a value ends: a clause's end, or "and"/"then" before the next.
END = r"(?=\s*(?:[,;.!?]|$|\band\b|\bthen\b|\bplease\b))"
VALUE = r"(\x00\d+|[\w@+.'’/-]+(?:[ \t]+[\w@+.'’/-]+){0,5}?)"
# Between a label's word and its value: "the name's Omar", "the subject should be ...".
SAID_AS = r"(?:'s|’s|\s+is|\s+as|\s+to|\s+of|:|\s+=|\s+(?:should|will|must|would)\s+be)"
WORDS: dict[str, list[str]] = DATA["forms"]
# Where a value said before its label's word begins: "enter Ana as the name", "..., and
# ana@example.org as the email", "put Ana in the Name field".
PUTS = f"(?:{'|'.join(WORDS['puts'])})"
BEFORE = rf"(?:\b{PUTS}\s+|^(?!(?:{PUTS}|please|kindly|just|now|can|could)\b)|[,;]\s*|\band\s+)"
JOINS = frozenset({"and", "then", "as"})  # a value holds none: two values said as one
STOP = frozenset(WORDS["stop"])
NUMBER = re.compile(r"\d+(?:\.\d+)?")
# A name said of oneself: "I'm Sam Reed", "this is Ana Lopez".
NAME = r"([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})\b"
INTRODUCED = re.compile(rf"\b(?i:i'm|i’m|i am|this is)\s+{NAME}")
# A name said of the sender, with no label's word: "a note from Ana Lopez", "submit it
# as Ana Lopez".
SENDER = re.compile(rf"\b(?i:from|as)\s+{NAME}")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# The value of a dialog's one field, said of "it": "the rename box is asking for a new
# name. Give it report-final."
GIVEN = re.compile(rf"\b(?:give it|call it|name it|make it|set it to|change it to|rename it to|"
                   rf"it should be|answer with|answer it with)\s+{VALUE}{END}", re.IGNORECASE)
BOX_VERBS = frozenset(WORDS["box_verbs"])
# A request only to fill the form ("fill in ...", "enter ..."), unless it also confirms.
FILL_ONLY = re.compile(r"^\W*(?:please\s+)?(?:fill|enter|type|put|write|complete)\b",
                       re.IGNORECASE)
CONFIRMING = re.compile(rf"\b(?:{'|'.join(WORDS['confirming'])})\b", re.IGNORECASE)
# A date said in words: "the 14th of March 2026", "March 14", "2026-03-14", "the 23rd".
MONTH = "|".join(sorted(dates.MONTHS, key=len, reverse=True))
DATE = re.compile(rf"\b(?:\d{{4}}-\d{{1,2}}-\d{{1,2}}|(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+"
                  rf"(?:of\s+)?(?:{MONTH})\b(?:,?\s+\d{{4}})?|(?:{MONTH})\s+\d{{1,2}}"
                  rf"(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|the\s+\d{{1,2}}(?:st|nd|rd|th))\b",
                  re.IGNORECASE)
ISO_VALUE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
LABEL_WORDS = re.compile(r"[^\W\d_]{3,}")


def read(request: str, windows: list[Window]) -> str | None:
    """The verbs' code that fills the form in front from `request` and presses its
    confirming button; None when no value is found, when a send is asked and a field
    stays empty (half a form read would be sent half filled), when the window is no form
    that waits, or when the request negates anything (the model weighs what not to
    do)."""
    front = windows[0] if windows else None
    page = front is not None and any(c.chrome for c in front.controls)  # a browser's
    said, quoted = held(request)  # "the message 'It never came'" negates nothing
    if front is None or not front.active or not (page or finding.waits(front)) or \
            NEGATION.search(said):
        return None
    fields = [c for c in front.controls if c.name and not c.label and not c.chrome
              and (c.field or c.role == "combo box")]
    values = {}
    for field in fields:
        value = _value(field, said, quoted)
        if value is not None and value != field.value:
            values[field.name] = value
    single = [f for f in fields if f.field and "multi line" not in f.states]
    given = GIVEN.search(said) if len(single) == 1 and single[0].name not in values else None
    value = _plain_value(given[1], quoted) if given else None
    if value is not None:  # the one field, its value said of "it"
        values[single[0].name] = value
    areas = [f.name for f in fields if "multi line" in f.states and f.name not in values]
    rest = [text for text in quoted if text not in values.values()]
    if len(areas) == 1 and len(rest) == 1:  # "send 'It never came' from Ana": the message
        values[areas[0]] = rest[0]
    buttons = [c.name for c in front.controls if c.role == "push button" and not c.chrome]
    confirm = next((name for name in buttons if textmatch.normalize(name) in finding.CONFIRMS),
                   buttons[0] if page and len(buttons) == 1 else None)  # a page's one button
    day = _day(front, said)
    if not (values or day) or confirm is None:
        return None
    pairs = ", ".join(f"{json.dumps(name)}: {json.dumps(value)}" for name, value in values.items())
    lines = [f"computer.fill({{{pairs}}}, window={json.dumps(front.title)})"] if values else []
    lines += [call_code("choose", day, window=front.title)] if day else []
    lines += [call_code("tick", box.name, window=front.title) for box in front.controls
              if _ticked(box, said)]
    lines += [call_code("choose", radio.name, window=front.title) for radio in front.controls
              if radio.role == "radio button" and not radio.checked and len(radio.name) > 2
              and re.search(rf"(?<!\w){re.escape(radio.name)}(?!\w)", said, re.IGNORECASE)]
    blank = any(c.field and c.enabled and not c.chrome and not c.label and not c.value.strip()
                and c.name not in values for c in front.controls)
    sends = not FILL_ONLY.search(request) or bool(CONFIRMING.search(request))
    if blank and sends:
        return None  # half a form read, and a send asked: the model reads the rest
    if sends:
        lines.append(call_code("press", confirm, window=front.title))
    return "\n".join(lines)


def _day(window: Window, said: str) -> str | None:
    """The one date said, as said, for the window's calendar (the verbs choose it there);
    None without a calendar, or with no date or more than one."""
    if not any(c.role == "calendar" for c in window.controls):
        return None
    spans = [m[0] for m in DATE.finditer(said) if dates.wanted(m[0]) is not None]
    return spans[0] if len(spans) == 1 else None


def _ticked(box: Control, said: str) -> bool:
    """An unticked box each of whose own words (not its verb) the request says:
    "strip the location data" for "Remove location data"."""
    if not finding.is_kind(box, "tick box") or box.checked or box.role == "radio button" \
            or not box.name:
        return False
    words = set(LABEL_WORDS.findall(box.name.casefold())) - BOX_VERBS
    return bool(words) and all(re.search(rf"\b{w}\b", said, re.IGNORECASE) for w in words)


def _value(field: Control, said: str, quoted: list[str]) -> str | None:
    """The value `said` gives the field: an entry of a drop-down said whole, a date for a
    field that holds one, or the words said beside its label: right after the whole label
    ("the name Ada"), after one word of it only with a word between ("the name's Omar"
    for "Patient name"; "the file name says Untitled" gives "File name" nothing), or
    before it ("Ada as the name")."""
    if field.role == "combo box":
        entries = [e for e in tree.entries(field)
                   if re.search(rf"(?<!\w){re.escape(e)}(?!\w)", said, re.IGNORECASE)]
        return entries[0] if len(entries) == 1 else None
    if ISO_VALUE.match(field.value.strip()):
        return _date(said, field.value.strip())
    if field.role in ("spin button", "slider") or NUMBER.fullmatch(field.value.strip()):
        return _number(field, said)
    if "multi line" in field.states:
        return _text(field, said, quoted)
    label = LABEL_WORDS.findall(field.name.casefold())
    introduced = INTRODUCED.search(said) if "name" in label else None
    if introduced:  # "I'm Sam Reed": the name
        return introduced[1]
    return _by_label(label, said, quoted) or _by_kind(label, said)


def _by_label(label: list[str], said: str, quoted: list[str]) -> str | None:
    """The words said beside the label's: after it whole or one word of it, or before."""
    whole = r"\s+".join(label)
    for word in sorted(label, key=len, reverse=True):
        for pattern in (rf"\b{whole}{SAID_AS}?\s+{VALUE}{END}",
                        rf"\b{word}{SAID_AS}\s+{VALUE}{END}",
                        rf"\b{word}\s+(\d[\w/-]*){END}",  # "Flat 12" for "Flat number"
                        rf"{BEFORE}{VALUE}\s+as\s+(?:the|my|its)\s+{word}\b",
                        rf"{BEFORE}{VALUE}\s+(?:in|into)\s+(?:the\s+)?{word}\b"):
            for found in re.finditer(pattern, said, re.IGNORECASE):
                value = _plain_value(found[1], quoted)
                if value is not None:
                    return value
    return None


def _plain_value(said: str, quoted: list[str]) -> str | None:
    """A value as said: quoted, or bare words that neither start nor end with a word that
    is no value's ("the", "it", "field") nor hold two values ("and"); None otherwise."""
    text = said.strip().rstrip(".,;:!?")
    held_text = re.fullmatch(r"\x00(\d+)", text)
    if held_text:
        return quoted[int(held_text[1])]
    words = text.casefold().split()
    if not words or {words[0], words[-1]} & STOP or JOINS & set(words):
        return None
    return text


def _by_kind(label: list[str], said: str) -> str | None:
    """A value said with no word of its label, known by its kind: the one email address
    for an email field, a name said of the sender ("a note from Ana Lopez") for a name
    field. A person filling a contact form says "from Ana, ana@example.org", and the
    address can go nowhere else."""
    if any("mail" in word for word in label):
        found = set(EMAIL.findall(said))
        return found.pop() if len(found) == 1 else None
    sender = SENDER.search(said) if "name" in label else None
    return sender[1] if sender else None


def _text(field: Control, said: str, quoted: list[str]) -> str | None:
    """A text area's text: quoted, or its sentence to the end, after a word of its label
    ("the message: ..."), or after "saying", "that says" or "tell them". The full stop
    that ends the sentence is the request's (speech is transcribed with one after every
    sentence), not the text's; a question or exclamation mark is the text's."""
    words = "|".join(LABEL_WORDS.findall(field.name.casefold()))
    if not words:
        return None
    lead = rf"\b(?:(?:{words})(?:{SAID_AS}[,:]?|\s+(?:that says|saying|reading))?|saying|" \
        r"that says|tell (?:them|him|her|us)|to say)\s+(?:that\s+)?"
    held_text = re.search(lead + r"\x00(\d+)", said, re.IGNORECASE)
    if held_text:
        return quoted[int(held_text[1])]
    found = re.search(lead + r"([^\x00\n]+?[.!?]?)(?:(?<=[.!?])\s|$)", said, re.IGNORECASE)
    if found is None:
        return None
    text = found[1].strip()
    text = text[:-1] if text.endswith(".") and not text.endswith("..") else text
    return text[0].upper() + text[1:] if text else None  # its first letter capital


def _number(field: Control, said: str) -> str | None:
    """The number said beside a word of the field's label: "the size to 12", "2048
    pixels on the long side" for "Long edge (px)"."""
    for word in LABEL_WORDS.findall(field.name.casefold()):
        for pattern in (rf"\b{word}\w*\D{{0,12}}?(\d+(?:\.\d+)?)\b",
                        rf"\b(\d+(?:\.\d+)?)(?:\s+[a-z]+){{0,4}}?\s+{word}\b"):
            found = re.search(pattern, said, re.IGNORECASE)
            if found:
                return found[1]
    return None


def _date(said: str, shown: str) -> str | None:
    """The one date said, written as the field writes its own (2026-03-02), its month and
    year taken from the field when not said."""
    found = [d for d in (dates.wanted(m[0]) for m in DATE.finditer(said)) if d is not None]
    if len(found) != 1:
        return None
    year, month, _ = (int(part) for part in shown.split("-"))
    want = found[0]
    try:
        day = datetime.date(want.year or year, want.month or month, want.day)
    except ValueError:
        return None
    return day.isoformat()
