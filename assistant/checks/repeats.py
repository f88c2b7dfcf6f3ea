"""Identical proposals within one turn: when they run, when the model is told, when it stops;
and one reply that starts writing its own blocks again.

Code proposed again with nothing run since would only give the same result: fail the
same way, or do its change twice (a small model once overwrote its input this way, 20
times). It is not run again; the model is told, and a third proposal in a row ends the
turn. The same code after other code ran is a check of what changed, and runs; so does
code that drives the desktop (the `computer` module): the screen changes without any
code, and pressing Tab twice is two steps, not a loop.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Literal

from assistant.llm.fenced import blocks
from assistant.texts import text

REPEATS_BEFORE_STOP = 3
GUESS_CHARS = 160  # words after a reply's code before it is ended there (a plan is shorter)
# What the model reads in place of the result of a repeat that was not run.
REPEAT_TOLD = text("repeat.success_told")
REPLY_TOLD = text("repeat.reply_told")
REPEAT_NOT_RUN = text("repeat.not_run")
FAILED_AGAIN = text("repeat.failed_again")

Rerun = Literal["run", "told", "stop"]
_Key = tuple[str, str]


def looping(text: str, tools: Callable[[str], str | None] | None = None) -> str | None:
    """`text` up to the end of its first round of blocks, when its last closed blocks
    repeat the ones just before them ([A, A] or [A, B, A, B]); None while they do not
    (rule repeat.in_reply). A small model that starts writing the same code again in one
    reply goes on to its token limit: 2,000 tokens, 100 s on a laptop's CPU, for code
    that runs once. The adapter asks it while the reply streams, and ends the reply
    there (`LLM.stream`'s `cut`)."""
    closed = blocks(text, tools, closed=True)
    keys = [block[:2] for block in closed]
    for size in (1, 2):
        if len(keys) >= 2 * size and keys[-size:] == keys[-2 * size:-size]:
            return "\n".join(text.split("\n")[:closed[-size - 1][2]])
    return None


def guessing(text: str, tools: Callable[[str], str | None] | None = None) -> str | None:
    """`text` up to the end of its last closed block, once what follows it runs past
    GUESS_CHARS with no block begun; None until then (rule history.guess). What a reply
    writes after its code was written before the code ran: a guess the history leaves
    out. A small model goes on to its token limit there (the screen it was shown, written
    out again: 150 s on two busy cores), so the reply ends as it streams."""
    closed = blocks(text, tools, closed=True)
    if not closed:
        return None
    lines = text.split("\n")
    after = "\n".join(lines[closed[-1][2]:])
    if len(after) <= GUESS_CHARS or "```" in after or "~~~" in after:
        return None
    return "\n".join(lines[:closed[-1][2]])


class Repeats:
    """What one turn has run, by (language, code)."""

    def __init__(self) -> None:
        self._failures: Counter[_Key] = Counter()
        self._last: tuple[_Key, bool, str] | None = None  # the last run: succeeded, result
        self._proposed_again = 0  # times the last run's code was proposed again since
        self._reply: tuple[_Key, ...] = ()  # the calls of the last reply taken
        self._reply_ok = False  # all of them succeeded
        self._reply_times = 0  # that reply, in a row

    def reply(self, keys: tuple[_Key, ...]) -> tuple[Rerun, int]:
        """Before a reply's calls are taken: several calls, all the same as the last reply's,
        which all succeeded, are a loop of checks (`ls` then `cat`, ten times over) that
        `check` cannot see, each call following another. "told" or "stop" as `check`."""
        same = len(keys) > 1 and keys == self._reply and self._reply_ok
        self._reply_times = self._reply_times + 1 if same else 1
        if not same:
            self._reply, self._reply_ok = keys, True
            return "run", 0
        return ("stop" if self._reply_times >= REPEATS_BEFORE_STOP else "told"), self._reply_times

    def check(self, language: str, code: str) -> tuple[Rerun, int]:
        """Whether this proposal runs, before anyone is asked; with how often it came in a row.

        "told": it is the code of the last run, and nothing ran since (the caller passes on
        `result`); "stop": this is the REPEATS_BEFORE_STOP-th such proposal in a row.
        """
        rerun, times = self.rerun(language, code)
        if rerun != "run":
            self._proposed_again += 1
        return rerun, times

    def rerun(self, language: str, code: str) -> tuple[Rerun, int]:
        """What `check` would say, without counting this proposal."""
        if self._last is None or self._last[0] != (language, code) or "computer." in code:
            return "run", 0
        times = self._proposed_again + 2
        return ("stop" if times >= REPEATS_BEFORE_STOP else "told"), times

    def last_failed(self) -> bool:
        return self._last is not None and not self._last[1]

    def result(self) -> str:
        """What the model read after the last run (or, of a failure, the line that says why)."""
        return self._last[2] if self._last else ""

    def record(self, language: str, code: str, succeeded: bool, result: str) -> int:
        """Note a finished run; returns how many times this code has failed in this turn."""
        key = (language, code)
        self._last = (key, succeeded, result)
        self._proposed_again = 0
        self._reply_ok = self._reply_ok and succeeded
        if succeeded:
            self._failures.pop(key, None)
            return 0
        self._failures[key] += 1
        return self._failures[key]
