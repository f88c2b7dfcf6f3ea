"""The texts the loop says when it refuses or stops, and the limits that end a turn; the
turn's state itself is assistant.checks.state."""

from __future__ import annotations

from assistant.actions.outcomes import Stop
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
TYPED = text("call.typed")

# Said to the user when the loop ends a turn.
STOP_NOTICES = {
    "interrupted": text("stop.interrupted"),
    "declined": text("stop.declined"),
    "max_runs": text("stop.max_runs"),
    "repeated_failure": text("stop.repeated_failure"),
    "repeated_success": text("stop.repeated_success"),
}


Outcome = tuple[str, Stop | None]
