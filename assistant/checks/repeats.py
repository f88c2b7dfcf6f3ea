"""Identical proposals within one turn: what the model is told of them (when they run, when
it is told and when the turn stops is read from the turn's state: TurnState.rerun and
TurnState.reply); and one reply that starts writing its own blocks again.

Code proposed again with nothing run since would only give the same result: fail the
same way, or do its change twice (a small model once overwrote its input this way, 20
times). It is not run again; the model is told, and a third proposal in a row ends the
turn. The same code after other code ran is a check of what changed, and runs; so does
code that drives the desktop (the `computer` module): the screen changes without any
code, and pressing Tab twice is two steps, not a loop; but not code that sets states (choose,
tick, type into a field) the screen showed done after it succeeded.
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.llm.fenced import blocks
from assistant.texts import text

GUESS_CHARS = 160  # words after a reply's code before it is ended there (a plan is shorter)
# What the model reads in place of the result of a repeat that was not run.
REPEAT_TOLD = text("repeat.success_told")
REPLY_TOLD = text("repeat.reply_told")
RESET_TOLD = text("repeat.reset_told")
REPEAT_NOT_RUN = text("repeat.not_run")
FAILED_AGAIN = text("repeat.failed_again")


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

