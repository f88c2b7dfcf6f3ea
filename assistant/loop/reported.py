"""What the model reads after its code ran: how the run ended and what it changed, with
what the turn's checks already find wrong with its result; the turn's state is brought
up to date on the way. Apart from the loop so that what the model is told reads alone.
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.loop.answers import ELSEWHERE
from assistant.checks.hints import describe_run, failure_line
from assistant.loop.made import problems
from assistant.loop.peek import written
from assistant.loop.turn import Ran, TurnState
from assistant.loop.vetting import Cleared


def reported(state: TurnState, ran: Ran, cleared: Cleared,
             redact: Callable[[str], str]) -> tuple[str, int]:
    """What the model is told of the run of `cleared` (its code as it ran), and how many
    times in a row that code has now failed."""
    end, changes, wrote = ran
    check = state.answer
    ok = end.exit_status == 0
    check.ran(end.output, changes, ok, wrote)
    folder = check.folder
    making = check.to_make()
    brief = (describe_run(end, folder=str(folder)) if ok
             else failure_line(end, folder, cleared.code, making))
    state.runs += 1
    state.failed, state.last_exit = not ok, end.exit_status
    failures = state.repeats.record(cleared.language, cleared.code, ok, redact(brief))
    told = cleared.preface + redact(describe_run(end, changes, str(folder), cleared.code, making))
    unlooked = check.unlooked() if ok else []
    if unlooked:
        told += "\n" + ELSEWHERE.format(unlooked[0])
    if wrote:
        heads = written(check.request, folder, wrote) if check.lines else ""
        made = problems(check.request, folder, wrote, check.lines)
        told = "\n".join(part for part in (told, redact(heads), *made) if part)
    return told, failures
