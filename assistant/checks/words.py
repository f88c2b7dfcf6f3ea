"""Words for a turn whose model has none of its own, written from the turn's record: what
its runs printed last, or the files they wrote, or else what ran and how it ended. A
turn never ends in silence (a voice user hears nothing) nor in the loop's instructions."""

from __future__ import annotations

from collections.abc import Callable

from assistant.checks.record import TurnRecord

LAST_PRINTED = 500  # characters of it that end a stopped turn whose wrap-up was code
LISTED_WRITTEN = 10  # files named instead, when no successful run printed anything
LAST_LINE = 200  # characters of a failed run's last line


def stand_in(record: TurnRecord, redact: Callable[[str], str]) -> str:
    """What the runs printed last, or else the files they wrote; "" when they did neither."""
    seen = record.answer
    last = next((out.strip() for out in reversed(seen.succeeded) if out.strip()), "")
    if last:
        return redact(f"The last run printed:\n{last[:LAST_PRINTED]}")
    wrote = ", ".join(sorted(seen.wrote)[:LISTED_WRITTEN])
    return f"Files written in this turn: {wrote}." if wrote else ""


def from_record(record: TurnRecord, redact: Callable[[str], str]) -> str:
    """The stand-in, or else what ran and how the last run ended: never empty."""
    words = stand_in(record, redact)
    if words:
        return words
    if not record.ends:
        declined = record.declines
        if declined:
            return f"Nothing ran: {declined} proposal{'s' if declined > 1 else ''} declined."
        return "Nothing ran in this turn."
    end = record.ends[-1]
    runs = f"{record.runs} run{'s' if record.runs > 1 else ''} in this turn"
    if end.exit_status == 0:
        return f"{runs}; the last succeeded and printed nothing, and no file changed."
    lines = [line.strip() for line in end.output.splitlines() if line.strip()]
    how = ("did not finish" if end.exit_status is None
           else f"failed (exit status {end.exit_status})")
    said = f": {lines[-1][:LAST_LINE]}" if lines else ", with no output"
    return redact(f"{runs}; the last {how}{said}")
