"""The earcon: a short soft sound that says "heard you, working on it" as soon as the key
is let go on speech. The first spoken word waits for the model to write a sentence
(seconds with a local model); without a sound meanwhile the user cannot tell a request
heard from one lost.

It is data, a WAV shipped with the package (scripts/make_sounds.py made it), played
through the speaker like speech: the chosen output device, stopped by the hotkey. Its
rate is the voices' own, so it and the answer share one output stream.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from assistant.voice.wav import read_wav

RATE = 22050  # Piper's and espeak-ng's rate
HEARD = Path(__file__).parent / "sounds" / "heard.wav"


@functools.cache
def heard() -> Any:
    """The earcon's samples, float32 mono at RATE, read once."""
    return read_wav(HEARD, RATE)
