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
    `tries` the end of every run and of every preview that went back to the model in place
    of asking anyone (assistant.checks.previewed), in order, each marked previewed or not;
    `declined` the reason given for each proposal the user declined."""

    answer: AnswerCheck
    tries: list[tuple[RunEnd, bool]] = field(default_factory=list)  # (end, previewed)
    declined: list[str] = field(default_factory=list)
    corrected: bool = False  # the last call was malformed and the model was told
    stuck: bool = False  # the last reply repeated code or was sent back: the next is warmer
    repeats: Repeats = field(default_factory=Repeats)

    @property
    def rules(self) -> Rules:
        return self.answer.rules

    def ran(self, end: RunEnd) -> None:
        self.tries.append((end, False))

    def foresaw(self, end: RunEnd) -> None:
        self.tries.append((end, True))

    @property
    def ends(self) -> list[RunEnd]:
        """Every run's end, in order."""
        return [end for end, previewed in self.tries if not previewed]

    @property
    def last_failed(self) -> bool:
        """Whether the last thing tried, a run or a preview sent back, failed."""
        return bool(self.tries) and self.tries[-1][0].exit_status != 0

    @property
    def failed_preview(self) -> RunEnd | None:
        """The last thing tried, when it was a preview that failed and went back: nothing
        ran after it, so an answer now rests on code that never ran."""
        if not self.last_failed:
            return None
        end, previewed = self.tries[-1]
        return end if previewed else None

    @property
    def runs(self) -> int:
        return len(self.ends)

    @property
    def declines(self) -> int:
        return len(self.declined)

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

