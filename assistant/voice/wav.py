"""WAV files and sample rates: everything in the voice package is float32 mono at 16 kHz."""

from __future__ import annotations

import wave
from pathlib import Path
from typing import Any

SAMPLE_RATE = 16000


def resample(audio: Any, rate: int, target: int = SAMPLE_RATE) -> Any:
    """Linear resampling; plenty for speech going into Whisper or out to a speaker."""
    import numpy as np

    if rate == target or len(audio) == 0:
        return audio.astype(np.float32)
    count = round(len(audio) * target / rate)
    positions = np.linspace(0, len(audio) - 1, count)
    return np.interp(positions, np.arange(len(audio)), audio).astype(np.float32)


def read_wav(path: str | Path, rate: int = SAMPLE_RATE) -> Any:
    """A 16-bit PCM WAV as float32 mono at `rate` (channels are averaged)."""
    import numpy as np

    try:
        with wave.open(str(path), "rb") as handle:
            if handle.getsampwidth() != 2:
                raise ValueError(f"{path}: only 16-bit PCM WAV is supported")
            channels = handle.getnchannels()
            source_rate = handle.getframerate()
            frames = handle.readframes(handle.getnframes())
    except (wave.Error, EOFError) as exc:
        raise ValueError(f"{path}: not a readable WAV file ({exc})") from None
    audio = np.frombuffer(frames, dtype="<i2").astype(np.float32) / 32768.0
    if channels > 1:
        audio = audio.reshape(-1, channels).mean(axis=1)
    return resample(audio, source_rate, rate)


def to_int16(audio: Any) -> Any:
    import numpy as np

    return (np.clip(audio, -1.0, 1.0) * 32767).astype("<i2")


def write_wav(path: str | Path, audio: Any, rate: int = SAMPLE_RATE) -> None:
    """Write float32 mono audio as 16-bit PCM."""
    with wave.open(str(path), "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(rate)
        handle.writeframes(to_int16(audio).tobytes())
