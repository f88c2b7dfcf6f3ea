"""Playing speech so it can be cut off: sounddevice pulls 20 ms blocks from a callback,
and after stop() the stream is aborted, dropping what is buffered, so speech halts at once.
"""

from __future__ import annotations

import threading
from typing import Any

from assistant.voice.recorder import AudioDeviceError, find_device, sounddevice

BLOCK_S = 0.02


class Player:
    """One output stream at a time; stop() may be called from any thread."""

    def __init__(self, device: str | int | None = None) -> None:
        self._device = find_device(device, "output")
        self._stop = threading.Event()

    def play(self, audio: Any, rate: int) -> float:
        """Play float32 mono audio; returns the seconds played (less if stopped)."""
        import numpy as np

        sd = sounddevice()
        self._stop.clear()
        samples = np.asarray(audio, dtype=np.float32).reshape(-1, 1)
        position = 0
        finished = threading.Event()

        def callback(outdata: Any, frames: int, time: Any, status: Any) -> None:
            nonlocal position
            if self._stop.is_set():
                outdata.fill(0)
                raise sd.CallbackAbort
            chunk = samples[position:position + frames]
            outdata[: len(chunk)] = chunk
            outdata[len(chunk):] = 0
            position += len(chunk)
            if len(chunk) < frames:
                raise sd.CallbackStop

        try:
            stream = sd.OutputStream(samplerate=rate, channels=1, dtype="float32",
                                     device=self._device, blocksize=max(1, int(BLOCK_S * rate)),
                                     latency=0.1, callback=callback,
                                     finished_callback=finished.set)
            stream.start()
        except sd.PortAudioError as exc:
            raise AudioDeviceError(f"cannot open the speaker: {exc}") from None
        try:
            while not finished.wait(BLOCK_S):
                if self._stop.is_set():
                    stream.abort()
                    break
        finally:
            stream.close()
        return min(position, len(samples)) / rate

    def stop(self) -> None:
        """Halt playback: the next 20 ms block is silence and the stream is aborted."""
        self._stop.set()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()
