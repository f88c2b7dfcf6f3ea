"""The texts the loop says when it refuses or stops, and the limits that end a turn; the
turn's record itself is assistant.checks.record."""

from __future__ import annotations

from assistant.events import RunEnd, TurnEndReason
from assistant.texts import text

DECLINES_BEFORE_STOP = 3
NOT_RUN = text("call.not_run")
FRAMED = text("call.framed")
AFTER_FAILURE = text("call.after_failure")
CORRECTION = text("call.malformed")
MALFORMED_AGAIN = (
    "The model sent a malformed tool call again ({}): try again, or set code_style "
    "to fenced for this model"
)
RELABELLED = text("call.relabelled")
REPLACED = text("call.replaced")
WRAP_UP = text("wrapup.ask")
WRAPPED_UP = {"repeated_failure", "repeated_success", "max_runs"}

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
