"""What a spoken reply to a proposal means: approve, decline, or a new instruction.

Only a short, plain reply counts as yes or no: "no, use the other folder" is an
instruction that revises the proposal, not a refusal.
"""

from __future__ import annotations

import re
from typing import Literal

Reply = Literal["approve", "decline", "revise"]

# A reply is yes (or no) when every word is one of these and one is a real yes (or no).
APPROVE_WORDS = {"yes", "yeah", "yep", "yup", "ok", "okay", "sure", "go", "ahead", "run", "it",
                 "do", "approve", "approved", "please", "thanks", "thank", "you", "that",
                 "sounds", "good", "fine", "right", "alright"}
APPROVE_ANCHORS = {"yes", "yeah", "yep", "yup", "ok", "okay", "sure", "go", "run", "do",
                   "approve", "approved", "alright"}
DECLINE_WORDS = {"no", "nope", "cancel", "stop", "don't", "dont", "do", "not", "never", "mind",
                 "it", "abort", "please", "thanks", "thank", "you", "that", "run"}
DECLINE_ANCHORS = {"no", "nope", "cancel", "stop", "don't", "dont", "not", "never", "abort"}


def classify_reply(text: str) -> Reply:
    words = set(re.sub(r"[^a-z' ]+", " ", text.lower()).split())
    if words and words <= APPROVE_WORDS and words & APPROVE_ANCHORS:
        return "approve"
    if words and words <= DECLINE_WORDS and words & DECLINE_ANCHORS:
        return "decline"
    return "revise"
