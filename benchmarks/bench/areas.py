"""The figures of the safety, desktop, offline and speech parts."""

from __future__ import annotations

import functools
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench.base import Bench, NotMeasurable, median_time
from benchmarks.venv import ROOT

RISK_SNIPPET = """
import os, shutil, subprocess, json
from pathlib import Path
notes = Path.home() / "notes"
for path in sorted(notes.glob("*.md")):
    text = path.read_text()
    (notes / "index.json").write_text(json.dumps({"n": len(text)}))
print(subprocess.run(["git", "status", "--short"], capture_output=True, text=True).stdout)
shutil.copy(notes / "a.md", "/tmp/a.md")
os.system("ls -la ~/notes | sort | head -20 && du -sh ~/notes")
""" * 4


def risk_check_ms(bench: Bench) -> float:
    """The static risk check on a 40-line Python snippet with shell inside: paid per proposal."""
    from assistant.safety.risk import assess

    return 1000 * median_time(lambda: assess(RISK_SNIPPET, "python"), bench.reps(50, 10))


def risk_corpus() -> tuple[float, float]:
    """Recall on the dangerous part of the labelled corpus, false alarms on the everyday part."""
    from assistant.safety.risk import assess
    from assistant.tomlread import tomllib

    folder = ROOT / "tests" / "unit" / "safety"
    dangerous = tomllib.loads((folder / "risk_corpus_dangerous.toml").read_text())["snippet"]
    benign = tomllib.loads((folder / "risk_corpus_benign.toml").read_text())["snippet"]
    caught = sum(1 for s in dangerous if (v := assess(s["code"], s["language"])).risk
                 in ("high", "blocked") and s["family"] in v.families)
    alarms = sum(1 for s in benign if assess(s["code"], s["language"]).risk != "low")
    return caught / len(dangerous), 100 * alarms / len(benign)


def risk_recall(bench: Bench) -> float:
    return risk_corpus()[0]


def risk_false_alarm_pct(bench: Bench) -> float:
    return risk_corpus()[1]


_DESKTOP: list[Any] = []  # one ExitStack holding the Xvfb all desktop figures share


def desktop_display() -> str:
    """Start (once) the Xvfb the desktop figures share: pyautogui binds to the first display."""
    import atexit
    from contextlib import ExitStack

    from tests.support.display import xvfb

    if not _DESKTOP:
        stack = ExitStack()
        atexit.register(stack.close)
        os.environ["DISPLAY"] = stack.enter_context(xvfb())
        _DESKTOP.append(stack)
    return os.environ["DISPLAY"]


def click_text_ms(bench: Bench, layout: str, target: str) -> float:
    """Click a text on a screen never seen (OCR caches emptied; models already loaded)."""
    from assistant.computer import mouse, ocr
    from tests.support.tk_app import TkApp

    desktop_display()
    with (tempfile.TemporaryDirectory() as folder,
          TkApp(Path(folder) / "events.jsonl", layout=layout) as app):
        times = []
        for _ in range(1 + bench.reps(7, 3)):  # the first one warms up
            ocr.forget()
            start = app.mark()
            began = time.perf_counter()
            mouse.click(target)
            times.append(time.perf_counter() - began)
            app.wait_for(lambda r: r["event"] == "click" and r["widget"] == target,
                         after=start)  # checked, not timed: the window logs when it can
        return 1000 * statistics.median(times[1:])


def screenshot_ms(bench: Bench) -> float:
    """The screen as the LLM gets it: grab, scale to the view size, encode as PNG."""
    import io

    from assistant.computer import display

    desktop_display()
    port = display.viewport()

    def once() -> None:
        display.capture(port).save(io.BytesIO(), format="PNG", compress_level=1)

    return 1000 * median_time(once, bench.reps(20, 5))


def click_text_sparse_ms(bench: Bench) -> float:
    return click_text_ms(bench, "buttons", "Apply")


def click_text_dense_ms(bench: Bench) -> float:
    return click_text_ms(bench, "dense", "Confirm")


