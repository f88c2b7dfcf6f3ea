"""When a conversation starts afresh: asked for ("start over", "new conversation", the
tray's item), or after `conversation_idle_minutes` of silence, so the context (and the
wait for a local model reading it) does not grow all day. The old one stays in the
journal, under Recent conversations.

Also the other spoken command that is no request for the model: "undo that" puts back
what the latest run changed, as the tray's "Undo last run" does.
"""

from __future__ import annotations

import re

# A request made only of these words, with one of the phrases, asks for a fresh start.
FRESH_PHRASES = ("start over", "new conversation", "start again", "start afresh",
                 "new chat", "fresh start", "start a new conversation")
FILLER = {"let's", "lets", "please", "ok", "okay", "a", "let", "us", "now", "can", "we",
          "i", "want", "to", "and", "so"}


UNDO_PHRASES = ("undo that", "undo the last run", "undo the last change", "undo it",
                "undo what you did", "undo", "take that back", "put it back")


def asks_fresh_start(text: str) -> bool:
    return _asks(text, FRESH_PHRASES)


def asks_undo(text: str) -> bool:
    """Whether `text` is only a request to undo the latest run ("undo that, please");
    "undo the rename in my notes" is a request for the model."""
    return _asks(text, UNDO_PHRASES)


def _asks(text: str, phrases: tuple[str, ...]) -> bool:
    words = re.sub(r"[^a-z' ]+", " ", text.lower()).split()
    spoken = " ".join(words)
    phrase = next((phrase for phrase in sorted(phrases, key=len, reverse=True)
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
