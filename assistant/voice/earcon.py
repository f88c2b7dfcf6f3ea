"""The earcon: a short soft sound that says "heard you, working on it" as soon as the key
is let go on speech. The first spoken word waits for the model to write a sentence
(seconds with a local model); without a sound meanwhile the user cannot tell a request
heard from one lost.

It is data, a WAV shipped with the package (scripts/make_sounds.py made it), played
through the speaker like speech: the chosen output device, stopped by the hotkey. Its
rate is the voices' own, so it and the answer share one output stream. It is a sound,
not words: the speaker does not count it as speaking, so a press of the hotkey during it
means what it means in silence. Every spoken front end (the daemon, `assistant voice`)
plays it through `acknowledge`, at the same moment and on the same setting.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Protocol

from assistant.voice.wav import read_wav

RATE = 22050  # Piper's and espeak-ng's rate
HEARD = Path(__file__).parent / "sounds" / "heard.wav"


@functools.cache
def heard() -> Any:
    """The earcon's samples, float32 mono at RATE, read once."""
    return read_wav(HEARD, RATE)


class _Take(Protocol):
    def has_speech(self) -> bool: ...


class _Cues(Protocol):
    def cue(self, audio: Any, rate: int) -> None: ...


def acknowledge(take: _Take, speaker: _Cues | None, enabled: bool) -> bool:
    """The key was let go: play the earcon now when it is on (the `earcon` setting), there
    is a speaker (not --quiet) and the take holds speech, before its transcript is
    finished. Whether it played. A release on silence or noise gets none: no request is
    coming."""
    if not enabled or speaker is None or not take.has_speech():
        return False
    speaker.cue(heard(), RATE)
    return True
