"""The check kinds that read a task's final answer (see tasks_checks for the contract)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tasks_reading import FACTS, Context, fact_or


def answer_number(c: Context, a: dict[str, Any]) -> str | None:
    """The answer gives the number (or one of the numbers) within `tolerance`."""
    wanted = fact_or(a, "value")
    wanted = wanted if isinstance(wanted, list) else [wanted]
    if any(c.has_number(c.answer, w, a.get("tolerance", 1e-6)) for w in wanted):
        return None
    return f"the answer does not give {' or '.join(f'{w:g}' for w in wanted)}: {c.answer[:120]!r}"


def answer_mentions(c: Context, a: dict[str, Any]) -> str | None:
    """Each of `words` (a word, or a list of which any one will do) is mentioned; with
    `anywhere`, inside other words too whatever the suite's reading; with `short_version`,
    a release like 6.1.0-18-amd64 may be given as 6.1.0."""
    words = [FACTS[a["fact"]]()] if "fact" in a else a["words"]  # a fact may give aliases
    for word in words:
        aliases = word if isinstance(word, list) else [word]
        if any(c.mentions(alias, a.get("plural", False)) for alias in aliases):
            continue
        if a.get("anywhere") and aliases[0].lower() in c.answer.lower():
            continue
        short = re.match(r"\d+\.\d+(?:\.\d+)?", aliases[0]) if a.get("short_version") else None
        if short and re.search(r"(?<![\d.])" + re.escape(short.group()) + r"(?![\d])",
                               c.answer.lower()):
            continue
        return f"the answer does not mention {aliases[0]!r}: {c.answer[:120]!r}"
    return None


def answer_names_first(c: Context, a: dict[str, Any]) -> str | None:
    """The answer names `name` before any other of `among` (default: the base names of the
    task's files): an answer that lists every file names the right one too."""
    lowered = c.answer.lower()
    among = a.get("among", [Path(n).name for n in c.files])
    found = {n: lowered.find(n.lower()) for n in among}
    named = sorted((at, n) for n, at in found.items() if at >= 0)
    if not named or named[0][1] != a["name"]:
        first = named[0][1] if named else "no file"
        return f"the answer names {first} first, not {a['name']!r}: {c.answer[:120]!r}"
    return None


def answer_lists_at_most(c: Context, a: dict[str, Any]) -> str | None:
    """At most `count` of `words` are mentioned: an answer listing them all singles out none."""
    named = [w for w in a["words"] if c.mentions(w, a.get("plural", False))]
    return f"the answer lists {named}" if len(named) > a["count"] else None


def answer_omits(c: Context, a: dict[str, Any]) -> str | None:
    """None of `words` (each a word or a list of aliases) is mentioned (`word_bounds`: as a
    regex word, whatever the suite's reading), unless the answer matches `unless` (it says
    they are not what was asked)."""
    def mentioned(word: str) -> bool:
        if a.get("word_bounds"):
            return re.search(rf"\b{word}\b", c.answer.lower()) is not None
        return c.mentions(word)

    named = [w for w in a["words"]
             if any(mentioned(alias) for alias in (w if isinstance(w, list) else [w]))]
    unless = a.get("unless")
    if named and not (unless and re.search(unless, c.answer.lower().replace("\u2019", "'"))):
        return f"the answer wrongly includes {named[0]}"
    return None
