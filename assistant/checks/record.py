"""The turn's typed record: what the request asked, every run's end, what was declined, and
every rule that acted. The checks read it; the counters the turn's limits need are
derived from it, never kept beside it."""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.checks.answers import AnswerCheck
from assistant.checks.repeats import Repeats
from assistant.checks.rules import Rules
from assistant.events import RunEnd


@dataclass
class TurnRecord:
    """One turn so far. `answer` holds the request and what the runs printed and wrote;
    `ends` is every run's end, in order; `declined` the reason given for each proposal the
    user declined; `foreseen` the end of each preview that went back to the model in place
    of asking anyone (assistant.checks.previewed)."""

    answer: AnswerCheck
    ends: list[RunEnd] = field(default_factory=list)
    declined: list[str] = field(default_factory=list)
    foreseen: list[RunEnd] = field(default_factory=list)  # previews sent back, not run
    corrected: bool = False  # the last call was malformed and the model was told
    stuck: bool = False  # the last reply repeated code or was sent back: the next is warmer
    repeats: Repeats = field(default_factory=Repeats)

    @property
    def rules(self) -> Rules:
        return self.answer.rules

    @property
    def runs(self) -> int:
        return len(self.ends)

    @property
    def declines(self) -> int:
        return len(self.declined)

    @property
    def foresaw_failure(self) -> bool:
        """Whether the last preview sent back had failed."""
        return bool(self.foreseen) and self.foreseen[-1].exit_status != 0

    @property
    def failed(self) -> bool:
        """Whether the last run failed."""
        return bool(self.ends) and self.ends[-1].exit_status != 0

    @property
    def last_exit(self) -> int | None:
        return self.ends[-1].exit_status if self.ends else 0

    @property
    def ran_well(self) -> bool:
        """Whether code ran in this turn and the last run succeeded."""
        return self.runs > 0 and not self.failed

