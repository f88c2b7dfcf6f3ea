"""A voice made on demand: dropping it gives its memory back, the next sentence makes it
again, and a voice that cannot be made is a TTSError at once (real Piper)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from assistant.voice.tts import OnDemand, TTSError, make_engine

PROGRAM = """
import gc
from assistant.daemon import memory
from assistant.voice.tts import OnDemand, make_engine

def rss():
    return next(int(line.split()[1]) for line in open("/proc/self/status")
                if line.startswith("VmRSS")) // 1024

memory.limit_arenas()
voice = OnDemand(lambda: make_engine("piper"))
voice.synthesize("Ready to go: this sentence is long enough to use the whole voice.")
memory.trim()
loaded = rss()
voice.rest()
gc.collect()
memory.trim()
rested = rss()
audio, rate = voice.synthesize("Back again.")
print(voice.name, loaded, rested, len(audio) / rate)
"""


def test_a_rested_voice_gives_its_memory_back_and_speaks_again() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                          timeout=300, check=True)
    name, loaded, rested, seconds = done.stdout.split()
    assert name == "piper"
    assert int(loaded) - int(rested) >= 40, (loaded, rested)  # about 70 MB here
    assert float(seconds) > 0.3


def test_a_voice_that_cannot_be_made_fails_at_once(tmp_path) -> None:
    with pytest.raises(TTSError, match="not found"):
        OnDemand(lambda: make_engine("piper", str(tmp_path / "missing.onnx")))
