"""One turn's state and the texts the loop says when it refuses or stops: what the rules
that end a turn count, apart from the loop that applies them."""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.loop.answers import AnswerCheck
from assistant.events import RunEnd, TurnEndReason
from assistant.loop.repeats import Repeats

DECLINES_BEFORE_STOP = 3
# Times a model is told that its code names a path not the user's; after that, the code
# is shown with the path put right: told a second time, a small model spent a whole
# reply and wrote the same path back.
PATHS_TOLD = 1
# Answers that repeat the loop's own words, asked for again (warmer) before one stands.
ECHOES_ASKED_AGAIN = 2
NOT_RUN = "Not run: the turn was stopped before this code ran."
CHECKED = "The answer was checked against what ran: the model was asked to look again."
FRAMED = "Not run: this block is a copy of the results you were given, not code."
AFTER_FAILURE = "Not run: code before it in this reply failed; fix that first."
CORRECTION = (
    "Not run: this call is malformed: {}. Call `execute` again with JSON arguments "
    '{{"language": "python", "shell" or "javascript", "code": "..."}}.'
)
MALFORMED_AGAIN = (
    "The model sent a malformed tool call again ({}): try again, or set code_style "
    "to fenced for this model"
)
RELABELLED = "Ran as {1}: this code is {1}, not {0}.\n"
REPLACED = "Ran with {1} in place of {0}, which is not the user's.\n"
WRAP_UP = ("{} Propose no code now: tell the user in one or two plain sentences what was "
           "done and what the outputs showed.")
LAST_PRINTED = 500  # characters of it that end a stopped turn whose wrap-up was code
LISTED_WRITTEN = 10  # files named instead, when no successful run printed anything
WRAPPED_UP = {"repeated_failure", "repeated_success", "max_runs"}
# The temperature of the reply after the model repeated itself (code that just succeeded,
# or failed again): at the usual low temperature a small model that read nearly the same
# history writes nearly the same reply, and the turn ends in a loop.
UNSTICK_TEMPERATURE = 0.7

STOP_NOTICES = {
    "interrupted": "Stopped: you interrupted the run.",
    "declined": "Stopped: {n} proposals were declined in this turn; say what you want instead.",
    "max_runs": "Stopped after {n} runs in one turn (max_runs_per_turn): say how to continue.",
    "repeated_failure": "Stopped: the same code failed {n} times in a row; it will not work as is.",
    "repeated_success": "Stopped: the same code was proposed {n} times in a row after it had "
    "succeeded; it was not run again.",
}


Stop = tuple[TurnEndReason, int]
Outcome = tuple[str, Stop | None]
Ran = tuple[RunEnd, str, list[str]]


@dataclass
class TurnState:
    """What one turn has done so far, for the rules that end it."""

    answer: AnswerCheck
    runs: int = 0
    declines: int = 0
    corrected: bool = False  # the last call was malformed and the model was told
    failed: bool = False  # the last run failed
    last_exit: int | None = 0
    reminded: bool = False  # told once that it answered after a failed run
    echoes: int = 0  # answers left out for repeating the results they were given
    placeheld: int = 0  # times told that its code names a path not the user's
    stuck: bool = False  # the last reply repeated code or was sent back: the next is warmer
    repeats: Repeats = field(default_factory=Repeats)

    @property
    def ran_well(self) -> bool:
        """Whether code ran in this turn and the last run succeeded."""
        return self.runs > 0 and not self.failed
