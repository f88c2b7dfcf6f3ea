"""Words for a turn whose model has none of its own, written from the turn's record: what
its runs printed last, or the files they wrote, or else what ran and how it ended. A
turn never ends in silence (a voice user hears nothing) nor in the loop's instructions.
A desktop job the screen shows done ends in such words too (rule screen.done)."""

from __future__ import annotations

from collections.abc import Callable

from assistant.checks.record import TurnRecord
from assistant.llm.results import last_line
from assistant.texts import text

LAST_PRINTED = 500  # characters of it that end a turn stopped after a run
LISTED_WRITTEN = 10  # files named instead, when no successful run printed anything
LAST_LINE = 200  # characters of a failed run's last line


def stand_in(record: TurnRecord, redact: Callable[[str], str]) -> str:
    """What the runs printed last, or else the files they wrote; "" when they did neither."""
    seen = record.answer
    last = next((out.strip() for out in reversed(seen.succeeded) if out.strip()), "")
    if last:
        return redact(text("record.printed").format(last[:LAST_PRINTED]))
    wrote = ", ".join(sorted(seen.wrote)[:LISTED_WRITTEN])
    return text("record.wrote").format(wrote) if wrote else ""


def from_record(record: TurnRecord, redact: Callable[[str], str]) -> str:
    """The stand-in, or else what ran and how the last run ended: never empty."""
    words = stand_in(record, redact)
    if words:
        return words
    if not record.ends:
        declined = record.declines
        if declined:
            return (text("record.declined_one") if declined == 1
                    else text("record.declined").format(declined))
        return text("record.nothing")
    end = record.ends[-1]
    runs = text("record.one_run") if record.runs == 1 else text("record.runs").format(record.runs)
    if end.exit_status == 0:
        return text("record.quiet").format(runs)
    how = text("run.stopped_midway") if end.interrupted else ended(end.exit_status)
    last = last_line(end.output, LAST_LINE)
    said = text("record.said").format(last) if last else text("record.silent")
    return redact(text("record.ended").format(runs, how, said))


def ended(exit_status: int | None) -> str:
    """How a run that did not succeed ended, in words: it failed, or did not finish."""
    return (text("run.unfinished") if exit_status is None
            else text("run.failed").format(exit_status))


def shown_done(record: TurnRecord, redact: Callable[[str], str]) -> str | None:
    """Words for a turn asked to act on a window whose last run the screen shows done:
    it succeeded, a window it acted on is gone, none opened, nothing it did is undone
    (rule screen.done). The model is not asked again: on two cores its answer to "the
    dialog 'Export' is gone" costs a reply, 30 s, to say what these words say. None
    when the screen does not show that."""
    seen = record.answer
    facts = seen.screen
    last = seen.screen_after == len(seen.outputs)  # the facts are the last run's
    if not (seen.desktop and seen.asks.on_screen and record.ran_well and facts and last):
        return None
    if any(f.undone or f.change == "open" for f in facts) or \
            not any(f.change == "gone" for f in facts):
        return None
    said = record.ends[-1].output.strip()[:LAST_PRINTED]
    after = text("screen.after").format("; ".join(f.sentence for f in facts))
    return redact(f"{said}\n{after}" if said else after)
