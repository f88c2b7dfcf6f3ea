"""What a spoken answer to a proposal means (approve, decline, or a new instruction), and
the approval it gives.

Only a short, plain answer counts as yes or no: "no, use the other folder" is an
instruction that revises the proposal, not a refusal.
"""

from __future__ import annotations

import re
from typing import Literal

from assistant.events import Approval, Proposal

Meaning = Literal["approve", "decline", "revise", "read"]

# A reply is yes (or no) when every word is one of these and one is a real yes (or no).
APPROVE_WORDS = {"yes", "yeah", "yep", "yup", "ok", "okay", "sure", "go", "ahead", "run", "it",
                 "do", "approve", "approved", "please", "thanks", "thank", "you", "that",
                 "sounds", "good", "fine", "right", "alright"}
APPROVE_ANCHORS = {"yes", "yeah", "yep", "yup", "ok", "okay", "sure", "go", "run", "do",
                   "approve", "approved", "alright"}
DECLINE_WORDS = {"no", "nope", "cancel", "stop", "don't", "dont", "do", "not", "never", "mind",
                 "it", "abort", "please", "thanks", "thank", "you", "that", "run"}
DECLINE_ANCHORS = {"no", "nope", "cancel", "stop", "don't", "dont", "not", "never", "abort"}
# "read the code", "read me the code please": the code itself, aloud, then ask again.
READ_WORDS = {"read", "say", "me", "the", "code", "it", "out", "please", "aloud", "whole",
              "can", "you", "could"}


def classify_answer(text: str) -> Meaning:
    """What a spoken reply to a proposal means; "read" asks for the code aloud."""
    words = set(re.sub(r"[^a-z' ]+", " ", text.lower()).split())
    if words <= READ_WORDS and "code" in words and words & {"read", "say"}:
        return "read"
    if words and words <= APPROVE_WORDS and words & APPROVE_ANCHORS:
        return "approve"
    if words and words <= DECLINE_WORDS and words & DECLINE_ANCHORS:
        return "decline"
    return "revise"


def spoken_approval(proposal: Proposal, text: str, meaning: Meaning) -> Approval:
    """The user's decision on `proposal` from their spoken answer `text`, meaning `meaning`
    (the caller has already made sure a person may approve its risk by voice)."""
    if meaning == "approve":
        return Approval(proposal.id, True, "user", proposal.code, reason="approved by voice")
    if meaning == "decline":
        return Approval(proposal.id, False, "user", reason="the user said no")
    return Approval(proposal.id, False, "user", reason=f"the user wants this instead: {text}")
