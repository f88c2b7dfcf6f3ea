"""The speech-to-text figures.

Accuracy is measured on two generated parts: the tuning part (scripts/stt_tune.py), on which
decoding choices were tried, and the test part (scripts/stt_heldout.py), written apart from this
code and never tuned on, which decides them. Word error rates are means over the takes
of kind command and screen; silence takes count the words heard in them. The voice
fixtures (scripts/make_fixtures.py) time release-to-text and the real-time factor.
"""

from __future__ import annotations

import functools
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from benchmarks.bench.base import Bench, NotMeasurable, median_time
from benchmarks.venv import ROOT

CACHE = ROOT / ".venv" / "cache"
PARTS = {"tune": "stt_tune.py", "test": "stt_heldout.py"}
SPOKEN = ("command", "screen")  # the kinds the English word error rate is taken over


def generate(script: str, out: Any) -> None:
    """Run a generator script (a no-op when its output is current); NotMeasurable if it fails."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / script), "--out", str(out)],
                          capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0:
        raise NotMeasurable(f"{script} failed: {done.stderr.strip()[-300:]}")


@functools.cache
def voice_fixtures() -> tuple[Any, dict[str, Any]]:
    """The warmed default Whisper model and the speech fixtures (made by make_fixtures.py)."""
    from assistant.voice.stt import Transcriber
    from assistant.voice.wav import read_wav

    out = CACHE / "voice-fixtures"
    generate("make_fixtures.py", out)
    manifest = json.loads((out / "manifest.json").read_text())["fixtures"]
    for name, entry in manifest.items():
        entry["audio"] = read_wav(out / f"{name}.wav")
    transcriber = Transcriber()
    transcriber.load()
    return transcriber, manifest


@functools.cache
def part(name: str) -> list[dict[str, Any]]:
    """The takes of the tuning or the test part, each with its audio."""
    from assistant.voice.wav import read_wav

    out = CACHE / f"stt-{name}"
    generate(PARTS[name], out)
    takes = json.loads((out / "manifest.json").read_text())["takes"]
    for take in takes:
        take["audio"] = read_wav(out / take["file"])
    return list(takes)


def naive_text(model: Any, audio: Any) -> str:
    """What faster-whisper's transcribe() gives with its defaults (beam 5, 30 s window,
    temperature fallback, no voice-activity filter)."""
    return " ".join(segment.text.strip() for segment in model.transcribe(audio)[0])


def mean_wer(takes: list[dict[str, Any]], hear: Callable[[dict[str, Any]], str],
             kinds: tuple[str, ...] = SPOKEN) -> float:
    """Mean word error rate of `hear` (a take to its text) over the takes of `kinds`."""
    from assistant.voice.wer import word_error_rate

    return statistics.mean(word_error_rate(take["text"], hear(take))
                           for take in takes if take["kind"] in kinds)


def plain(take: dict[str, Any]) -> str:
    """The default transcript of a take, as a user without screen words gets it."""
    transcriber, _ = voice_fixtures()
    return str(transcriber.transcribe(take["audio"]))


def biased(take: dict[str, Any]) -> str:
    """The transcript of a take given the words its screen shows."""
    from assistant.voice.hints import prompt

    transcriber, _ = voice_fixtures()
    return str(transcriber.transcribe(take["audio"], hints=prompt(take.get("context") or [])))


@functools.cache
def part_wer(name: str) -> float:
    return mean_wer(part(name), plain)


def stt_wer_test(bench: Bench) -> float:
    return part_wer("test")


def stt_wer_test_vs_naive(bench: Bench) -> float:
    """stt_wer_test over the word error rate of a naive tiny.en run on the same takes."""
    from assistant.voice.stt import Transcriber

    naive = Transcriber("tiny.en", "en")
    naive.load()
    theirs = mean_wer(part("test"), lambda take: naive_text(naive.model, take["audio"]))
    return part_wer("test") / theirs if theirs else 0.0


def stt_wer_tune(bench: Bench) -> float:
    return part_wer("tune")


def stt_wer_biased(bench: Bench) -> float:
    """The test part's screen takes, each decoded with the words its screen shows
    (stt_wer_test takes them without)."""
    return mean_wer(part("test"), biased, ("screen",))


def stt_hint_cost_pct(bench: Bench) -> float:
    """How much longer the test part's screen takes decode with the words their screen
    shows than without, in percent of the median time (each take both ways in turn, three
    rounds): what hinting costs a take."""
    from assistant.voice.hints import prompt

    transcriber, _ = voice_fixtures()
    screen = [take for take in part("test") if take["kind"] == "screen"]
    plain_s: list[float] = []
    hinted_s: list[float] = []
    for take in screen * 3:
        for times, hints in ((plain_s, ""), (hinted_s, prompt(take.get("context") or []))):
            start = time.perf_counter()
            transcriber.transcribe(take["audio"], hints=hints)
            times.append(time.perf_counter() - start)
    return 100 * (statistics.median(hinted_s) / statistics.median(plain_s) - 1)


def stt_silence_words(bench: Bench) -> float:
    """Words heard in the silence takes of both parts and the silence and noise fixtures
    (Whisper alone invents some)."""
    transcriber, fixtures = voice_fixtures()
    quiet = [e["audio"] for e in fixtures.values() if not e["text"]] + [
        take["audio"] for name in PARTS for take in part(name) if take["kind"] == "silence"]
    return float(sum(len(transcriber.transcribe(audio).split()) for audio in quiet))


def release_to_text_ms(bench: Bench, seconds: int, transcriber: Any = None) -> float:
    """A take of `seconds` of speech fed in 50 ms blocks at real-time pace, as while the key
    is held; the figure is the time from release to the whole transcript (by the default
    model, or `transcriber`)."""
    import numpy as np

    default, fixtures = voice_fixtures()
    transcriber = transcriber or default
    speech = [e["audio"] for e in fixtures.values() if e["engine"] == "piper"]
    audio = np.concatenate(speech * (1 + seconds // 5))[: seconds * 16000]
    block = 800

    def once() -> float:
        take = transcriber.take()
        start = time.monotonic()
        for index, offset in enumerate(range(0, len(audio), block)):
            take.feed(audio[offset:offset + block])
            time.sleep(max(0.0, start + (index + 1) * 0.05 - time.monotonic()))
        released = time.perf_counter()
        if not take.finish():
            raise RuntimeError("the take gave no text")
        return time.perf_counter() - released

    return 1000 * statistics.median(once() for _ in range(bench.reps(5, 1)))


def stt_release_to_text_ms_2s(bench: Bench) -> float:
    return release_to_text_ms(bench, 2)


def stt_release_to_text_ms_5s(bench: Bench) -> float:
    return release_to_text_ms(bench, 5)


def stt_release_to_text_ms_10s(bench: Bench) -> float:
    return release_to_text_ms(bench, 10)


def stt_rtf(bench: Bench) -> float:
    """Decode time over audio time for the longest fixture, transcribed whole (under 1 is
    faster than speech)."""
    transcriber, fixtures = voice_fixtures()
    audio = fixtures["piper_long"]["audio"]
    return median_time(lambda: transcriber.transcribe(audio), bench.reps(5, 1)) / (
        len(audio) / 16000)
