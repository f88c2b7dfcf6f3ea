"""Text cut to what a listener (or a glance) takes in: a proposal's plan in one plain
sentence, a long answer's first sentence, an error without its URL.

Speech is slow and cannot be skimmed; the whole text stays on screen, so what is said
points there instead of reading it out.
"""

from __future__ import annotations

import re

ON_SCREEN = "Details are on screen."
SHORT_WORDS = 30  # an answer up to this long is spoken whole
SHORT_SENTENCES = 2

FENCE = re.compile(r"^[ \t]*(```|~~~)", re.M)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\S*", re.I)

# Errors a listener can act on, by what their full text says (llm/errors.py words them).
ERRORS = (
    (r"cannot reach|connection|refused", "I can't reach the language model"),
    (r"did not answer within|timed? ?out", "The language model did not answer in time"),
    (r"api key", "The language model needs an API key"),
    (r"unknown model|was not found", "The language model was not found"),
    (r"too long", "The conversation is too long for the model"),
    (r"limiting requests|rate", "The language model is limiting requests"),
    (r"speech|microphone|input device", "Speech input is not working"),
)


def plain(text: str) -> str:
    """Markdown marks gone (code spans keep their words), one line."""
    text = re.sub(r"`+([^`]*)`+", r"\1", text)
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<!\w)[*_](\S.*?)[*_](?!\w)", r"\1", text)
    text = re.sub(r"^[ \t]*(?:#+|>|[-*+]|\d+\.)[ \t]+", "", text, flags=re.M)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(text.split())


def sentences(text: str) -> list[str]:
    return [part for part in SENTENCE_END.split(plain(text)) if part]


def plan_of(text: str) -> str:
    """The plan in the LLM's words before its code: their first sentence, plain; a trailing
    colon ("using this code:") becomes a full stop."""
    before = FENCE.split(text, maxsplit=1)[0]
    found = sentences(before)
    if not found:
        return ""
    first = found[0].rstrip(":").rstrip()
    return first if first.endswith((".", "!", "?")) else first + "."


def brief_answer(text: str) -> str:
    """A short answer whole; a long one as its first sentence and where the rest is."""
    found = sentences(FENCE.split(text, maxsplit=1)[0])
    whole = " ".join(found)
    if not found:
        return ON_SCREEN if text.strip() else ""
    if len(found) <= SHORT_SENTENCES and len(whole.split()) <= SHORT_WORDS and not FENCE.search(
            text):
        return whole
    return f"{found[0]} {ON_SCREEN}"


def brief_error(text: str) -> str:
    """One short sentence for an error, never a URL or an address; the full text is on
    screen."""
    lowered = text.lower()
    for pattern, words in ERRORS:
        if re.search(pattern, lowered):
            return f"{words}; details are on screen."
    first = re.split(r"[:;(]", sentences(URL.sub("", text))[0] if text.strip() else "")[0]
    first = first.strip().rstrip(".")
    if first and len(first.split()) <= 8:
        return f"{first}; details are on screen."
    return "Something went wrong; details are on screen."
