"""When a conversation starts afresh: asked for ("start over", "new conversation", the
tray's item), or after `conversation_idle_minutes` of silence, so the context (and the
wait for a local model reading it) does not grow all day. The old one stays in the
journal, under Recent conversations.
"""

from __future__ import annotations

import re

# A request made only of these words, with one of the phrases, asks for a fresh start.
FRESH_PHRASES = ("start over", "new conversation", "start again", "start afresh",
                 "new chat", "fresh start", "start a new conversation")
FILLER = {"let's", "lets", "please", "ok", "okay", "a", "let", "us", "now", "can", "we",
          "i", "want", "to", "and", "so"}


def asks_fresh_start(text: str) -> bool:
    words = re.sub(r"[^a-z' ]+", " ", text.lower()).split()
    spoken = " ".join(words)
    phrase = next((phrase for phrase in sorted(FRESH_PHRASES, key=len, reverse=True)
                   if phrase in spoken), "")
    return bool(phrase) and set(spoken.replace(phrase, " ").split()) <= FILLER


def idle_note(silent_s: float, idle_minutes: float, started: bool) -> str:
    """What the popup says when this request starts a new conversation after a silence;
    "" when it continues the last one (or none was started, or the limit is 0: never)."""
    if not started or idle_minutes <= 0 or silent_s < idle_minutes * 60:
        return ""
    minutes = silent_s / 60
    since = f"{minutes:.0f} minutes" if minutes >= 2 else f"{silent_s:.0f} s"
    return f"New conversation: {since} since the last request."
