"""Speaking text as it streams: sentences queue up and play in order, and stop() silences
everything queued or playing at once (the hotkey pressed while speaking: barge-in).

Time to the first sound is what a listener notices, so the first sentence of an answer
is split after its first clause or first few words (a short piece synthesizes in a
fraction of the time of a whole sentence), and each later piece is synthesized while the
one before it plays, into the same stream: one stream per answer, no gap between
sentences. A cue (the earcon) queues like a sentence and is stopped like one, but it is
not speech: speaking() is false while only a cue plays.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable
from typing import Any

from assistant.voice.player import LATENCY_S, Player
from assistant.voice.sentences import SentenceSplitter, first_piece
from assistant.voice.tts import Engine

LINGER_S = 1.0  # an idle stream stays open this long for the next sentence of an answer
Sound = tuple[Any, int]  # float32 mono audio and its rate


class Speaker:
    """One worker synthesizes queued sentences into the player's stream; safe to feed
    from any thread."""

    def __init__(self, engine: Engine, player: Player,
                 on_error: Callable[[Exception], None] | None = None) -> None:
        self.engine = engine
        self.player = player
        self._on_error = on_error
        self._queue: queue.Queue[tuple[int, str | Sound]] = queue.Queue()
        self._generation = 0
        self._answer_started = False  # a piece of the current answer has been synthesized
        self._idle = threading.Event()
        self._idle.set()
        self._idle_lock = threading.Lock()  # queue-is-empty and idle change together
        self._words = False  # words were queued since the speaker last fell silent
        self._splitter = SentenceSplitter()
        threading.Thread(target=self._work, name="speaker", daemon=True).start()

    @property
    def first_audio_at(self) -> float | None:
        """Monotonic time the first sound went to the speaker."""
        return self.player.first_sound_at

    def say(self, text: str) -> None:
        """Queue text (one or more sentences) to be spoken after what is queued."""
        if text.strip():
            with self._idle_lock:
                self._idle.clear()
                self._words = True
                self._queue.put((self._generation, text))

    def cue(self, audio: Any, rate: int) -> None:
        """Queue a short sound (float32 mono at `rate`) to play after what is queued,
        without delaying it: it needs no synthesis."""
        with self._idle_lock:
            self._idle.clear()
            self._queue.put((self._generation, (audio, rate)))

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
        self._answer_started = False
        with self._idle_lock:
            self._words = False
            self._idle.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything queued has been spoken (or stopped)."""
        return self._idle.wait(timeout)

    def speaking(self) -> bool:
        """Whether words are queued or being spoken. A cue alone is not speech: a press of
        the hotkey during the earcon is no barge-in."""
        with self._idle_lock:
            return self._words and not self._idle.is_set()

    def _work(self) -> None:
        idle_for = 0.0
        while True:
            try:  # once the answer is over and its stream closed, sleep until the next
                generation, item = self._queue.get(timeout=None if idle_for >= LINGER_S
                                                   else 0.05)
            except queue.Empty:
                if self.player.drained:
                    idle_for += 0.05
                    if idle_for >= LINGER_S:
                        self.player.close()
                        self._answer_started = False
                    if idle_for > LATENCY_S:  # the last block has left the speaker too
                        with self._idle_lock:
                            if self._queue.empty():
                                self._words = False
                                self._idle.set()
                continue
            idle_for = 0.0
            try:
                if isinstance(item, str):
                    self._speak(generation, item)
                elif generation == self._generation:
                    self.player.open(item[1])
                    self.player.write(item[0])
            except Exception as exc:
                if self._on_error is not None:
                    self._on_error(exc)

    def _speak(self, generation: int, text: str) -> None:
        pieces = [text]
        if not self._answer_started:
            pieces = first_piece(text)
        for piece in pieces:
            if generation != self._generation:
                return
            audio, rate = self.engine.synthesize(piece)
            if generation != self._generation:
                return
            self._answer_started = True
            self.player.open(rate)
            self.player.write(audio)
