"""Speaking text as it streams: sentences queue up and play in order, and stop() silences
everything queued or playing at once (the hotkey pressed while speaking: barge-in)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable

from assistant.voice.player import Player
from assistant.voice.sentences import SentenceSplitter
from assistant.voice.tts import Engine


class Speaker:
    """One worker synthesizes and plays queued sentences; safe to feed from any thread."""

    def __init__(self, engine: Engine, player: Player,
                 on_error: Callable[[Exception], None] | None = None) -> None:
        self.engine = engine
        self.player = player
        self._on_error = on_error
        self._queue: queue.Queue[tuple[int, str]] = queue.Queue()
        self._generation = 0
        self._busy = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._splitter = SentenceSplitter()
        self.first_audio_at: float | None = None  # monotonic time the first sound started
        threading.Thread(target=self._work, name="speaker", daemon=True).start()

    def say(self, text: str) -> None:
        """Queue text (one or more sentences) to be spoken after what is queued."""
        if text.strip():
            self._idle.clear()
            self._queue.put((self._generation, text))

    def feed(self, delta: str) -> None:
        """Streamed text (TextDelta pieces): each sentence is spoken as soon as it is complete."""
        for sentence in self._splitter.feed(delta):
            self.say(sentence)

    def end_of_text(self) -> None:
        """The stream is over: speak what is left of the last sentence."""
        for sentence in self._splitter.flush():
            self.say(sentence)

    def speak_stream(self, pieces: Iterable[str]) -> None:
        for piece in pieces:
            self.feed(piece)
        self.end_of_text()

    def stop(self) -> None:
        """Silence now and forget everything queued."""
        self._generation += 1
        self._splitter = SentenceSplitter()
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        self.player.stop()
        if not self._busy.is_set():
            self._idle.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything queued has been spoken (or stopped)."""
        return self._idle.wait(timeout)

    def _work(self) -> None:
        while True:
            generation, text = self._queue.get()
            self._busy.set()
            try:
                if generation == self._generation:
                    audio, rate = self.engine.synthesize(text)
                    if generation == self._generation:
                        if self.first_audio_at is None:
                            self.first_audio_at = time.monotonic()
                        self.player.play(audio, rate)
            except Exception as exc:
                if self._on_error is not None:
                    self._on_error(exc)
            finally:
                self._busy.clear()
                if self._queue.empty():
                    self._idle.set()
