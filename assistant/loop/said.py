"""The words of a spoken request, as the readers of commands and edits take them: its
clauses, the texts it quotes, the sentences that only set the scene, the clauses that
only say why, and what it says not to do. The words live in commands.toml.
"""

from __future__ import annotations

import re
from pathlib import Path

from assistant.computer import textmatch
from assistant.tomlread import tomllib

DATA = tomllib.loads(Path(__file__).with_name("commands.toml").read_text())
VERBS: list[tuple[str, str]] = sorted(
    ((word, verb) for verb, words in DATA["verbs"].items() for word in words),
    key=lambda pair: -len(pair[0]))
WORDS: dict[str, list[str]] = {kind: sorted(words, key=len, reverse=True)
                               for kind, words in DATA["words"].items()}
# The first word of each verb of ours, the edits' too: what a gerund is the form of.
FIRST_WORDS = frozenset(
    phrase.split()[0] for words in (*DATA["verbs"].values(), *DATA["edits"].values())
    for phrase in words)
# A quoted text: in double quotes, curly ones, or single quotes that no letter touches
# outside ('P.S. see you', not the apostrophes of "don't" or "the kids' room").
QUOTED = re.compile(r'"([^"]*)"|“([^”]*)”|‘([^’]*)’|' r"(?<!\w)'([^'\n]+)'(?!\w)")
NEGATION = re.compile(r"\b(?:don'?t|do not|never|not|without|won'?t)\b|n't\b", re.IGNORECASE)
# The verb a negation is said of: "don't save", "without saving", a button "Don't Save".
NEGATED = re.compile(r"\b(?:don'?t|do not|never|without|not)\s+(\w+)", re.IGNORECASE)
CLAUSES = re.compile(r"\s*(?:[,;!?]|\.(?:\s|$)|\band then\b|\bthen\b|(?<!find )\band\b)\s*",
                     re.IGNORECASE)  # "find and replace" is one verb
FLIPPED = re.compile(r"^(?:turn|switch|flip|toggle|set)\s+(.+?)\s+(on|off)$", re.IGNORECASE)
SENTENCES = re.compile(r"(?<=[.:!])\s+")
# A sentence that says what is on screen rather than what to do: "The save dialog is
# waiting.", "Mousepad has my shopping list open."
SAYS_WHAT_IS = re.compile(r"\b(?:is|are|was|has|have|shows|asks|says|opened|open|up)\b",
                          re.IGNORECASE)


def unframed(request: str) -> str:
    """`request` without the sentences before its last that only say what is on screen
    ("The save dialog is waiting. Save under minutes.txt."): a person sets the scene
    before the command, and the readers would otherwise hand the whole request to the
    model for a sentence that asks nothing. A sentence that begins with a verb of ours,
    or negates anything, is kept (and read, or left to the model)."""
    sentences = SENTENCES.split(request.strip())
    while len(sentences) > 1:
        first = strip_words(sentences[0].rstrip(".:!"), "polite")
        if verb_of(first)[0] is not None or NEGATION.search(first) \
                or not SAYS_WHAT_IS.search(first):
            break
        sentences.pop(0)
    return " ".join(sentences)


def aside(part: str) -> bool:
    """Whether a clause only says why, or what the person thinks, and asks for nothing
    ("I nearly forgot it last time", "it's out of date anyway"): a person adds such a
    clause to a command, and the readers would otherwise leave the whole command to the
    model for it."""
    low = " " + textmatch.normalize(part).replace("’", "'") + " "
    return any(low.startswith(f" {word} ") for word in WORDS["asides"]) and \
        not any(f" {word} " in low for word in WORDS["asking"])


def stem(word: str) -> str:
    """A verb's stem, as its forms share it: "save", "saving", "Save" are "sav"."""
    return word.casefold().removesuffix("ing").removesuffix("e")


def negated(text: str) -> set[str]:
    """The stems of the verbs `text` says not to do: {"sav"} for "don't save that" and for
    "close it without saving"."""
    return {stem(word) for word in NEGATED.findall(text) if len(word) > 2}


def held(request: str) -> tuple[str, list[str]]:
    """`request` with each quoted text held out as \x00N, and those texts, in order: a
    quoted "Ana and Bob" is one name, never split at its "and"."""
    quoted: list[str] = []

    def keep(match: re.Match[str]) -> str:
        quoted.append(next(group for group in match.groups() if group is not None))
        return f"\x00{len(quoted) - 1}"

    return QUOTED.sub(keep, request), quoted


def verb_of(part: str) -> tuple[str | None, str]:
    """The verb a clause starts with (one of commands.toml's), and the rest of it; a
    switch said on or off after its name ("turn the Record button on") is ticked or
    unticked."""
    flipped = FLIPPED.match(part)
    if flipped:
        return ("tick" if flipped[2].casefold() == "on" else "untick"), flipped[1]
    low = part.casefold()
    for word, verb in VERBS:
        if low == word or low.startswith(word + " "):
            return verb, part[len(word):].strip()
    return None, part


def plain(part: str) -> str:
    """A clause as the readers take it: without the polite words around it ("uh, could
    you", "pls") or an aside before a colon ("I'm in a hurry: ..."), and its first word
    in its plain form when it is a verb of ours said as "writing" or "deleting" ("Would
    you mind writing 'hi' in this file and saving it")."""
    part = strip_words(part.strip(), "polite")
    head, colon, tail = part.partition(":")
    if colon and tail.strip() and aside(head):  # "I'm in a hurry: rename Sam to Samuel"
        part = strip_words(tail.strip(), "polite")
    first, _, rest = part.partition(" ")
    low = first.casefold()
    if low.endswith("ing") and len(low) > 5:
        base = low[:-3]
        for verb in (base, base + "e", base[:-1]):
            if verb in FIRST_WORDS:
                return f"{verb} {rest}".strip()
    return part


def strip_words(text: str, kind: str, *, ends: bool = True) -> str:
    """`text` without the `kind` words at its start (and end)."""
    changed = True
    while changed and text:
        changed = False
        for word in WORDS[kind]:
            low = text.casefold()
            if low == word:
                return ""
            if low.startswith(word + " "):
                text, changed = text[len(word) + 1:].strip(), True
            elif ends and low.endswith(" " + word):
                text, changed = text[: -len(word) - 1].strip(), True
    return text
