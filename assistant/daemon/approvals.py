"""The daemon's one approver: every human channel can answer, the first answer wins.

A proposal is spoken and shown in the popup at once; the popup's Run / Edit / Cancel, the
tray's "Run pending" / "Cancel pending" and a spoken reply all end in the popup (clicks
directly, the others through `Popup.resolve`), which answers each proposal once and
ignores later answers for it. Nothing decides on a timeout. A spoken yes does not approve
high-risk code unless `voice_approves_high_risk` is set: the popup or the tray must.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from assistant.choices import SpeakProposals
from assistant.daemon.parts import PopupLike
from assistant.events import Approval, Proposal
from assistant.voice.approval import classify_answer, spoken_approval
from assistant.voice.brief import plan_of
from assistant.voice.speakable import code_words, effect_words, spoken_code

HIGH_RISK_BY_VOICE = ("This is high risk: click Run in the popup, or pick Run pending in the "
                      "tray menu.")


class Approvals:
    """Called by the policy on the session thread; answered from any thread."""

    def __init__(self, popup: PopupLike, say: Callable[[str], None], *,
                 speak_mode: SpeakProposals = "code", voice_approves_high_risk: bool = False,
                 on_change: Callable[[Proposal | None, str], None] | None = None) -> None:
        self.popup = popup
        self.say = say
        self.speak_mode = speak_mode
        self.voice_approves_high_risk = voice_approves_high_risk
        self.plan = ""  # the LLM's words before the proposal: their first sentence is its plan
        self.speak_plan = True  # False when the plan was already spoken as it streamed
        self._on_change = on_change or (lambda proposal, summary: None)
        self._lock = threading.Lock()
        self._pending: Proposal | None = None
        self.summary = ""

    @property
    def pending(self) -> Proposal | None:
        return self._pending

    def __call__(self, proposal: Proposal) -> Approval:
        """Speak the proposal, show it, and wait for the first human answer.

        The header (and the tray's item) is the previewed effect's sentence; without one,
        the plan, plain, or else what the code does. Spoken: the effect's sentence (the
        plan is the model's claim, never read as what will happen); without one the plan,
        unless it was heard as it streamed; then the code only when it is one short line."""
        plan = plan_of(self.plan)
        effect = proposal.effect if proposal.effect and proposal.effect.summary else None
        said = code_words(proposal.language, proposal.code, self.speak_mode,
                          planned=bool(plan or effect))
        summary = effect.summary if effect else plan or said
        with self._lock:
            self._pending, self.summary = proposal, summary
        self._on_change(proposal, summary)
        spoken = [plan] if plan and self.speak_plan and (not effect or effect.harmless) else []
        spoken += [effect_words(effect)] if effect else []
        self.say(" ".join([*spoken, *([said] if said else []), "Shall I run it?"]))
        try:
            return self.popup.approve(proposal, plan or said)  # under an effect, its claim
        finally:
            with self._lock:
                if self._pending is proposal:
                    self._pending, self.summary = None, ""
            self._on_change(None, "")

    def answer(self, approved: bool, channel: str) -> bool:
        """Run or cancel the pending proposal from `channel` (the tray); False if none."""
        proposal = self._pending
        if proposal is None:
            return False
        verb = "approved" if approved else "cancelled"
        self.popup.resolve(Approval(proposal.id, approved, "user",
                                    proposal.code if approved else "",
                                    reason=f"{verb} from the {channel}"))
        return True

    def voice_reply(self, text: str) -> str:
        """A spoken reply to the pending proposal: approve, decline or revise it.

        Returns what it meant ("approve", "decline", "revise", "read": the code was read
        out), "confirm" when high-risk code needs a click instead, or "" when nothing was
        pending.
        """
        proposal = self._pending
        if proposal is None:
            return ""
        meaning = classify_answer(text)
        if meaning == "read":
            self.say(f"{spoken_code(proposal.language, proposal.code)}. Shall I run it?")
            return meaning
        if meaning == "approve" and proposal.risk == "high" and not self.voice_approves_high_risk:
            self.say(HIGH_RISK_BY_VOICE)
            return "confirm"
        self.popup.resolve(spoken_approval(proposal, text, meaning))
        return meaning
