"""What the model reads after its code ran: how the run ended and what it changed, with
what the turn's checks already find wrong with its result; the turn's state is brought
up to date on the way. Apart from the loop so that what the model is told reads alone.
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.actions.outcomes import Cleared, Ran
from assistant.checks.made import problems
from assistant.checks.missing import noted
from assistant.checks.record import TurnRecord
from assistant.llm.results import describe_run, failure_line
from assistant.texts import text


def reported(state: TurnRecord, ran: Ran, cleared: Cleared,
             redact: Callable[[str], str]) -> tuple[str, int]:
    """What the model is told of the run of `cleared` (its code as it ran), and how many
    times in a row that code has now failed."""
    end, changes, wrote, screen = ran
    check = state.answer
    rules = check.rules
    ok = end.exit_status == 0
    check.ran(end.output, changes, ok, wrote)
    if screen is not None:
        check.on_screen(screen)
    brief = describe_run(end) if ok else failure_line(end)
    state.ran(end)
    failures = state.repeats.record(cleared.language, cleared.code, ok, redact(brief))
    told = cleared.preface + redact(describe_run(end, changes) + noted(end, state))
    if screen:  # the desktop's outside check: the windows read again
        facts = "; ".join(fact.sentence for fact in screen)
        told = f"{told}\n{redact(text('screen.after').format(facts))}"
    if wrote and rules.on("run.made"):
        made = problems(check.asks, check.folder, wrote, check.lines)
        if made:
            rules.fire("run.made", "annotate")
        told = "\n".join(part for part in (told, *made) if part)
    return told, failures
