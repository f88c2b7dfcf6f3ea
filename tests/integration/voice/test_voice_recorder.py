"""The microphone for real: PulseAudio's pipe source, fed at real-time pace, read through
PortAudio by sounddevice, then transcribed by the real model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assistant.voice.wer import word_error_rate
from tests.support.require import require


def wait_until_fed(pulse, extra_s: float = 0.4) -> None:
    deadline = time.monotonic() + 60
    while not pulse.mic_idle() and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(extra_s)


def test_devices_lists_the_pulse_devices(pulse) -> None:
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "devices", "--json"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    names = {d["name"]: d for d in json.loads(done.stdout)}
    assert names["pulse"]["inputs"] > 0 and names["pulse"]["outputs"] > 0


def test_recorded_speech_is_transcribed(pulse, speech, transcriber) -> None:
    from assistant.voice.recorder import Recorder
    from assistant.voice.wav import SAMPLE_RATE, read_wav

    entry = speech["piper_email"]  # a long sentence: robust to where the take starts
    recorder = Recorder("pulse")
    recorder.start()
    started = time.monotonic()
    pulse.play_into_mic(read_wav(entry["path"]))
    wait_until_fed(pulse)
    audio = recorder.stop()
    elapsed = time.monotonic() - started
    # The feeder paces by the wall clock and catches up in a burst after a stall on a busy
    # machine, so the take may hold that backlog too: bound it by what could have been fed.
    assert entry["seconds"] <= len(audio) / SAMPLE_RATE <= entry["seconds"] + elapsed + 2.0
    assert word_error_rate(entry["text"], transcriber.transcribe(audio)) <= 0.15


def test_take_fed_from_the_microphone_is_ready_at_release(pulse, speech, transcriber) -> None:
    from assistant.voice.recorder import Recorder
    from assistant.voice.wav import read_wav

    entry = speech["piper_long"]
    take = transcriber.take()
    recorder = Recorder("pulse")
    recorder.start(take.feed)
    pulse.play_into_mic(read_wav(entry["path"]))
    wait_until_fed(pulse)
    recorder.stop()
    assert take.settled, "no text was settled while the audio arrived"
    assert word_error_rate(entry["text"], take.finish()) <= 0.15


def test_device_by_index_and_unknown_name(pulse) -> None:
    from assistant.voice.recorder import AudioDeviceError, find_device, list_devices

    pulse_index = next(d["index"] for d in list_devices() if d["name"] == "pulse")
    assert find_device(str(pulse_index)) == pulse_index
    assert find_device("PULSE") == pulse_index
    with pytest.raises(AudioDeviceError, match=r"no input device matches 'nonesuch'.*pulse"):
        find_device("nonesuch")


def test_no_input_device_is_one_line_naming_the_fix(tmp_path: Path) -> None:
    cards = Path("/proc/asound/cards")
    require(not cards.exists() or "no soundcards" in cards.read_text(),
            "this machine has a sound card, so 'no input device' cannot be shown")
    env = {**os.environ, "PULSE_SERVER": f"unix:{tmp_path / 'none'}", "HOME": str(tmp_path)}
    code = "from assistant.voice.recorder import Recorder\nRecorder()"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=60, check=False)
    assert "no audio input device found" in done.stderr
    assert "assistant devices" in done.stderr
