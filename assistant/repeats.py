"""Identical proposals within one turn: when they run, when the model is told, when it stops.

Code that failed will not start working when proposed again unchanged. Code that just
succeeded, proposed again with nothing run since, would only give the same result,
or do its change twice (a small model once overwrote its input this way, 20 times).
The same code after other code ran is a check of what changed, and runs; so does code
that drives the desktop (the `computer` module): the screen changes without any code,
and pressing Tab twice is two steps, not a loop.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

REPEATS_BEFORE_STOP = 3

Verdict = Literal["run", "told", "stop"]
_Key = tuple[str, str]


class Repeats:
    """What one turn has run, by (language, code)."""

    def __init__(self) -> None:
        self._runs = 0
        self._failures: Counter[_Key] = Counter()
        self._successes: dict[_Key, tuple[str, int]] = {}  # result, and the run it came from
        self._proposed_again: Counter[_Key] = Counter()

    def check(self, language: str, code: str) -> tuple[Verdict, int]:
        """Whether this proposal runs, before anyone is asked; with how often it came in a row.

        "told": it just succeeded and nothing ran since (the caller passes on `result`);
        "stop": this is the REPEATS_BEFORE_STOP-th such proposal in a row.
        """
        key = (language, code)
        success = self._successes.get(key)
        if success is None or success[1] != self._runs or "computer." in code:
            return "run", 0
        self._proposed_again[key] += 1
        times = self._proposed_again[key] + 1
        return ("stop" if times >= REPEATS_BEFORE_STOP else "told"), times

    def result(self, language: str, code: str) -> str:
        """What the model read after the last successful run of this code."""
        return self._successes[(language, code)][0]

    def record(self, language: str, code: str, succeeded: bool, result: str) -> int:
        """Note a finished run; returns how many times in a row this code has failed."""
        key = (language, code)
        self._runs += 1
        self._proposed_again.pop(key, None)
        if succeeded:
            self._successes[key] = (result, self._runs)
            self._failures.pop(key, None)
            return 0
        self._successes.pop(key, None)
        self._failures[key] += 1
        return self._failures[key]
