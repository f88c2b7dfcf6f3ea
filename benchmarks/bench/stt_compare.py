"""Compare speech models and decodings on the tuning and test parts of the speech benchmark.

    .venv/bin/python -m benchmarks.bench.stt_compare [--model tiny.en] [--model base] [--quick]
        [--markdown docs/benchmarks.md]

One row per model and decoding, as a Markdown table (written as a section of
docs/benchmarks.md with --markdown, which `python -m benchmarks.bench` keeps when it rewrites it):
word error rates on the tuning part and the test part (command and screen takes), the
test part's screen takes alone, without and with the words their screen shows, words
heard in silence, the test part's French takes, release-to-text for a 5 s take (median of
5 runs, 1 with --quick), and the resident
memory of the process once the model is loaded. "naive" is faster-whisper's transcribe()
with its defaults (beam 5, 30 s window, temperature fallback, no voice-activity filter);
"ours" is the Transcriber as the assistant runs it. Each model is measured in its own
process, so the memory figure is that model's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.bench import stt
from benchmarks.bench.base import Bench
from benchmarks.tasks import report as tasks_report

MODULE = "benchmarks.bench.stt_compare"  # run as its own process, once per model

SECTION = ("<!-- speech models: written by python -m benchmarks.bench.stt_compare -->",
           "<!-- speech models: end -->")
COLUMNS = ["model", "decoding", "wer_tune", "wer_test", "screen_test", "screen_biased",
           "french_test", "silence_words", "release_5s_ms", "rss_mb"]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def measure(model: str, quick: bool) -> list[dict[str, Any]]:
    """The rows of one model, measured in this process."""
    from assistant.config import load_settings
    from assistant.voice.hints import prompt
    from assistant.voice.stt import Transcriber

    def loaded(language: str) -> Any:
        transcriber = Transcriber.from_settings(load_settings(), model, language)
        transcriber.load()
        return transcriber

    languages = ["en"] if model == "tiny.en" else ["en", "auto"]
    first = loaded(languages[0])
    memory = round(rss_mb())
    parts = {name: stt.part(name) for name in stt.PARTS}
    quiet = [take for takes in parts.values() for take in takes if take["kind"] == "silence"]
    rows = []
    for language in languages:
        transcriber = first if language == languages[0] else loaded(language)
        naive_language = None if language == "auto" else language

        def naive(take: dict[str, Any], model: Any = transcriber.model,
                  language: str | None = naive_language) -> str:
            return " ".join(segment.text.strip() for segment in
                            model.transcribe(take["audio"], language=language)[0])

        def ours(take: dict[str, Any], transcriber: Any = transcriber) -> str:
            return str(transcriber.transcribe(take["audio"]))

        def biased(take: dict[str, Any], transcriber: Any = transcriber) -> str:
            hints = prompt(take.get("context") or [])
            return str(transcriber.transcribe(take["audio"], hints=hints))

        for decoding, hear in ((f"naive, {language}", naive), (f"ours, {language}", ours)):
            rows.append({
                "model": model, "decoding": decoding,
                "wer_tune": stt.mean_wer(parts["tune"], hear),
                "wer_test": stt.mean_wer(parts["test"], hear),
                "screen_test": stt.mean_wer(parts["test"], hear, ("screen",)),
                "screen_biased": (stt.mean_wer(parts["test"], biased, ("screen",))
                                  if hear is ours else None),
                "french_test": stt.mean_wer(parts["test"], hear, ("french",)),
                "silence_words": sum(len(hear(take).split()) for take in quiet),
                "release_5s_ms": (stt.release_to_text_ms(Bench(quick), 5, transcriber)
                                  if hear is ours else None),
                "rss_mb": memory})
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    def cell(value: Any) -> str:
        if value is None:
            return "-"
        return f"{value:.3f}" if isinstance(value, float) and value < 10 else str(
            round(value) if isinstance(value, float) else value)

    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cell(r[c]) for c in COLUMNS) + " |" for r in rows]
    return "\n".join(lines)


def section(rows: list[dict[str, Any]], load: tuple[float, float]) -> str:
    """The Markdown section for docs/benchmarks.md, between the SECTION markers."""
    return "\n".join([
        SECTION[0], "## Speech models, side by side", "",
        f"Generated by `python -m benchmarks.bench.stt_compare --markdown docs/benchmarks.md` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average (1 min) "
        f"{load[0]:.1f} at the start and {load[1]:.1f} at the end, on {os.cpu_count()} cores. "
        "Word error rates are means over the command and screen takes of the tuning part "
        "(`wer_tune`, scripts/stt_tune.py) and of the test part (`wer_test`, "
        "scripts/stt_heldout.py, written apart and never tuned on); `screen_test` is the "
        "test part's screen takes alone and `screen_biased` the same takes given the words "
        "their screens show; `french_test` the test part's French takes; `silence_words` the "
        "words heard in both parts' silent takes; `release_5s_ms` the time from release to "
        "text for a 5 s take fed at real-time pace; `rss_mb` the process once the model is "
        "loaded. `naive` is faster-whisper's transcribe() with its defaults; `ours` the "
        "assistant's decoding.", "", table(rows), SECTION[1], ""])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", help="tiny.en, base, or a folder")
    parser.add_argument("--quick", action="store_true", help="release-to-text once, not 5 times")
    parser.add_argument("--markdown", type=Path, metavar="FILE",
                        help="write the table as a section of FILE (docs/benchmarks.md)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    models = args.model or ["tiny.en", "base"]
    if args.one:
        print(json.dumps(measure(models[0], args.quick)))
        return 0
    load_at_start = os.getloadavg()[0]
    rows = []
    for model in models:
        command = [sys.executable, "-m", MODULE, "--one", "--model", model]
        done = subprocess.run(command + ["--quick"] * args.quick, capture_output=True,
                              text=True, check=False)
        if done.returncode != 0:
            print(f"stt_compare: {model}: {done.stderr.strip()[-500:]}", file=sys.stderr)
            return 1
        rows += json.loads(done.stdout.strip().splitlines()[-1])
    print(table(rows))
    if args.markdown:
        tasks_report.write_section(args.markdown, section(rows, (load_at_start,
                                                                 os.getloadavg()[0])),
                                   *SECTION)
    return 0


if __name__ == "__main__":
    sys.exit(main())
