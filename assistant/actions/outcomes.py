"""How a stage of the pipeline ends, as types: go on (`Cleared`, then `Ran`), send back to
the model (`SentBack`), refuse (`Declined`), stop the turn (`Halt`), or the action done
(`Reported`). Whoever took the action reads `told` (the model as its call's result, an
MCP client as its tool's answer) and `stop` (why the turn ends, None when it goes on)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from assistant.events import RunEnd, TurnEndReason

if TYPE_CHECKING:
    from assistant.computer.after import Fact

Stop = tuple[TurnEndReason, int]


class Ran(NamedTuple):
    """A run's RunEnd, what it changed in the working folder, the files it wrote there,
    and what the screen shows after a run that acted on windows (computer/after.py; None
    for one that did not)."""

    end: RunEnd
    changes: str
    wrote: list[str]
    screen: tuple[Fact, ...] | None = None


@dataclass(frozen=True)
class Cleared:
    """Go on: the action as it is to be proposed, and what the model reads before its
    result (why it runs other than as written)."""

    language: str
    code: str
    preface: str = ""


@dataclass(frozen=True)
class SentBack:
    """Not proposed: the model (or client) reads `told` in place of a result, and the turn
    goes on."""

    told: str

    @property
    def stop(self) -> Stop | None:
        return None


@dataclass(frozen=True)
class Declined:
    """Refused by the policy or a person; `stop` when declines have ended the turn."""

    told: str
    stop: Stop | None = None


@dataclass(frozen=True)
class Reported:
    """It ran: `told` is what is said of the run; `stop` when the run ends the turn."""

    told: str
    ran: Ran | None = None
    stop: Stop | None = None


@dataclass(frozen=True)
class Halt:
    """Stop the turn: `told` is what the model reads for this action, `stop` why."""

    told: str
    stop: Stop


Outcome = SentBack | Declined | Reported | Halt
