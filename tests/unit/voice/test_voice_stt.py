"""Speech to text on the real tiny.en model, judged by word error rate on generated speech."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.voice.wer import word_error_rate

# Piper's voice is clear: tiny.en gets these nearly word for word.
PIPER_WER_BOUND = 0.15
# espeak-ng is robotic; the bound only says the words mostly survive.
ESPEAK_WER_BOUND = 0.35


def test_word_error_rate_counts_edits_and_ignores_case_and_punctuation() -> None:
    assert word_error_rate("Click the Save button.", "click the save button") == 0
    assert word_error_rate("click the save button", "click save button now") == 0.5
    assert word_error_rate("", "") == 0
    assert word_error_rate("", "words") == 1


@pytest.mark.parametrize("name", ["piper_rename", "piper_click", "piper_disk", "piper_email",
                                  "piper_long", "espeak_weather", "espeak_open"])
def test_speech_fixture_transcribes_within_its_wer_bound(name, speech, transcriber) -> None:
    from assistant.voice.wav import read_wav

    entry = speech[name]
    text = transcriber.transcribe(read_wav(entry["path"]))
    bound = PIPER_WER_BOUND if entry["engine"] == "piper" else ESPEAK_WER_BOUND
    assert word_error_rate(entry["text"], text) <= bound, (entry["text"], text)


@pytest.mark.parametrize("name", ["silence", "noise"])
def test_silence_and_noise_give_empty_text(name, speech, transcriber) -> None:
    from assistant.voice.wav import read_wav

    assert transcriber.transcribe(read_wav(speech[name]["path"])) == ""


def test_takes_shorter_than_the_minimum_are_dropped(speech, transcriber) -> None:
    from assistant.voice.stt import MIN_TAKE_S
    from assistant.voice.wav import SAMPLE_RATE, read_wav

    audio = read_wav(speech["piper_click"]["path"])
    assert transcriber.transcribe(audio[: int(MIN_TAKE_S * SAMPLE_RATE) - 1]) == ""
    take = transcriber.take()
    take.feed(audio[: int(0.2 * SAMPLE_RATE)])
    assert take.finish() == ""


def test_incremental_take_settles_text_while_audio_arrives(speech, transcriber) -> None:
    """The first sentences are final before the take ends, and the whole comes out right."""
    import time

    from assistant.voice.wav import SAMPLE_RATE, read_wav

    entry = speech["piper_long"]
    audio = read_wav(entry["path"])
    take = transcriber.take(step_s=1.0)
    first = 8 * SAMPLE_RATE
    for start in range(0, first, SAMPLE_RATE // 2):
        take.feed(audio[start:start + SAMPLE_RATE // 2])
    deadline = time.monotonic() + 30
    while not take.settled and time.monotonic() < deadline:
        time.sleep(0.05)
    assert take.settled.lower().startswith("please list every photo"), take.settled
    take.feed(audio[first:])
    text = take.finish()
    assert take.seconds == pytest.approx(len(audio) / SAMPLE_RATE)
    assert word_error_rate(entry["text"], text) <= PIPER_WER_BOUND, text


def test_transcribe_command_prints_json(speech) -> None:
    path = speech["piper_disk"]["path"]
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "transcribe", str(path),
                           "--json"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert word_error_rate(speech["piper_disk"]["text"], result["text"]) <= PIPER_WER_BOUND
    assert result["audio_seconds"] == pytest.approx(speech["piper_disk"]["seconds"], abs=0.01)
    assert 0 < result["seconds"] < 60


def test_transcribe_command_explains_bad_input(tmp_path) -> None:
    bad = tmp_path / "notes.wav"
    bad.write_text("not audio")
    for target in (bad, tmp_path / "missing.wav"):
        done = subprocess.run([sys.executable, "-m", "assistant.cli", "transcribe", str(target)],
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 1
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert str(target) in done.stderr


def test_unknown_local_model_folder_is_one_clear_error(tmp_path) -> None:
    from assistant.voice.stt import ModelError, model_source

    with pytest.raises(ModelError, match=r"no model\.bin"):
        model_source(str(tmp_path))


def feed_paced(take, audio, speed: float = 3.0) -> None:
    """Feed 50 ms blocks at `speed` times real time, as a microphone would (only faster)."""
    import time

    block = 800
    start = time.monotonic()
    for index, offset in enumerate(range(0, len(audio), block)):
        take.feed(audio[offset:offset + block])
        time.sleep(max(0.0, start + (index + 1) * 0.05 / speed - time.monotonic()))


def test_take_cut_at_pauses_says_what_one_whole_pass_says(speech, transcriber) -> None:
    """Two requests in one take: pieces are decoded while it is held (at the pauses), and
    the joined pieces match a single decode of the whole audio and the script."""
    import numpy as np

    from assistant.voice.wav import read_wav

    names = ["piper_rename", "piper_email", "piper_disk"]
    audio = np.concatenate([read_wav(speech[name]["path"]) for name in names])
    script = " ".join(speech[name]["text"] for name in names)
    take = transcriber.take()
    feed_paced(take, audio)
    settled = take.settled
    text = take.finish()
    assert len(settled.split()) >= 10, settled  # most of it was final before release
    assert text.startswith(settled)
    assert word_error_rate(transcriber.transcribe(audio), text) <= 0.1, text
    assert word_error_rate(script, text) <= PIPER_WER_BOUND, text


def test_take_of_silence_and_noise_is_empty(speech, transcriber) -> None:
    import numpy as np

    from assistant.voice.wav import read_wav

    audio = np.concatenate([read_wav(speech["silence"]["path"]),
                            read_wav(speech["noise"]["path"])])
    take = transcriber.take()
    feed_paced(take, audio)
    assert take.finish() == ""


def test_cut_point_takes_the_latest_pause_after_a_long_enough_piece() -> None:
    import numpy as np

    from assistant.voice.stt import MAX_PIECE_S, cut_point

    rate = 16000
    audio = np.zeros(4 * rate, dtype=np.float32)
    # Pauses at 0.5 s (too early for a piece) and 2.0-2.4 s; speech runs to the end.
    spans = [(0, int(0.45 * rate)), (int(0.6 * rate), 2 * rate), (int(2.4 * rate), 4 * rate)]
    assert cut_point(audio, spans) == int(2.2 * rate)
    # Speech that stops: cut in the trailing pause.
    assert cut_point(audio, [(0, 3 * rate)]) == int(3.5 * rate)
    # No pause yet: keep listening, until the piece gets too long.
    assert cut_point(audio, [(0, 4 * rate)]) is None
    long = np.ones(int(MAX_PIECE_S + 1) * rate, dtype=np.float32)
    quiet = len(long) - int(1.5 * rate)
    long[quiet:quiet + 320] = 0
    cut = cut_point(long, [(0, len(long))])
    assert cut is not None and abs(cut - quiet) <= 320
    # Nothing but silence or noise: drop it without decoding.
    assert cut_point(audio, []) >= 3 * rate



def test_named_model_offline_is_one_clear_line(tmp_path, speech) -> None:
    """base.en is not cached (an empty hub cache) and the network is unreachable."""
    import os

    env = {**os.environ, "HF_HOME": str(tmp_path), "HF_HUB_OFFLINE": "1",
           "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9"}
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "transcribe",
                           str(speech["piper_click"]["path"]), "--model", "base.en"],
                          capture_output=True, text=True, timeout=120, check=False, env=env)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "assistant: speech model 'base.en' is not on this machine and cannot be downloaded "
        "now (offline); connect once to download it, or use tiny.en (built in) or a local "
        "model folder (see models/README.md)"], done.stderr


@pytest.mark.parametrize("name", ["piper_click", "piper_long"])
def test_a_take_of_speech_has_speech_before_its_text_is_decoded(name, speech,
                                                                 transcriber) -> None:
    """What the earcon waits for: known at release, whatever the pieces decoded so far."""
    from assistant.voice.wav import read_wav

    take = transcriber.take()
    feed_paced(take, read_wav(speech[name]["path"]))
    assert take.has_speech()
    assert take.finish()


@pytest.mark.parametrize("name", ["silence", "noise"])
def test_a_take_of_silence_or_noise_has_no_speech(name, speech, transcriber) -> None:
    from assistant.voice.wav import read_wav

    take = transcriber.take()
    take.feed(read_wav(speech[name]["path"]))
    assert not take.has_speech()
    assert take.finish() == ""


def test_a_take_too_short_has_no_speech(speech, transcriber) -> None:
    from assistant.voice.wav import SAMPLE_RATE, read_wav

    take = transcriber.take()
    take.feed(read_wav(speech["piper_click"]["path"])[: int(0.2 * SAMPLE_RATE)])
    assert not take.has_speech()


def test_a_resting_model_gives_its_memory_back_and_hears_the_same_after(speech) -> None:
    """The idle daemon rests its speech model (keep_alive): the memory goes back to the
    system, and the next take, which loads it again, hears what the first one heard."""
    from assistant.daemon import memory
    from assistant.voice.stt import Transcriber
    from assistant.voice.wav import read_wav

    def resident_mb() -> float:
        status = Path("/proc/self/status").read_text()
        return next(int(line.split()[1]) for line in status.splitlines()
                    if line.startswith("VmRSS:")) / 1024

    audio = read_wav(speech["piper_disk"]["path"])
    model = Transcriber()
    heard = model.transcribe(audio)
    memory.trim()
    loaded = resident_mb()
    model.rest()
    memory.trim()
    assert loaded - resident_mb() >= 30  # tiny.en and the voice-activity filter: ~100 MB
    assert model.transcribe(audio) == heard and heard
