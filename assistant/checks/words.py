"""Words for a turn whose model has none of its own, written from the turn's state: what
its runs printed last, or the files they wrote, or else what ran and how it ended. A
turn never ends in silence (a voice user hears nothing) nor in the loop's instructions.
A desktop job the screen shows done ends in such words too (rule screen.done)."""

from __future__ import annotations

from collections.abc import Callable

from assistant.checks.state import TurnState
from assistant.checks.verdicts import StandIn
from assistant.messages import last_line
from assistant.texts import text

LAST_PRINTED = 500  # characters of it that end a turn stopped after a run
LISTED_WRITTEN = 10  # files named instead, when no successful run printed anything
LAST_LINE = 200  # characters of a failed run's last line


def stand_in(state: TurnState, redact: Callable[[str], str]) -> str:
    """What the runs printed last, or else the files they wrote; "" when they did neither."""
    last = next((out.strip() for out in reversed(state.succeeded) if out.strip()), "")
    if last:
        return redact(text("record.printed").format(last[:LAST_PRINTED]))
    wrote = ", ".join(sorted(state.wrote)[:LISTED_WRITTEN])
    return text("record.wrote").format(wrote) if wrote else ""


def from_record(state: TurnState, redact: Callable[[str], str]) -> str:
    """The stand-in, or else what ran and how the last run ended: never empty."""
    words = stand_in(state, redact)
    if words:
        return words
    if not state.ends:
        declined = state.declines
        if declined:
            return (text("record.declined_one") if declined == 1
                    else text("record.declined").format(declined))
        return text("record.nothing")
    end = state.ends[-1]
    runs = text("record.one_run") if state.runs == 1 else text("record.runs").format(state.runs)
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


def shown_done(state: TurnState, redact: Callable[[str], str]) -> StandIn | None:
    """Words for a turn asked to act on a window whose last run the screen shows done:
    it succeeded, a window it acted on is gone (or the run was the whole request, read
    as an edit of the editor there), none opened, nothing it did is undone (rule
    screen.done). The model is not asked again: on two cores its answer to "the dialog
    'Export' is gone" costs a reply, 30 s, to say what these words say, and asked after
    an edit it proposed the same edit again. None when the screen does not show that."""
    facts = state.screen
    last = state.screen_after == state.runs  # the facts are the last run's
    if not (state.desktop and state.request.on_screen and state.runs and not state.failed
            and (facts or state.edited) and last):
        return None
    if any(f.undone or f.change == "open" for f in facts) or \
            not (any(f.change == "gone" for f in facts) or (state.edited and state.runs == 1)):
        return None
    said = state.ends[-1].output.strip()[:LAST_PRINTED]
    after = text("screen.after").format("; ".join(f.sentence for f in facts)) if facts else ""
    return StandIn("screen.done", redact("\n".join(part for part in (said, after) if part)),
                   "")
