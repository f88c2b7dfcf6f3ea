"""The approval gate: every run passes here, and only a human input channel can say yes.

The approver is a callable supplied by the front end (terminal prompt, popup, a caller's
function). Nothing the LLM writes and no program output reaches it as an approval. The
policy rates each proposal with the static risk check first and acts on the rating:
`blocked` never runs, `high` needs a person's explicit yes, `auto` covers only `low`, and
under `auto` a run's `low` is earned (safety/earned.py): shown harmless by its preview and
its known programs, or it is `medium` and a person is asked, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from assistant.choices import ApprovalMode, choices, one_of
from assistant.events import Approval, Decider, Effect, Proposal
from assistant.safety.findings import Scope
from assistant.safety.rating import Assessment, DenyRules, judged

UNPROVEN = "unproven"
"""The family of a run rated low that has not shown it is harmless (it asks under auto)."""

Approver = Callable[[Proposal], "Approval | bool"]


class ToolRatings(Protocol):
    """The tools a conversation may call besides `execute`, rated from their own hints and
    the user's config (assistant.tools.Toolbox)."""

    def rating(self, name: str) -> tuple[str, Assessment] | None:
        """The tool's source and risk; None when `name` is no tool (so it is code)."""


class Policy:
    """Decides each proposal for one conversation; remembers its "always allow" list."""

    def __init__(  # noqa: PLR0913 - each a setting of the conversation, by keyword
        self,
        approver: Approver | None,
        *,
        mode: ApprovalMode = "ask",
        deny: DenyRules | None = None,
        protected: tuple[str, ...] = (),
        tools: ToolRatings | None = None,
        places: tuple[str, ...] = (),
    ) -> None:
        if mode not in choices(ApprovalMode):
            raise ValueError(f"approval mode must be {one_of(choices(ApprovalMode))}, "
                             f"not {mode!r}")
        self.approver = approver
        self.mode: ApprovalMode = mode
        self.deny = deny or DenyRules()
        self.protected = protected
        self.tools = tools
        self.places = places  # where runs under auto may change files besides the working folder
        # identical code allowed always, and who allowed it: a program's "always" stays its own
        self._always: dict[tuple[str, str], Decider] = {}

    def assess(self, language: str, code: str) -> Assessment:
        """The static risk rating under this conversation's deny rules. A tool call: the
        tool's own rating, raised by what its arguments name or carry (the same content
        rules as code). The checkers load on the first proposal, not with the program:
        a command's first word need not wait for their regular expressions."""
        from assistant.safety import tool_args
        from assistant.safety.risk import assess, findings_for

        rated = self.tools.rating(language) if self.tools is not None else None
        if rated is None:
            return assess(code, language, self.deny, self.protected)
        scope = Scope(self.protected, nested=findings_for)
        return judged(tool_args.findings(language, rated[1].risk, code, scope), self.deny,
                      rated[1])

    def rating(self, language: str, code: str, effect: Effect | None) -> Assessment:
        """The static rating raised by what the `effect` of a what-if run showed; under
        auto, a `low` that the run has not earned (safety/earned.py) is `medium`, with
        the reason, so a person is asked. A tool's rating stays its own."""
        verdict = self.assess(language, code)
        if effect is not None:
            from assistant.safety.effect_risk import with_effect

            verdict = with_effect(verdict, effect)
        tool = self.tools is not None and self.tools.rating(language) is not None
        if self.mode != "auto" or verdict.risk != "low" or tool:
            return verdict
        from assistant.safety.earned import unearned

        why = unearned(language, code, effect, self.places)
        if not why:
            return verdict
        return Assessment("medium", (*verdict.reasons, f"{UNPROVEN}: not shown harmless, "
                                     f"so it asks: {why}"), (*verdict.families, UNPROVEN))

    def proposal(self, proposal_id: str, language: str, code: str,
                 effect: Effect | None = None) -> Proposal:
        """A proposal carrying its risk, so every front end can show it; with the `effect`
        a what-if run of it showed, rated by that too."""
        verdict = self.rating(language, code, effect)
        rated = self.tools.rating(language) if self.tools is not None else None
        return Proposal(proposal_id, language, code, verdict.risk, verdict.reasons,
                        tool=rated[0] if rated else "", effect=effect)

    def decide(self, proposal: Proposal) -> Approval:
        # Rated here again: a proposal's own `risk` field is for display, never trusted;
        # its effect was made by the loop's what-if run, never by the model.
        verdict = self.rating(proposal.language, proposal.code, proposal.effect)
        if verdict.risk == "blocked":
            return self._no(proposal, "blocked by the deny rules: " + "; ".join(verdict.reasons))
        if self.mode == "never":
            return self._no(proposal, "approval mode is never: code is proposed, not run")
        key = (proposal.language, proposal.code)
        if key in self._always and verdict.risk != "high":
            return Approval(proposal.id, True, self._always[key], proposal.code,
                            reason=f"allowed always in this conversation by the "
                                   f"{self._always[key]}")
        if self.mode == "auto" and verdict.risk == "low":
            return Approval(proposal.id, True, "policy", proposal.code,
                            reason="auto-run is on and the risk is low")
        if self.approver is None:
            return self._no(proposal, _unapproved(verdict))
        answer = self.approver(proposal)
        if isinstance(answer, bool):
            answer = Approval(proposal.id, answer, "caller", proposal.code if answer else "")
        if not answer.approved:
            return Approval(proposal.id, False, answer.decided_by, "", False, answer.reason)
        code = answer.code or proposal.code
        edited = code != proposal.code
        if edited:  # a new proposal: rated in full, whatever the first rating was
            verdict = self.assess(proposal.language, code)
            if verdict.risk == "blocked":
                return self._no(proposal, "the edited code is blocked by the deny rules: "
                                + "; ".join(verdict.reasons))
        if verdict.risk == "high" and answer.decided_by != "user":
            what = "the edited code is high risk and" if edited else "high risk"
            return self._no(proposal, f"{what} needs an explicit approval by the user "
                            f"(this came from the {answer.decided_by})")
        if answer.always and verdict.risk != "high" and not edited:
            self._always[key] = answer.decided_by
        return Approval(proposal.id, True, answer.decided_by, code, answer.always, answer.reason)

    @staticmethod
    def _no(proposal: Proposal, reason: str) -> Approval:
        return Approval(proposal.id, False, "policy", reason=reason)


def _unapproved(verdict: Assessment) -> str:
    """Why a proposal nobody can approve is not run, in one line."""
    if verdict.risk == "low":
        return "no one to approve: pass approver= or turn auto-run on"
    unproven = next((r for r in verdict.reasons if r.startswith(UNPROVEN + ":")), "")
    if unproven:
        return unproven.removeprefix(UNPROVEN + ": ") + "; a person's approval is needed"
    return f"{verdict.risk} risk needs a person's approval"
