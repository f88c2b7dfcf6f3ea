"""The check kinds that read a task's final answer (see checks.py for the contract)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from benchmarks.tasks import spoken as tasks_spoken
from benchmarks.tasks.reading import FACTS, Context, fact_or

ORDERED = ("decoys", "ignore", "max_distinct", "kib_as_bytes")


def answer_number(c: Context, a: dict[str, Any]) -> str | None:
    """The answer gives the number (or one of the numbers) within `tolerance`; given any of
    ORDERED, it gives it clearly (clear_number)."""
    wanted = fact_or(c, a, "value")
    wanted = wanted if isinstance(wanted, list) else [wanted]
    if any(field in a for field in ORDERED):
        return clear_number(c, a, wanted[0])
    if any(c.has_number(c.answer, w, a.get("tolerance", 1e-6)) for w in wanted):
        return None
    return f"the answer does not give {' or '.join(f'{w:g}' for w in wanted)}: {c.answer[:120]!r}"


def answer_mentions(c: Context, a: dict[str, Any]) -> str | None:
    """Each of `words` (a word, or a list of which any one will do) is mentioned; with
    `anywhere`, inside other words too whatever the suite's reading; with `short_version`,
    a release like 6.1.0-18-amd64 may be given as 6.1.0."""
    words = [FACTS[a["fact"]](c.folder)] if "fact" in a else a["words"]  # a fact may give aliases
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


def clear_number(c: Context, a: dict[str, Any], wanted: float) -> str | None:
    """The numbers of the answer, in order (`ignore`d ones aside; with `kib_as_bytes`, "4 KB"
    read as 4096): `wanted` is among them, no `decoys` value (a plausible wrong one) comes
    before it, at most one decoy is there at all, and at most `max_distinct` different
    numbers are: a list of candidates is no answer."""
    slack = a.get("tolerance", 1e-6) + 1e-9

    def near(x: float, y: float) -> bool:
        return abs(x - y) <= slack

    text = tasks_spoken.kib_as_bytes(c.answer) if a.get("kib_as_bytes") else c.answer
    found = [n for n in c.numbers(text) if not any(near(n, i) for i in a.get("ignore", []))]
    decoys = [d for d in a.get("decoys", []) if not near(d, wanted)]
    at = next((i for i, n in enumerate(found) if near(n, wanted)), None)
    if at is None:
        return f"the answer does not give {wanted:g} (numbers seen: {found[:5]})"
    early = [n for n in found[:at] if any(near(n, d) for d in decoys)]
    if early:
        return f"the answer gives the wrong value {early[0]:g} before {wanted:g}"
    if len({d for d in decoys if any(near(n, d) for n in found)}) > 1:
        return "the answer gives several candidate values"
    if len({round(n, 6) for n in found}) > a.get("max_distinct", len(found)):
        return "the answer lists too many numbers to be a clear answer"
    return None


def answer_picks(c: Context, a: dict[str, Any]) -> str | None:
    """Of `among`, the answer names `name` (or one of its `aliases`) first, each as a whole
    name, and at most `max_others` others (default 1 of up to 4 candidates, else 2): a list
    of the candidates picks none."""
    def first(alias: str) -> int | None:
        m = re.search(r"(?<![\w.-])" + re.escape(alias) + r"(?![\w-]|\.[A-Za-z0-9])",
                      c.answer, re.I)
        return m.start() if m else None

    where = {}
    for candidate in a["among"]:
        spots = [at for alias in [candidate, *(a.get("aliases", []) if candidate == a["name"]
                                               else [])] if (at := first(alias)) is not None]
        if spots:
            where[candidate] = min(spots)
    if a["name"] not in where:
        return f"the answer does not name {a['name']}: {c.answer[:120]!r}"
    before = sorted((at, n) for n, at in where.items() if at < where[a["name"]])
    if before:
        return f"the answer names {before[0][1]} before {a['name']}"
    limit = a.get("max_others", 1 if len(a["among"]) <= 4 else 2)
    if len(where) - 1 > limit:
        return "the answer lists several candidates instead of one"
    return None


def answer_when(c: Context, a: dict[str, Any]) -> str | None:
    """The answer names `value` as a month (YYYY-MM), an hour of the day (HH) or a clock
    time (HH:MM), `as` says which (spoken.py reads the ways of writing each). Only those
    in `among` count, if given. None of `decoys` comes before it (without `decoys`, it is
    the first named), and at most `max_distinct` different ones are named, `ignore`d aside."""
    named = tasks_spoken.WHEN[a["as"]](c.answer)
    named = [n for n in named if n in a["among"]] if "among" in a else named
    if a["value"] not in named:
        return f"the answer does not name {a['value']}: {c.answer[:120]!r}"
    before = named[:named.index(a["value"])]
    wrong = [n for n in before if n in a["decoys"]] if "decoys" in a else before
    if wrong:
        return f"the answer names {wrong[0]} before {a['value']}"
    if len(set(named) - set(a.get("ignore", []))) > a["max_distinct"]:
        return f"the answer names several, not one: {named}"
    return None
