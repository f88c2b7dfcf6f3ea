#!/usr/bin/env python3
"""Make the sounds the voice plays besides speech (assistant/voice/sounds/*.wav).

    .venv/bin/python scripts/make_sounds.py

The WAVs are committed and shipped as package data: the daemon only reads them. This
script is how they were made, so a change to a sound is a change here, run once.

heard.wav, the earcon for "heard you, working on it": two soft notes a fifth apart,
rising (E5 then B5), each a sine with a quiet octave that fades like a struck bar; 0.16 s
in all, peak at -12 dBFS, starting and ending at zero so it never clicks. It is made at
22050 Hz, the rate of the voices (Piper, espeak-ng), so it joins speech's output stream.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from assistant.voice.earcon import HEARD, RATE
from assistant.voice.wav import write_wav

PEAK = 0.25  # -12 dBFS: heard, never startling, and well under speech
NOTES = ((659.25, 0.0), (987.77, 0.055))  # (Hz, start s): E5, then B5
NOTE_S = 0.105
ATTACK_S = 0.006
LENGTH_S = 0.16


def note(frequency: float) -> np.ndarray:
    """One soft struck note: a quick raised-cosine attack, then an exponential fade that
    ends in a short cosine taper to exact silence."""
    t = np.arange(int(NOTE_S * RATE)) / RATE
    tone = np.sin(2 * np.pi * frequency * t) + 0.15 * np.sin(4 * np.pi * frequency * t)
    attack = int(ATTACK_S * RATE)
    envelope = np.exp(-t / 0.035)
    envelope[:attack] *= 0.5 - 0.5 * np.cos(np.pi * np.arange(attack) / attack)
    taper = int(0.02 * RATE)
    envelope[-taper:] *= 0.5 + 0.5 * np.cos(np.pi * np.arange(taper) / taper)
    return tone * envelope


def heard() -> np.ndarray:
    audio = np.zeros(int(LENGTH_S * RATE))
    for frequency, start in NOTES:
        tone = note(frequency)
        at = int(start * RATE)
        audio[at:at + len(tone)] += tone
    return (PEAK * audio / np.abs(audio).max()).astype(np.float32)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.parse_args()
    write_wav(Path(str(HEARD)), heard(), RATE)
    print(f"wrote {HEARD}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
