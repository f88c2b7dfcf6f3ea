"""The typed records that flow from the core to every front end.

One stream of these is the whole contract between the loop and a UI: a front end
renders them, the journal stores them, and nothing else crosses the boundary. `Event` is
the closed union of them all: a front end matches on it and ends with `assert_never`, so
the type checker shows that every kind is handled (or deliberately passed over).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, NoReturn, TypeAlias

Decider = Literal["user", "policy", "caller"]
Stream = Literal["stdout", "stderr"]


@dataclass(frozen=True)
class Record:
    """Base of every event; `kind` names the event in the journal and in JSON."""

    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **dataclasses.asdict(self)}


@dataclass(frozen=True)
class TextDelta(Record):
    """A piece of the LLM's words as they stream in."""

    kind: ClassVar[str] = "text"
    text: str


@dataclass(frozen=True)
class CodeDraft(Record):
    """The code of a tool call while the model writes it, whole so far: shown as it streams,
    never run (the Proposal that follows is what is approved and runs)."""

    kind: ClassVar[str] = "code_draft"
    language: str
    code: str


@dataclass(frozen=True)
class Proposal(Record):
    """Code the LLM wants to run; nothing runs until an approval says so.

    `risk` (low, medium, high, blocked) and `reasons` come from the static risk check,
    for front ends to show; the policy rates the code again itself before deciding.
    A tool call is a proposal too: `tool` names where the tool comes from (`mcp:SERVER`,
    `plugin:NAME`), `language` is the tool's name and `code` its JSON arguments.
    `effect` is what a what-if run of the code did, when one was made before asking: front
    ends show (and the voice reads) it first, since it is what the code does, whatever the
    model's words claim; `risk` then counts it too (assistant/safety/effect_risk.py).
    """

    kind: ClassVar[str] = "proposal"
    id: str
    language: str
    code: str
    risk: str = "low"
    reasons: tuple[str, ...] = ()
    tool: str = ""
    effect: Effect | None = None


@dataclass(frozen=True)
class Approval(Record):
    """The decision on a proposal, and who made it.

    `code` is what will actually run (it differs from the proposal after an edit);
    `always` asks that identical code in this conversation runs without asking.
    """

    kind: ClassVar[str] = "approval"
    proposal_id: str
    approved: bool
    decided_by: Decider
    code: str = ""
    always: bool = False
    reason: str = ""


@dataclass(frozen=True)
class OutputChunk(Record):
    """Live output of a run, as the program prints it."""

    kind: ClassVar[str] = "output"
    proposal_id: str
    stream: Stream
    text: str


@dataclass(frozen=True)
class RunEnd(Record):
    """A run has finished; `output` is what the LLM is shown (already cut to size)."""

    kind: ClassVar[str] = "run_end"
    proposal_id: str
    exit_status: int | None
    output: str
    seconds: float
    timed_out: bool = False
    interrupted: bool = False
    waiting_for_input: bool = False
    truncated: bool = False
    restarted: bool = False
    limit: str = ""  # the per-run limit that stopped it: memory, processes, cpu or output


@dataclass(frozen=True)
class Effect(Record):
    """What a run does to files, as a what-if run of it showed (see assistant/whatif).

    Paths inside the working folder are relative to it, others absolute; a folder ends
    in "/". `moved` pairs a path before with the same bytes after (a renamed folder, and
    each of its files). `sizes` holds each listed file's size in bytes (after, or before
    for a delete). `unpreviewable` says what the preview could not cover (network,
    display, processes left running, writes outside home and the working folder), and
    `summary` is one sentence written from the rest, never by a model. A desktop
    proposal's `desktop` says what each of its calls acts on, read from the windows'
    accessibility trees before anyone is asked ("Presses Yes in the dialog 'Export'"),
    and `pressed` names each button it presses, with its window's title.
    """

    kind: ClassVar[str] = "effect"
    created: tuple[str, ...] = ()
    modified: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    moved: tuple[tuple[str, str], ...] = ()
    exit_status: int | None = None
    output: str = ""
    unpreviewable: tuple[str, ...] = ()
    summary: str = ""
    sizes: dict[str, int] = field(default_factory=dict)
    desktop: tuple[str, ...] = ()
    pressed: tuple[tuple[str, str], ...] = ()

    @property
    def changes_files(self) -> bool:
        return bool(self.created or self.modified or self.deleted or self.moved)

    @property
    def harmless(self) -> bool:
        """Changes no files, fails in nothing, and the preview missed nothing: no claim
        about such code can hide a change, so front ends show its code (and say its plan)
        beside the effect."""
        return not self.changes_files and not self.unpreviewable and not self.desktop and \
            self.exit_status in (0, None)


@dataclass(frozen=True)
class Notice(Record):
    """Something the user should know that is not the LLM's words (loop breaker, restarts)."""

    kind: ClassVar[str] = "notice"
    text: str


@dataclass(frozen=True)
class Tried(Record):
    """A proposal that went back to the model before anyone was asked: tried in a copy of
    the user's files, it failed or changed nothing (assistant/checks/previewed.py). Front
    ends show `text`, one line, with the code on demand: the person approves only what
    worked, and sees the failed tries collapsed."""

    kind: ClassVar[str] = "tried"
    language: str
    code: str
    text: str


@dataclass(frozen=True)
class Error(Record):
    """A failure explained in one line that says what to do."""

    kind: ClassVar[str] = "error"
    text: str


@dataclass(frozen=True)
class Usage(Record):
    """Tokens one LLM call used, when the provider reports them."""

    kind: ClassVar[str] = "usage"
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class RuleFired(Record):
    """A rule of the checks wing acted on the turn (or was skipped: `action` "skipped",
    `detail` why), by its id in assistant/checks/rules.toml. Journaled; front ends may pass
    over it."""

    kind: ClassVar[str] = "rule"
    rule: str
    family: str
    action: str
    detail: str = ""


TurnEndReason = Literal[
    "answered", "interrupted", "declined", "max_runs", "repeated_failure", "repeated_success",
    "error",
]


@dataclass(frozen=True)
class TurnEnd(Record):
    """The turn is over; `text` is the LLM's final words (empty when it ended otherwise)."""

    kind: ClassVar[str] = "turn_end"
    text: str
    reason: TurnEndReason = "answered"
    conversation_id: str = ""
    details: dict[str, Any] = field(default_factory=dict)


Event: TypeAlias = (
    TextDelta | CodeDraft | Proposal | Approval | OutputChunk | RunEnd | Notice | Tried | Error
    | Usage | RuleFired | TurnEnd
)


def assert_never(event: NoReturn) -> NoReturn:
    """The end of a `match` on an Event: mypy rejects the call if a kind was left out."""
    raise AssertionError(f"unhandled event: {event!r}")
