"""Playing speech so it can be cut off: one output stream per answer, fed with audio as it
is synthesized, and aborted on stop(), dropping what is buffered, so speech halts at once.

A Speaker opens one stream when an answer starts, writes each sentence into it as soon
as it is synthesized, and closes it when the answer has been played: sentences follow
each other without the gap (and the risk of a stalled start) of a stream per sentence.
"""

from __future__ import annotations

import collections
import threading
import time
from typing import Any

from assistant.voice.recorder import AudioDeviceError, find_device, sounddevice

BLOCK_S = 0.02
# Through PulseAudio (ALSA's pulse plugin) streams asking for less than this, or for
# "low", stall after a few callbacks and are heard a second or more late.
LATENCY_S = 0.1


class Player:
    """One output stream at a time; stop() may be called from any thread."""

    def __init__(self, device: str | int | None = None) -> None:
        self._device = find_device(device, "output")
        self._stop = threading.Event()
        self._lock = threading.Lock()  # the queue and the stream, shared with the callback
        self._opening = threading.Lock()  # one open() at a time
        self._queue: collections.deque[Any] = collections.deque()
        self._offset = 0  # samples of the queue's first array already played
        self._stream: Any = None
        self._rate = 0
        self._played = 0
        self._drained = threading.Event()
        self._drained.set()
        self.first_sound_at: float | None = None  # monotonic time of the first audio block
        self.opened = 0  # streams opened so far

    def open(self, rate: int) -> None:
        """Make sure a started stream at `rate` is open (and the last stop() forgotten)."""
        sd = sounddevice()
        with self._opening:
            with self._lock:
                self._stop.clear()
                if self._stream is not None and self._rate == rate:
                    return
            self.close()
            try:
                stream = sd.OutputStream(samplerate=rate, channels=1, dtype="float32",
                                         device=self._device, blocksize=int(BLOCK_S * rate),
                                         latency=LATENCY_S, callback=self._callback)
                stream.start()
            except sd.PortAudioError as exc:
                raise AudioDeviceError(f"cannot open the speaker: {exc}") from None
            with self._lock:
                self._stream, self._rate = stream, rate
                self.opened += 1

    def write(self, audio: Any) -> None:
        """Queue float32 mono audio at the open stream's rate; returns at once."""
        import numpy as np

        samples = np.asarray(audio, dtype=np.float32).reshape(-1)
        if not len(samples):
            return
        with self._lock:
            if self._stop.is_set() or self._stream is None:
                return
            self._queue.append(samples)
            self._drained.clear()

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until everything written has gone to the device (or was stopped)."""
        return self._drained.wait(timeout)

    @property
    def drained(self) -> bool:
        return self._drained.is_set()

    def close(self) -> None:
        """Close the stream (what is still queued is dropped: drain() first to hear it)."""
        with self._lock:
            stream, self._stream = self._stream, None
            self._queue.clear()
            self._offset = 0  # of the dropped first array: the next one starts at its start
            self._drained.set()
        if stream is not None:
            stream.abort()
            stream.close()

    def play(self, audio: Any, rate: int) -> float:
        """Play float32 mono audio to the end; returns the seconds played (less if stopped)."""
        self.open(rate)
        with self._lock:
            self._played = 0
        self.write(audio)
        while not self.drain(BLOCK_S) and not self._stop.is_set():
            pass
        time.sleep(0 if self._stop.is_set() else self._stream_latency())
        played = self._played
        self.close()
        return played / rate

    def _stream_latency(self) -> float:
        stream = self._stream
        return float(stream.latency) if stream is not None else 0.0

    def stop(self) -> None:
        """Halt playback now: the stream is aborted, dropping what the device buffered."""
        self._stop.set()
        self.close()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def _callback(self, outdata: Any, frames: int, time_info: Any, status: Any) -> None:
        written = 0
        with self._lock:
            while written < frames and self._queue and not self._stop.is_set():
                head = self._queue[0]
                count = min(frames - written, len(head) - self._offset)
                outdata[written:written + count, 0] = head[self._offset:self._offset + count]
                written += count
                self._offset += count
                if self._offset == len(head):
                    self._queue.popleft()
                    self._offset = 0
            self._played += written
            if written and self.first_sound_at is None:
                self.first_sound_at = time.monotonic()
            if not self._queue:
                self._drained.set()
        outdata[written:] = 0
