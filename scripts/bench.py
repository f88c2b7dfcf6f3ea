#!/usr/bin/env python3
"""Measure the figures the project tracks, so a change that makes them worse shows up.

Run with the project's venv, from any directory (run directly, it switches to the venv):

    .venv/bin/python scripts/bench.py [--quick] [--json FILE] [--only NAME,...]
    .venv/bin/python scripts/bench.py --peers --markdown docs/benchmarks.md \
        --chart docs/benchmarks.png

`--peers` also measures the incumbent, open-interpreter, in its own venv (.bench/, made
on first use; see bench_peers.py) and prints ours/theirs ratios beside the targets.

Each figure is the median of N runs after a warm-up. A figure that cannot be measured
(its part is not built yet, or node is missing) is null with the reason, so the table
and the JSON keep one shape as the project grows. Adding a figure: its name goes in
FIGURE_NAMES, and one function decorated with @figure("name") measures it.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
NOT_BUILT = "needs the voice/desktop/daemon parts, not built yet"
LIMIT_S = 300  # one figure taking longer than this is a hang, not a measurement

FIGURE_NAMES = [
    "help_s",
    "run_python_ms",
    "run_shell_ms",
    "run_js_ms",
    "turn_overhead_ms",
    "risk_check_ms",
    "risk_recall",
    "risk_false_alarm_pct",
    "stt_release_to_text_ms_2s",
    "stt_release_to_text_ms_5s",
    "stt_release_to_text_ms_10s",
    "stt_rtf",
    "stt_wer",
    "tts_first_audio_ms",
    "screenshot_ms",
    "click_text_sparse_ms",
    "click_text_dense_ms",
    "voice_turn_overhead_ms",
    "daemon_idle_rss_mb",
    "daemon_idle_cpu_pct",
    "embedded_llm_start_s",
    "embedded_llm_tokens_per_s",
]


class NotMeasurable(Exception):
    """The figure has no meaning here yet (a part or a tool is missing); not a failure."""


class Bench:
    """Settings of one bench run and the resources figures share (one Runtimes, as the core)."""

    def __init__(self, quick: bool) -> None:
        self.quick = quick
        self._runtimes: Any = None

    def reps(self, full: int, quick: int) -> int:
        return quick if self.quick else full

    def runtimes(self) -> Any:
        if self._runtimes is None:
            from assistant.runtime import Runtimes

            self._runtimes = Runtimes()
        return self._runtimes

    def close(self) -> None:
        if self._runtimes is not None and hasattr(self._runtimes, "close"):
            self._runtimes.close()


Measure = Callable[[Bench], float]
FIGURES: dict[str, Measure] = {}


def figure(name: str) -> Callable[[Measure], Measure]:
    """Register the function that measures `name` (a name listed in FIGURE_NAMES)."""
    assert name in FIGURE_NAMES, name

    def register(measure: Measure) -> Measure:
        FIGURES[name] = measure
        return measure

    return register


def median_time(action: Callable[[], object], n: int, warmup: int = 1) -> float:
    """Median wall time of `action` in seconds over n runs, after `warmup` untimed runs."""
    for _ in range(warmup):
        action()
    times = []
    for _ in range(n):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# --- the figures ---------------------------------------------------------------------


@figure("help_s")
def help_s(bench: Bench) -> float:
    """A fresh `assistant --help`: what every command pays before doing anything."""
    exe = VENV_BIN / "assistant"
    if not exe.exists():
        raise NotMeasurable(f"{exe} is missing: run scripts/setup first")

    def once() -> None:
        done = subprocess.run(
            [str(exe), "--help"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"assistant --help exited {done.returncode}: {done.stderr[-300:]}")

    return median_time(once, bench.reps(20, 5))


def run_round_trip_ms(bench: Bench, language: str, code: str) -> float:
    """A warm run through the runtime as the core drives it, checked to end cleanly."""
    from assistant.events import RunEnd

    runtimes = bench.runtimes()

    def once() -> None:
        events = list(runtimes.run(language, code, proposal_id="b"))
        last = events[-1] if events else None
        if not isinstance(last, RunEnd) or last.exit_status != 0 or "1" not in last.output:
            raise RuntimeError(f"{language} run did not end cleanly: {last!r}")

    return 1000 * median_time(once, bench.reps(20, 10))


@figure("run_python_ms")
def run_python_ms(bench: Bench) -> float:
    return run_round_trip_ms(bench, "python", "print(1)")


@figure("run_shell_ms")
def run_shell_ms(bench: Bench) -> float:
    return run_round_trip_ms(bench, "shell", "echo 1")


@figure("run_js_ms")
def run_js_ms(bench: Bench) -> float:
    if shutil.which("node") is None:
        raise NotMeasurable("node is not installed, so JavaScript runs are unavailable")
    return run_round_trip_ms(bench, "javascript", "console.log(1)")


@figure("turn_overhead_ms")
def turn_overhead_ms(bench: Bench) -> float:
    """One typed turn (a tool call that runs print(1), then words) against an instant LLM.

    The server answers at once, so the figure is what the assistant itself adds per turn.
    The history is cleared before each turn so every turn is the same size.
    """
    from assistant import Assistant
    from assistant.events import RunEnd, TurnEnd
    from tests.support.llm_server import LLMServer, text, tool_call

    with (
        LLMServer() as server,
        Assistant(
            model="openai/gpt-4o-mini",
            api_base=server.url + "/v1",
            api_key="test",
            auto_run=True,
            journal=False,
        ) as assistant,
    ):

        def once() -> None:
            server.add(tool_call("python", "print(1)"), text("It printed 1."))
            assistant.messages = []
            events = list(assistant.chat("print one", stream=True))
            ran = [e for e in events if isinstance(e, RunEnd)]
            end = events[-1] if events else None
            if (
                not isinstance(end, TurnEnd)
                or end.reason != "answered"
                or not ran
                or any(e.exit_status != 0 for e in ran)
            ):
                raise RuntimeError(f"the turn did not run print(1) and answer: {events!r}"[:600])

        return 1000 * median_time(once, bench.reps(20, 5))


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


@figure("risk_check_ms")
def risk_check_ms(bench: Bench) -> float:
    """The static risk check on a 40-line Python snippet with shell inside: paid per proposal."""
    from assistant.safety.risk import assess

    return 1000 * median_time(lambda: assess(RISK_SNIPPET, "python"), bench.reps(50, 10))


def risk_corpus() -> tuple[float, float]:
    """Recall on the dangerous part of the labelled corpus, false alarms on the everyday part."""
    from assistant.config import tomllib
    from assistant.safety.risk import assess

    folder = ROOT / "tests" / "unit" / "safety"
    dangerous = tomllib.loads((folder / "risk_corpus_dangerous.toml").read_text())["snippet"]
    benign = tomllib.loads((folder / "risk_corpus_benign.toml").read_text())["snippet"]
    caught = sum(1 for s in dangerous if (v := assess(s["code"], s["language"])).risk
                 in ("high", "blocked") and s["family"] in v.families)
    alarms = sum(1 for s in benign if assess(s["code"], s["language"]).risk != "low")
    return caught / len(dangerous), 100 * alarms / len(benign)


@figure("risk_recall")
def risk_recall(bench: Bench) -> float:
    return risk_corpus()[0]


@figure("risk_false_alarm_pct")
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
    with tempfile.TemporaryDirectory() as folder:
        app = TkApp(Path(folder) / "events.jsonl", layout=layout)
        try:
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
        finally:
            app.close()


@figure("screenshot_ms")
def screenshot_ms(bench: Bench) -> float:
    """The screen as the LLM gets it: grab, scale to the view size, encode as PNG."""
    import io

    from assistant.computer import display

    desktop_display()
    port = display.viewport()

    def once() -> None:
        display.capture(port).save(io.BytesIO(), format="PNG", compress_level=1)

    return 1000 * median_time(once, bench.reps(20, 5))


@figure("click_text_sparse_ms")
def click_text_sparse_ms(bench: Bench) -> float:
    return click_text_ms(bench, "buttons", "Apply")


@figure("click_text_dense_ms")
def click_text_dense_ms(bench: Bench) -> float:
    return click_text_ms(bench, "dense", "Confirm")


@functools.cache
def embedded_llm(bench: Bench) -> tuple[float, float]:
    """Start the embedded model (seconds until it answers) and its generation speed
    (completion tokens per second after the first token), each a median of several."""
    from assistant.config import Settings
    from assistant.llm import LLM, Reply, embedded

    if not embedded.available():
        raise NotMeasurable(f"the embedded model is not installed ({embedded.missing()})")
    starts, rates = [], []
    for _ in range(bench.reps(3, 1)):
        began = time.perf_counter()
        with embedded.EmbeddedServer() as server:
            starts.append(time.perf_counter() - began)
            llm = LLM(server.settings_for(Settings(max_tokens=128, temperature=0.0)))
            for _ in range(bench.reps(3, 2)):
                first = None
                for item in llm.stream([{"role": "user", "content": "Tell me about cats."}]):
                    first = first or time.perf_counter()
                    reply = item
                if not isinstance(reply, Reply) or not reply.usage or first is None:
                    raise RuntimeError("the embedded model gave no usage")
                rates.append((reply.usage[1] - 1) / max(1e-6, time.perf_counter() - first))
    return statistics.median(starts), statistics.median(rates)


@figure("embedded_llm_start_s")
def embedded_llm_start_s(bench: Bench) -> float:
    return embedded_llm(bench)[0]


@figure("embedded_llm_tokens_per_s")
def embedded_llm_tokens_per_s(bench: Bench) -> float:
    return embedded_llm(bench)[1]


@functools.cache
def voice_fixtures() -> tuple[Any, dict[str, Any]]:
    """The warmed built-in Whisper model and the speech fixtures (made by make_fixtures.py)."""
    from assistant.voice.stt import Transcriber
    from assistant.voice.wav import read_wav

    out = ROOT / ".venv" / "cache" / "voice-fixtures"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_fixtures.py"), "--out",
                           str(out)], capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        raise NotMeasurable(f"no speech fixtures: {done.stderr.strip()[-300:]}")
    manifest = json.loads((out / "manifest.json").read_text())["fixtures"]
    for name, entry in manifest.items():
        entry["audio"] = read_wav(out / f"{name}.wav")
    transcriber = Transcriber()
    transcriber.load()
    return transcriber, manifest


def release_to_text_ms(bench: Bench, seconds: int) -> float:
    """A take of `seconds` of speech fed in 50 ms blocks at real-time pace, as while the key
    is held; the figure is the time from release to the whole transcript."""
    import numpy as np

    transcriber, fixtures = voice_fixtures()
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

    return 1000 * statistics.median(once() for _ in range(bench.reps(3, 1)))


@figure("stt_release_to_text_ms_2s")
def stt_release_to_text_ms_2s(bench: Bench) -> float:
    return release_to_text_ms(bench, 2)


@figure("stt_release_to_text_ms_5s")
def stt_release_to_text_ms_5s(bench: Bench) -> float:
    return release_to_text_ms(bench, 5)


@figure("stt_release_to_text_ms_10s")
def stt_release_to_text_ms_10s(bench: Bench) -> float:
    return release_to_text_ms(bench, 10)


@figure("stt_rtf")
def stt_rtf(bench: Bench) -> float:
    """Decode time over audio time for the longest fixture, transcribed whole (under 1 is
    faster than speech)."""
    transcriber, fixtures = voice_fixtures()
    audio = fixtures["piper_long"]["audio"]
    return median_time(lambda: transcriber.transcribe(audio), bench.reps(5, 2)) / (
        len(audio) / 16000)


@figure("stt_wer")
def stt_wer(bench: Bench) -> float:
    """Mean word error rate over the speech fixtures (Piper and espeak-ng voices)."""
    from assistant.voice.wer import word_error_rate

    transcriber, fixtures = voice_fixtures()
    rates = [word_error_rate(e["text"], transcriber.transcribe(e["audio"]))
             for e in fixtures.values() if e["text"]]
    return statistics.mean(rates)


@figure("tts_first_audio_ms")
def tts_first_audio_ms(bench: Bench) -> float:
    """From a first streamed sentence to its audio being ready to play, with the default
    engine (auto: Piper when installed), loaded beforehand as `assistant voice` does."""
    from assistant.voice.tts import make_engine

    engine = make_engine("auto")
    return 1000 * median_time(lambda: engine.synthesize("Here is what I found."),
                              bench.reps(10, 3))


# --- running and reporting -------------------------------------------------------------


@contextmanager
def isolated_environment() -> Iterator[None]:
    """Keep the bench off the user's config, journal, price-list download and real Ollama.

    Runs before anything imports litellm, which reads these variables at import time.
    """
    scratch = Path(tempfile.mkdtemp(prefix="assistant-bench-"))
    for name in [n for n in os.environ if n.startswith("ASSISTANT_")]:
        del os.environ[name]
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    os.environ["OLLAMA_API_BASE"] = "http://127.0.0.1:9"
    for sub, variable in (("config", "ASSISTANT_CONFIG_DIR"), ("data", "ASSISTANT_DATA_DIR")):
        (scratch / sub).mkdir()
        os.environ[variable] = str(scratch / sub)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # for tests.support
    try:
        yield
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise TimeoutError(f"took longer than {LIMIT_S} s")


def measure_all(
    bench: Bench, only: set[str] | None = None
) -> tuple[dict[str, float | None], dict[str, str], list[str]]:
    """Every figure (or those in `only`): its value or None, the reasons for the Nones,
    and those that failed."""
    values: dict[str, float | None] = {}
    reasons: dict[str, str] = {}
    failed: list[str] = []
    signal.signal(signal.SIGALRM, _on_alarm)
    for name in FIGURE_NAMES:
        if only is not None and name not in only:
            continue
        values[name] = None
        measure = FIGURES.get(name)
        if measure is None:
            reasons[name] = NOT_BUILT
            continue
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        signal.alarm(LIMIT_S)
        try:
            values[name] = measure(bench)
        except NotMeasurable as exc:
            reasons[name] = str(exc)
        except ImportError as exc:
            reasons[name] = f"not measurable: {exc}"
        except Exception as exc:
            reasons[name] = f"failed: {type(exc).__name__}: {exc}"
            failed.append(name)
        finally:
            signal.alarm(0)
    return values, reasons, failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    parser.add_argument("--only", metavar="NAMES", help="measure only these (comma-separated)")
    parser.add_argument("--peers", action="store_true",
                        help="also measure open-interpreter (installed into .bench/)")
    parser.add_argument("--markdown", type=Path, metavar="FILE",
                        help="write the table as Markdown (docs/benchmarks.md)")
    parser.add_argument("--chart", type=Path, metavar="FILE",
                        help="draw ours vs the incumbent as a PNG (needs --peers)")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    if only and only - set(FIGURE_NAMES):
        parser.error(f"unknown figure(s): {', '.join(sorted(only - set(FIGURE_NAMES)))}")
    if args.chart and not args.peers:
        parser.error("--chart compares with the incumbent: add --peers")

    import bench_peers
    import bench_report

    peers: dict[str, float | None] | None = None
    peer_reasons: dict[str, str] = {}
    load_at_start = os.getloadavg()[0]
    with isolated_environment():
        bench = Bench(quick=args.quick)
        try:
            values, reasons, failed = measure_all(bench, only)
            if args.peers:
                peers, peer_reasons = bench_peers.measure(bench, desktop_display)
                values["import_rss_mb"] = bench_peers.our_import_rss_mb()
        finally:
            bench.close()

    print(bench_report.text_table(values, reasons, peers, peer_reasons))
    if args.json:
        flat: dict[str, Any] = {k: None if v is None else round(v, 4) for k, v in values.items()}
        flat["null_reasons"] = reasons
        if peers is not None:
            flat["peers"] = {k: None if v is None else round(v, 4) for k, v in peers.items()}
            flat["peers_null_reasons"] = peer_reasons
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(flat, indent=2) + "\n")
    chart_link = None
    if args.chart and peers is not None:
        bench_report.chart(values, peers, bench_peers.PEER, bench_peers.PEER_BIN / "python",
                           args.chart)
        if args.markdown:
            chart_link = os.path.relpath(args.chart.resolve(), args.markdown.resolve().parent)
    if args.markdown:
        runs = ("ours N = 20 for help, runs, turn and screenshot, 7 for clicks (the others as "
                "set in scripts/bench.py); theirs N = 5 for --help, 20 for runs, 3 for clicks"
                if not args.quick else "--quick: ours N = 5–10 (3 for clicks); "
                "theirs N = 3 for --help, 10 for runs, 1 for clicks")
        runs += (f"; load average (1 min) {load_at_start:.1f} at the start and "
                 f"{os.getloadavg()[0]:.1f} at the end, on {os.cpu_count()} cores")
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(bench_report.markdown(
            values, reasons, peers, peer_reasons, bench_peers.PEER, runs, chart_link))
    if failed:
        print(f"bench: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    venv_python = VENV_BIN / "python"
    if Path(sys.prefix).resolve() != venv_python.parent.parent.resolve() and venv_python.exists():
        os.execv(venv_python, [str(venv_python), __file__, *sys.argv[1:]])
    sys.exit(main())
