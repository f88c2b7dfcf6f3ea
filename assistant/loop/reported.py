"""What the model reads after its code ran: how the run ended and what it changed, with
what the turn's checks already find wrong with its result; the turn's state is brought
up to date on the way. Apart from the loop so that what the model is told reads alone.
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.actions.apply import applies
from assistant.actions.outcomes import Cleared, Ran
from assistant.checks.made import problems
from assistant.checks.missing import noted
from assistant.checks.state import TurnState
from assistant.checks.verdicts import Annotate
from assistant.events import RunEnd
from assistant.messages import describe_run, failure_line
from assistant.texts import text


def reported(state: TurnState, ran: Ran, cleared: Cleared,
             redact: Callable[[str], str]) -> tuple[str, int]:
    """What the model is told of the run of `cleared` (its code as it ran), and how many
    times in a row that code has now failed."""
    end, changes, wrote, screen = ran
    ok = end.exit_status == 0
    brief = describe_run(end) if ok else failure_line(end)
    failures = state.ran(end, (cleared.language, cleared.code), redact(brief), changes, wrote)
    if screen is not None:
        state.on_screen(screen)
    told = cleared.preface + redact(describe_run(end, changes) + hint(end, state))
    if screen:  # the desktop's outside check: the windows read again
        facts = "; ".join(fact.sentence for fact in screen)
        told = f"{told}\n{redact(text('screen.after').format(facts))}"
    made = problems(state.request, state.folder, wrote, state.lines) if wrote else []
    if made and applies(state.rules, Annotate("run.made", "\n".join(made))):
        told = "\n".join(part for part in (told, *made) if part)
    return told, failures


def hint(end: RunEnd, state: TurnState) -> str:
    """What the working folder holds, beside a failure on a path that is not (rule
    run.missing); said after a failed run and a failed preview alike."""
    note = noted(end, state)
    return note.note if note is not None and applies(state.rules, note) else ""
