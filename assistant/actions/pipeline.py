"""One action, from what was asked to what is said of it, the same for every way in:

    vet ─► rate ─► preview ─► judge ─► rate by the effect ─► aim (desktop) ─► decide ─► run
        (held to the preview) ─► report

Each stage ends in a typed outcome (assistant.actions.outcomes): go on, send back, refuse
(declined), stop (halt) or done (reported). The stages every way shares live here; what a
way adds (the conversation vets a call against its turn and judges its preview; `assistant
mcp` only tells its client) is its `Way`. Which preview applies is what the runtimes can
do (`Parts.foreseeing`). The policy is asked in one place, `decide`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from assistant.actions.aimed import (
    Aimed,
    aimed,
    desktop_effect,
    on_screen,
    reloaded,
    reloading_effect,
)
from assistant.actions.outcomes import Cleared, Declined, Halt, Outcome, Ran, Reported, SentBack
from assistant.actions.parts import Parts
from assistant.events import Approval, Event, Proposal, RunEnd
from assistant.runtime.changes import Listings, describe_changes, listed
from assistant.runtime.changes import written as written_files
from assistant.safety.policy import Policy
from assistant.texts import text

if TYPE_CHECKING:
    from assistant.computer.after import Fact
    from assistant.whatif.preview import Preview


class Way(Protocol):
    """What the way an action came in adds around the shared stages."""

    def emit(self, event: Event) -> Event:
        """Journal `event` on its way to whoever watches."""

    def stopped(self) -> bool:
        """Whether the person asked to stop."""

    def vet(self) -> Generator[Event, None, Cleared | SentBack | Halt]:
        """The action cleared to be proposed, or what is said in place of a run."""

    def judge(self, seen: Preview, cleared: Cleared
              ) -> Generator[Event, None, SentBack | Halt | None]:
        """The preview `seen` read before anyone is asked; None: ask."""

    def declined(self, approval: Approval) -> Declined | Halt:
        """What is said of an action the policy or a person declined."""

    def report(self, ran: Ran, cleared: Cleared) -> Reported | Halt:
        """What is said of the run of `cleared` (its code as it ran)."""


def take(parts: Parts, way: Way, action_id: str) -> Generator[Event, None, Outcome]:
    """One action through every stage, its events yielded as they happen."""
    cleared = yield from way.vet()
    if not isinstance(cleared, Cleared):
        return cleared
    proposal = rate(parts.policy, action_id, cleared)
    seen = foresee(parts, proposal)
    if seen is not None:
        judged = yield from way.judge(seen, cleared)
        if judged is not None:
            return judged
        proposal = rated_by_effect(parts.policy, proposal, seen)
    found = aimed(proposal.language, proposal.code) if proposal.risk != "blocked" else None
    folder = _folder(parts)
    proposal = rated_by_aim(parts.policy, proposal, found, folder)
    yield way.emit(proposal)
    approval = decide(parts.policy, proposal)
    yield way.emit(approval)
    if way.stopped():
        return Halt(text("run.stopped"), ("interrupted", 0))
    if not approval.approved:
        return way.declined(approval)
    ran = yield from run(parts, way.emit, proposal.language, approval.code, proposal.id)
    ran = ran._replace(screen=shown(found, approval.code, ran.wrote, folder))
    return way.report(ran, replace(cleared, code=approval.code))  # as it was approved


def rate(policy: Policy, action_id: str, cleared: Cleared) -> Proposal:
    """The proposal with the static check's rating."""
    return policy.proposal(action_id, cleared.language, cleared.code)


def foresee(parts: Parts, proposal: Proposal) -> Preview | None:
    """The proposal's what-if run, where the runtimes can make one and something could
    run: never for blocked code, nor when nothing is approved; None when it failed to be
    made (its problem is no effect)."""
    runtimes = parts.foreseeing()
    if runtimes is None or proposal.risk == "blocked" or parts.policy.mode == "never":
        return None
    seen = runtimes.foresee(proposal.language, proposal.code)
    return seen if seen is not None and not seen.problem else None


def rated_by_effect(policy: Policy, proposal: Proposal, seen: Preview) -> Proposal:
    """The proposal carrying its effect and rated by it too (under auto, a low rating
    stays low only when the effect shows the run harmless: safety/earned.py). A preview
    that changed no files and failed where it could not cover the run (the screen, a
    write it was refused) has nothing to show: its failure there is not the effect. One
    that ended well shows what it left uncovered."""
    effect = seen.effect
    if not effect.changes_files and effect.unpreviewable and effect.exit_status != 0:
        return proposal
    return policy.proposal(proposal.id, proposal.language, proposal.code, seen.effect)


def rated_by_aim(policy: Policy, proposal: Proposal, found: Aimed | None,
                 folder: str) -> Proposal:
    """A desktop proposal carrying what it will press, choose or type into (`found`, read
    from the windows now: a preview cannot reach the display), and rated by the buttons it
    presses; one that writes a file an editor holds says that editor is reloaded."""
    reloads = reloading_effect(proposal.effect, folder)
    effect = desktop_effect(found, reloads) or reloads
    if effect is None or effect == proposal.effect:
        return proposal
    return policy.proposal(proposal.id, proposal.language, proposal.code, effect)


def shown(found: Aimed | None, code: str, wrote: list[str], folder: str
          ) -> tuple[Fact, ...] | None:
    """The desktop's outside check: what the screen shows of each call `found` read
    before the run, and of each editor reloaded for a file the run wrote; None when the
    run acted on no window."""
    facts = on_screen(found, code)
    again = reloaded(wrote, folder)
    return facts if not again else (facts or ()) + again


def _folder(parts: Parts) -> str:
    return os.path.realpath(parts.runtimes.cwd or os.getcwd())


def decide(policy: Policy, proposal: Proposal) -> Approval:
    """The one place the policy is asked: it rates again (a proposal's risk field is for
    display), then allows, declines, or asks a person."""
    return policy.decide(proposal)


def run(parts: Parts, emit: Callable[[Event], Event], language: str, code: str,
        proposal_id: str) -> Generator[Event, None, Ran]:
    """Run approved code (a tool's call, when `language` names a tool): its RunEnd, what it
    changed in the working folder, and the files it wrote there. Foreseeing runtimes keep
    what the run replaces, for undo, and hold the run to its preview on the way."""
    events: Generator[Event, None, Listings]
    if parts.tools is not None and parts.tools.find(language) is not None:
        folder = str(Path(parts.runtimes.cwd or os.getcwd()))  # a tool's answer comes back
        events = listed(folder, parts.tools.call(language, code, proposal_id=proposal_id))
    else:
        events = parts.runtimes.run_listed(language, code, proposal_id=proposal_id)
    end: RunEnd | None = None
    while True:
        try:
            event = next(events)
        except StopIteration as done:
            before, after = done.value
            break
        yield emit(event)
        if isinstance(event, RunEnd):
            end = event
    assert end is not None, "a run always ends with RunEnd"
    return Ran(end, describe_changes(before, after), written_files(before, after))
