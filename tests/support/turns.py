"""A turn's state made as the loop makes it, and runs added as the pipeline adds them, for
the tests of the checks that read it."""

from __future__ import annotations

from pathlib import Path

from assistant.checks.requested import Request
from assistant.checks.rules import Rules
from assistant.checks.state import TurnState
from assistant.events import RunEnd
from assistant.rulebook import resolve
from assistant.runtime.changes import NO_CHANGES


def turn(request: str, folder: Path, *, off: str = "", context: str = "",
         lines: bool = False) -> TurnState:
    """The state of a turn that starts with `request`, with the rules `off` turned off."""
    return TurnState(Request.parse(request), folder, Rules(resolve(off)), context=context,
                     lines=lines)


def ran(state: TurnState, output: str, changes: str = NO_CHANGES, *, status: int | None = 0,
        code: str = "...") -> int:
    """A run of `code` (a proposal too) that printed `output` and ended with `status`."""
    state.code.append(code)
    return state.ran(RunEnd(str(len(state.tries) + 1), status, output, 0.1), ("shell", code),
                     output, changes)
