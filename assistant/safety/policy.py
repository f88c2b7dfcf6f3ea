"""The approval gate: every run passes here, and only a human input channel can say yes.

The approver is a callable supplied by the front end (terminal prompt, popup, a caller's
function). Nothing the LLM writes and no program output reaches it as an approval.
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.events import Approval, Proposal

Approver = Callable[[Proposal], "Approval | bool"]


class Policy:
    """Decides each proposal for one conversation; remembers its "always allow" list."""

    def __init__(self, approver: Approver | None, auto_run: bool = False) -> None:
        self.approver = approver
        self.auto_run = auto_run
        self._always: set[tuple[str, str]] = set()

    def decide(self, proposal: Proposal) -> Approval:
        key = (proposal.language, proposal.code)
        if key in self._always:
            return Approval(proposal.id, True, "user", proposal.code,
                            reason="allowed always in this conversation")
        if self.auto_run:
            return Approval(proposal.id, True, "policy", proposal.code, reason="auto-run is on")
        if self.approver is None:
            return Approval(
                proposal.id, False, "policy",
                reason="no one to approve: pass approver= or turn auto-run on",
            )
        answer = self.approver(proposal)
        if isinstance(answer, bool):
            return Approval(proposal.id, answer, "caller", proposal.code if answer else "")
        if answer.approved and answer.always:
            self._always.add(key)
        code = (answer.code or proposal.code) if answer.approved else ""
        return Approval(
            proposal.id, answer.approved, answer.decided_by, code, answer.always, answer.reason
        )
