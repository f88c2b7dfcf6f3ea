"""Answers and code that repeat the loop's own words back: a small model answers the user
with "Not run: ..." or the results' framing, or proposes the framing as code.

The loop's words are found by the shape of the results messages (fenced output, tagged
data and the lines that report a run are left out), not by a list of its sentences.
"""

from __future__ import annotations

import re
from typing import Any

from assistant.messages import NEXT_STEP, RESULTS_HEADER, is_results_message
from assistant.texts import text


def shaped(key: str, head: bool = False) -> str:
    """A pattern for the catalogue's text `key`, each "{}" in it standing for a word (an
    exit status, a language); with `head`, only what comes before the first "{}". Read
    from the catalogue, so rewording a text there keeps it found."""
    pieces = text(key).split("{}")
    words = [re.escape(piece.strip() if head else piece) for piece in pieces]
    return words[0] if head else r"[\w-]+".join(words)


# A clause of the loop's own words this long, found in an answer, is an echo of it.
ECHOED = 30
FENCED = re.compile(r"^(`{3,})\n.*?\n\1$", re.MULTILINE | re.DOTALL)
BLOCK = f"(?:{shaped('results.block')}|{shaped('results.block_numbered')}):"
RESULTS_FRAME = re.compile(
    f"^(?:{re.escape(RESULTS_HEADER)}|{BLOCK}$|{shaped('results.succeeded')}|"
    f"{shaped('results.failed')}|{shaped('results.unfinished')})", re.MULTILINE)
# What a run did, in the loop's words: an answer may well say it again.
REPORTED = re.compile(
    "^(?:" + "|".join([shaped("results.failed", head=True), shaped("results.output", head=True),
                       shaped("results.changes", head=True), shaped("results.no_changes"),
                       BLOCK]) + ").*$", re.MULTILINE)
UNTRUSTED = re.compile(r'<(\w+) untrusted="true">\n.*?\n</\1>', re.DOTALL)


def echoes(answer: str, messages: list[dict[str, Any]]) -> bool:
    """Whether `answer` repeats the loop's own words (the framing, a hint, a "Not run")
    from the results since the model last spoke: a small model answered "Not run: /lib/ is
    not the user's lib/ ..." to the user. Outputs and files quoted are the answer's to use."""
    return _repeats(answer, _loop_words(messages, since=("assistant",)))


def without_echoes(answer: str, messages: list[dict[str, Any]]) -> str:
    """`answer` without the paragraphs that repeat the loop's words of this turn: a small
    model began its last words with the check it had been told two replies before ("The
    user asked for a figure …"). As it is when every paragraph does, or none."""
    said = _loop_words(messages, since=("user",))
    paragraphs = re.split(r"\n\s*\n", answer.strip())
    kept = [part for part in paragraphs if not _repeats(part, said)]
    return "\n\n".join(kept) if kept and len(kept) < len(paragraphs) else answer


def only_echoes(answer: str, messages: list[dict[str, Any]]) -> bool:
    """Whether every paragraph of `answer` repeats the loop's words of this turn: then it
    says nothing of its own."""
    said = _loop_words(messages, since=("user",))
    paragraphs = [part for part in re.split(r"\n\s*\n", answer.strip()) if part.strip()]
    return bool(paragraphs) and all(_repeats(part, said) for part in paragraphs)


def _loop_words(messages: list[dict[str, Any]], since: tuple[str, ...]) -> list[str]:
    """The clauses of the loop's own words in the results after the last message whose
    role is in `since` (a user message that is not results: the turn's request)."""
    said: list[str] = []
    for message in reversed(messages):
        role = message.get("role")
        if role in since and not is_results_message(message):
            break
        content = message.get("content")
        if isinstance(content, list):  # a screen: its framing is ours, its text is not
            content = "\n".join(str(part.get("text", "")) for part in content
                                 if isinstance(part, dict))
        if role == "tool" or is_results_message(message):
            said.append(content if isinstance(content, str) else "")
    ours = REPORTED.sub("", UNTRUSTED.sub("", FENCED.sub("", "\n".join(said))))
    parts = (part.strip().rstrip(".!?:;").lower()
             for part in re.split(r"(?<=[.!?:;])\s+|\n", ours))
    return [part for part in parts if len(part) >= ECHOED]


def _repeats(text: str, said: list[str]) -> bool:
    lowered = text.lower()
    return any(part in lowered for part in said)


def framed(code: str) -> bool:
    """Whether proposed code is a copy of the results the model was given ("python block:
    Exit status 0 (success). ..."): a small model continuing the conversation's pattern."""
    return bool(RESULTS_FRAME.search(code)) or NEXT_STEP.split(",")[0] in code
