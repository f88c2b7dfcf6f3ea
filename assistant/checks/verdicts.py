"""What a check may do to a turn, as types: the one contract between the checks and the loop.

A check reads the turn's state and returns a verdict, or None when it finds nothing:

- `SendBack`: the reply is not accepted; the model is told why (or, with no message, asked
  again) and replies once more. It costs one model call from the turn's budget.
- `Annotate`: the answer stands, with a note for the user.
- `StandIn`: the answer is written from the turn's state (what ran, what it printed, what
  it wrote) in place of words that only repeat the loop's.
- `Edit`: the words stand with a part left out: an answer's paragraphs that repeat the
  loop's words, or, in the history only, what a fenced reply guessed after its code.
- `Rewrite`: the code is changed before anyone is asked to approve it (what runs is what
  is shown).
- `Refuse`: a call is not proposed; the model reads why in place of its result.
- `Warm`: the next reply is asked at a higher temperature.

A check never applies its verdict: it returns it, or, where several rules may find fault in
turn, yields one per rule in order; the pipeline (assistant/actions/apply.py) says whether
its rule may act in this turn and records its firing, and the caller carries it out.

Each check's signature names the verdicts it may return: no check of a reply or an
answer returns a `Rewrite`, since code can only change before approval (the vet stage of
assistant.actions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SendBack:
    """Ask the model again: `told` goes into the history first; `notice` is the user's."""

    rule: str
    told: dict[str, Any]
    notice: str
    detail: str = ""  # what the journal keeps of why


@dataclass(frozen=True)
class Annotate:
    """Accept the answer, and tell the user `note` with it."""

    rule: str
    note: str
    detail: str = ""


@dataclass(frozen=True)
class StandIn:
    """Accept `words`, written from the turn's state, as the answer."""

    rule: str
    words: str
    notice: str


@dataclass(frozen=True)
class Edit:
    """Accept the model's words as `words`: with what only repeats the loop left out, or
    what it guessed after its code (then in the history only)."""

    rule: str
    words: str
    detail: str = ""


@dataclass(frozen=True)
class Rewrite:
    """Propose `code` (as `language`) in place of what the model wrote; `preface` is what
    the model reads before its result, `notice` what the user is told."""

    rule: str
    language: str
    code: str
    preface: str
    notice: str


@dataclass(frozen=True)
class Refuse:
    """Do not propose the call: the model reads `told` as its result, the user `notice`;
    `detail` is what the journal keeps of why."""

    rule: str
    told: str
    notice: str
    detail: str = ""



@dataclass(frozen=True)
class Warm:
    """Ask the next reply at a higher temperature: the last one repeated itself."""

    rule: str


Verdict = SendBack | Annotate | StandIn | Edit | Rewrite | Refuse | Warm
