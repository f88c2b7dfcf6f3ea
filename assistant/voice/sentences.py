"""Cutting streamed LLM text into sentences, so speech starts at the first one.

Fenced code blocks are left out: code is read aloud by `speakable`, not character by
character.
"""

from __future__ import annotations

import re

# A sentence ends at . ! ? or : followed by space, or at a blank line.
BOUNDARY = re.compile(r"(?<=[.!?:])\s+|\n\s*\n")
FENCE = "```"
CLAUSE_END = re.compile(r"[,;:]$|^[-–—]$")
FIRST_WORDS = 2  # an answer's first piece when its first sentence has no early clause
MAX_CLAUSE_WORDS = 6


class SentenceSplitter:
    """feed() text as it streams, get back the sentences completed so far; flush() the rest."""

    def __init__(self) -> None:
        self._buffer = ""
        self._in_code = False

    def feed(self, text: str) -> list[str]:
        self._buffer += text
        sentences: list[str] = []
        while True:
            if self._in_code:
                end = self._buffer.find(FENCE)
                if end < 0:
                    self._buffer = self._buffer[-(len(FENCE) - 1):]  # a fence may be split
                    return sentences
                self._buffer = self._buffer[end + len(FENCE):]
                self._in_code = False
                continue
            start = self._buffer.find(FENCE)
            if start >= 0:
                sentences += split(self._buffer[:start] + "\n\n")
                self._buffer = self._buffer[start + len(FENCE):]
                self._in_code = True
                continue
            parts = BOUNDARY.split(self._buffer)
            self._buffer = parts.pop()
            return sentences + [clean for part in parts if (clean := tidy(part))]

    def flush(self) -> list[str]:
        rest, self._buffer = self._buffer, ""
        was_code, self._in_code = self._in_code, False
        return [] if was_code else split(rest + "\n\n")


def split(text: str) -> list[str]:
    return [clean for part in BOUNDARY.split(text) if (clean := tidy(part))]


def tidy(text: str) -> str:
    """Markdown marks (*, _, `, #) are not spoken."""
    return re.sub(r"\s+", " ", re.sub(r"[*_`#>]+", "", text)).strip()


def first_piece(sentence: str) -> list[str]:
    """An answer's first sentence cut in two, so its first words can be heard sooner: after
    a first clause of up to MAX_CLAUSE_WORDS words, else after FIRST_WORDS words; whole when
    too short to be worth cutting (fewer than two words would be left)."""
    words = sentence.split()
    for index, word in enumerate(words[:MAX_CLAUSE_WORDS], start=1):
        if CLAUSE_END.search(word) and index <= len(words) - 2:
            return [" ".join(words[:index]), " ".join(words[index:])]
    if len(words) >= FIRST_WORDS + 2:
        return [" ".join(words[:FIRST_WORDS]), " ".join(words[FIRST_WORDS:])]
    return [sentence]
