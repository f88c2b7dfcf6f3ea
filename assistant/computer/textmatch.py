"""Which text on screen the caller meant: exact beats whole word beats part beats lookalike.

Items are OCR results in reading order: {"id", "text", "box": [x, y, w, h], "score"}.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable
from typing import Any

EXACT, WORD, PART, LOOKALIKE = range(4)
_KIND = {EXACT: "exact", WORD: "word", PART: "part", LOOKALIKE: "lookalike"}


class TextNotFound(LookupError):
    """No text on screen matches; the message lists what is there."""


class AmbiguousText(LookupError):
    """Several equally good matches; the message lists them with the index to pass."""


def normalize(text: str) -> str:
    return " ".join(text.casefold().replace("…", "").strip(" .:;,").split())


def center(box: list[float]) -> tuple[float, float]:
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def _tier(query: str, text: str) -> tuple[int, float, float] | None:
    """(tier, start, end): how `text` matches, and which share of it (0..1) is the match."""
    if not text:
        return None
    if text == query:
        return EXACT, 0.0, 1.0
    word = re.search(rf"(?<!\w){re.escape(query)}(?!\w)", text)
    if word:
        return WORD, word.start() / len(text), word.end() / len(text)
    start = text.find(query)
    if start >= 0:
        return PART, start / len(text), (start + len(query)) / len(text)
    if len(query) >= 3 and difflib.SequenceMatcher(None, query, text).ratio() >= 0.8:
        return LOOKALIKE, 0.0, 1.0
    return None


def find(items: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    """Every match of the best tier present, in reading order; box narrowed to the match."""
    wanted = normalize(query)
    if not wanted:
        raise ValueError("empty text: say which text to look for")
    found: list[tuple[int, dict[str, Any]]] = []
    for item in items:
        tier = _tier(wanted, normalize(item["text"]))
        if tier is None:
            continue
        kind, start, end = tier
        x, y, w, h = item["box"]
        box = [x + w * start, y, w * (end - start), h] if kind in (WORD, PART) else [x, y, w, h]
        found.append((kind, {**item, "box": [round(v) for v in box], "match": _KIND[kind]}))
    if not found:
        return []
    best = min(kind for kind, _ in found)
    return [item for kind, item in found if kind == best]


def describe(items: list[dict[str, Any]]) -> str:
    return ", ".join(
        f"[{n}] {item['text']!r} at {tuple(round(v) for v in center(item['box']))}"
        for n, item in enumerate(items)
    )


def pick(
    items: list[dict[str, Any]], query: str, index: int | None = None, near: str | None = None,
    rank: Callable[[dict[str, Any]], Any] | None = None,
) -> dict[str, Any]:
    """The one match the caller means, or an error that says how to choose.

    `rank` orders matches of the best tier (lowest first): only the best-ranked remain
    (an enabled button before a label that says the same).
    """
    matches = find(items, query)
    if not matches:
        seen = ", ".join(repr(item["text"]) for item in items[:20]) or "no text at all"
        raise TextNotFound(f"no text {query!r} on screen; seen: {seen}")
    if rank is not None:
        best = min(rank(m) for m in matches)
        matches = [m for m in matches if rank(m) == best]
    if near is not None:
        anchors = [m for m in find(items, near) if all(m["id"] != x["id"] for x in matches)]
        if not anchors:
            raise TextNotFound(f"near={near!r}: that text is not on screen")
        ax, ay = center(anchors[0]["box"])
        matches.sort(key=lambda m: math.dist(center(m["box"]), (ax, ay)))
        if index is None:
            return matches[0]
    if index is not None:
        if not -len(matches) <= index < len(matches):
            raise IndexError(f"index={index}, but {query!r} matches {len(matches)}: "
                             f"{describe(matches)}")
        return matches[index]
    if len(matches) > 1:
        raise AmbiguousText(f"{query!r} is on screen {len(matches)} times: {describe(matches)}; "
                            "pass index=N or near='other text'")
    return matches[0]