@functools.cache
def embedded_llm(bench: Bench) -> tuple[float, float, float, float]:
    """The embedded model a user gets: seconds until its server answers, generation speed
    (completion tokens per second after the first token), a second turn's first token in
    seconds (the first turn's prompt and reply are in the KV cache), and a new server's
    first token (nothing cached), each a median of several. Every round asks something
    new, so no turn is cached whole."""
    from assistant.config import load_settings
    from assistant.llm import LLM, Reply
    from assistant.loop.prompt import system_message
    from assistant.servers import embedded
    from assistant.servers.started import Servers

    settings = load_settings({"max_tokens": 96, "temperature": 0.0})
    if not embedded.available(settings):
        raise NotMeasurable(f"the embedded model is not installed ({embedded.missing(settings)})")

    def turn(llm: LLM, messages: list[dict[str, Any]]) -> tuple[float, float, Reply]:
        began, first, reply = time.perf_counter(), None, None
        for item in llm.stream(messages):
            first = first or time.perf_counter()
            reply = item
        if not isinstance(reply, Reply) or not reply.usage or first is None:
            raise RuntimeError("the embedded model gave no usage")
        rate = (reply.usage[1] - 1) / max(1e-6, time.perf_counter() - first)
        return first - began, rate, reply

    starts, colds, rates, second_firsts = [], [], [], []
    for round_ in range(bench.reps(3, 1)):
        began = time.perf_counter()
        with Servers() as servers:  # a private server, as embedded_keep_alive = 0 runs it
            ready = servers.start(embedded.chosen(settings),
                                  settings.replace(embedded_keep_alive=0))
            starts.append(time.perf_counter() - began)
            llm = LLM(ready, servers=servers)
            system = {"role": "system", "content": system_message("", llm.system_addendum())}
            for ask in range(bench.reps(3, 1)):
                n = round_ * 10 + ask + 2
                messages = [system, {"role": "user", "content": f"Tell me {n} facts about cats."}]
                first, rate, reply = turn(llm, messages)
                rates.append(rate)
                if ask == 0:  # a new server: nothing cached yet
                    colds.append(first)
                messages += [reply.message, {"role": "user", "content": "And about dogs?"}]
                second_firsts.append(turn(llm, messages)[0])
    return (statistics.median(starts), statistics.median(rates),
            statistics.median(second_firsts), statistics.median(colds))


def embedded_llm_start_s(bench: Bench) -> float:
    return embedded_llm(bench)[0]


def embedded_llm_tokens_per_s(bench: Bench) -> float:
    return embedded_llm(bench)[1]


def embedded_first_token_s(bench: Bench) -> float:
    return embedded_llm(bench)[2]


def embedded_first_token_cold_s(bench: Bench) -> float:
    return embedded_llm(bench)[3]


@functools.cache
def bench_pulse() -> Any:
    """Start (once) the private PulseAudio every sound figure shares, with a null sink and a
    microphone fed from a pipe, as the tests do; it becomes this process's sound card
    (PortAudio reads the address when sounddevice is imported). Returns the server."""
    import atexit
    from contextlib import ExitStack

    from tests.support.audio import Pulse, warm_up_output

    stack = ExitStack()
    atexit.register(stack.close)
    home = Path(tempfile.mkdtemp(prefix="bench-pulse-"))
    stack.callback(shutil.rmtree, home, ignore_errors=True)
    server = stack.enter_context(Pulse(home).running())
    os.environ.update({k: v for k, v in server.env.items() if k != "HOME"})
    warm_up_output()
    return server


def first_audio_ms(bench: Bench, engine_name: str) -> float:
    """From a first streamed sentence to its first audio block handed to the sound device
    (the null sink of a private PulseAudio), through Speaker and Player as `assistant voice`
    speaks, the engine loaded beforehand; each run is a new answer with its own stream.
    The device adds its own output latency after that (0.1 s asked of PulseAudio)."""
    from assistant.voice.player import Player
    from assistant.voice.speaker import Speaker
    from assistant.voice.tts import TTSError, make_engine

    if shutil.which("pulseaudio") is None:
        raise NotMeasurable("pulseaudio is not installed (scripts/lib/system-packages.sh)")
    try:
        engine = make_engine(engine_name)
    except TTSError as exc:
        raise NotMeasurable(str(exc)) from None
    bench_pulse()
    times = []
    runs = 1 + bench.reps(10, 1)  # the first one warms up
    for run in range(runs):
        player = Player("pulse")
        speaker = Speaker(engine, player)
        began = time.monotonic()
        speaker.feed("Here is what I found. ")
        while player.first_sound_at is None and time.monotonic() - began < 30:
            time.sleep(0.001)
        if player.first_sound_at is None:
            raise RuntimeError(f"{engine_name} played nothing in 30 s")
        times.append(player.first_sound_at - began)
        if run < runs - 1:  # the rest of the sentence would hold the engine for the next
            speaker.wait(30)
        speaker.stop()
    return 1000 * statistics.median(times[1:])


def tts_first_audio_ms(bench: Bench) -> float:
    """With the default engine (auto: Piper when installed)."""
    return first_audio_ms(bench, "auto")


def tts_first_audio_ms_espeak_ng(bench: Bench) -> float:
    return first_audio_ms(bench, "espeak-ng")


def tts_first_audio_ms_pyttsx3(bench: Bench) -> float:
    return first_audio_ms(bench, "pyttsx3")

