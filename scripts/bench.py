#!/usr/bin/env python3
"""Measure the figures the project tracks, so a change that makes them worse shows up.

Run with the project's venv, from any directory (run directly, it switches to the venv):

    .venv/bin/python scripts/bench.py [--quick] [--json FILE] [--only NAME,...]
    .venv/bin/python scripts/bench.py --peers --markdown docs/benchmarks.md \
        --chart docs/benchmarks.png

`--quick` measures only the figures that take seconds (QUICK in bench_registry.py), with
fewer repetitions; the others are null with the reason, for the full run to measure.
`--peers` also measures the incumbent, open-interpreter, in its own venv (.bench/, made
on first use; see bench_peers.py) and prints ours/theirs ratios beside the targets.

Each figure is the median of N runs after a warm-up. A figure that cannot be measured
(its part is not built yet, or node is missing) is null with the reason, so the table
and the JSON keep one shape as the project grows. Adding a figure: its name goes in
FIGURE_NAMES (bench_registry.py), and one function decorated with @figure("name") measures
it (core figures here, the other parts' in bench_figures.py).
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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import bench_a11y  # noqa: F401 - importing it registers the accessibility figures
import bench_bestof  # noqa: F401 - importing it registers the best-of-n cost figure
import bench_tools  # noqa: F401 - importing it registers the MCP tool figure
import bench_web  # noqa: F401 - importing it registers the web page's figures
import bench_whatif  # noqa: F401 - importing it registers the preview and undo figures
from bench_figures import desktop_display  # importing it registers the area figures
from bench_registry import (
    FIGURE_NAMES,
    FIGURES,
    FULL_RUN,
    LIMITS,
    NOT_BUILT,
    QUICK,
    ROOT,
    VENV_BIN,
    Bench,
    NotMeasurable,
    figure,
    median_time,
)

LIMIT_S = 300  # one figure taking longer than this is a hang, not a measurement
CLI_LIMIT_S = 3600  # the cold and warm commands, on a model read from scratch each round

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
    """One typed turn (a tool call that runs print(1), then words) against an instant LLM,
    with the preview a user gets (undo on): the figure fails where previews are off, since
    it would measure a turn no user with previews has.

    The server answers at once, so the figure is what the assistant itself adds per turn.
    The history is cleared before each turn so every turn is the same size.
    """
    from assistant import Assistant
    from assistant.events import Proposal, RunEnd, TurnEnd
    from assistant.whatif.probe import problem
    from tests.support.llm_server import LLMServer, text, tool_call

    if problem():
        raise RuntimeError(problem())

    with (
        LLMServer() as server,
        Assistant(
            model="openai/gpt-4o-mini",
            api_base=server.url + "/v1",
            api_key="test",
            approval="auto",
            journal=False,
        ) as assistant,
    ):

        def once() -> None:
            server.add(tool_call("python", "print(1)"), text("It printed 1."))
            assistant.messages = []
            events = list(assistant.turn("print one"))
            ran = [e for e in events if isinstance(e, RunEnd)]
            end = events[-1] if events else None
            if (
                not isinstance(end, TurnEnd)
                or end.reason != "answered"
                or not ran
                or any(e.exit_status != 0 for e in ran)
            ):
                raise RuntimeError(f"the turn did not run print(1) and answer: {events!r}"[:600])
            if not any(isinstance(e, Proposal) and e.effect is not None for e in events):
                raise RuntimeError(f"print(1) was proposed without its preview: {events!r}"[:600])

        return 1000 * median_time(once, bench.reps(20, 3))


@functools.cache
def cli_first_tokens(bench: Bench) -> tuple[float, float, float]:
    """`assistant -y "..."` with nothing configured, as a new user runs it: seconds from
    the command to the first word of the answer with no server loaded (cold: the shared
    server starts and reads the whole prompt) and with the server of the command before
    still kept (warm: only the new request is read), each a median; and the resident MB
    of the shared server after the warm runs."""
    from assistant.config import load_settings
    from assistant.llm import embedded, shared

    settings = load_settings()
    if not embedded.available(settings):
        raise NotMeasurable(f"the embedded model is not installed ({embedded.missing(settings)})")
    exe = VENV_BIN / "assistant"
    env = {**os.environ, "ASSISTANT_MAX_TOKENS": "16", "ASSISTANT_EMBEDDED_KEEP_ALIVE": "300"}

    def first_token(request: str) -> float:
        """Seconds to the first byte of the answer; then the command is ended, since what
        it does next is not this figure."""
        began = time.perf_counter()
        process = subprocess.Popen([str(exe), "-y", request], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        assert process.stdout is not None
        first = process.stdout.read(1)
        seconds = time.perf_counter() - began
        process.terminate()
        try:
            _, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            _, err = process.communicate()
        if not first:
            raise RuntimeError(f"assistant -y exited {process.returncode}: {err[-300:]!r}")
        return seconds

    colds, warms = [], []
    for round_ in range(bench.reps(3, 1)):
        for running in shared.records():
            shared.stop(running)
        colds.append(first_token(f"How many legs do {round_ + 2} spiders have?"))
        for ask in range(bench.reps(4, 2)):
            warms.append(first_token(f"What is {round_ + 3} times {ask + 7}?"))
    [running] = shared.records()
    said = shared.status(running) or {}
    shared.stop(running)
    return (statistics.median(colds), statistics.median(warms),
            said.get("rss_bytes", 0) / 1e6)


@figure("cli_first_token_cold_s", limit_s=CLI_LIMIT_S)
def cli_first_token_cold_s(bench: Bench) -> float:
    return cli_first_tokens(bench)[0]


@figure("cli_first_token_warm_s", limit_s=CLI_LIMIT_S)
def cli_first_token_warm_s(bench: Bench) -> float:
    return cli_first_tokens(bench)[1]


@figure("embedded_server_rss_mb", limit_s=CLI_LIMIT_S)
def embedded_server_rss_mb(bench: Bench) -> float:
    """What the shared embedded server holds, apart from any program that uses it (the
    daemon's own figure leaves it out)."""
    return cli_first_tokens(bench)[2]


# --- running and reporting -------------------------------------------------------------


@contextmanager
def isolated_environment() -> Iterator[None]:
    """Keep the bench off the user's config, journal, shared embedded server, price-list
    download and real Ollama.

    Runs before anything imports litellm, which reads these variables at import time.
    """
    from assistant.config import Settings
    from assistant.llm import embedded

    # The embedded weights setup installed in the user's data folder, by path.
    weights = embedded.chosen(Settings(embedded_model=os.environ.get(
        "ASSISTANT_EMBEDDED_MODEL", ""))).path
    scratch = Path(tempfile.mkdtemp(prefix="assistant-bench-"))
    for name in [n for n in os.environ if n.startswith("ASSISTANT_")]:
        del os.environ[name]
    if weights:
        os.environ["ASSISTANT_EMBEDDED_MODEL"] = str(weights)
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    os.environ["OLLAMA_API_BASE"] = "http://127.0.0.1:9"
    for sub, variable in (("config", "ASSISTANT_CONFIG_DIR"), ("data", "ASSISTANT_DATA_DIR"),
                          ("run", "ASSISTANT_RUNTIME_DIR")):
        (scratch / sub).mkdir(mode=0o700)
        os.environ[variable] = str(scratch / sub)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # for tests.support
    try:
        yield
    finally:
        from assistant.llm import shared

        for running in shared.records():  # what the figures started and their keep-alive kept
            shared.stop(running)
        shutil.rmtree(scratch, ignore_errors=True)


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise TimeoutError("took longer than its time limit")


def left_to_full_run(bench: Bench, name: str, only: set[str] | None) -> bool:
    """--quick measures the figures in QUICK; one named in --only is measured all the same."""
    return bench.quick and only is None and name not in QUICK


def measure_all(
    bench: Bench, only: set[str] | None = None
) -> tuple[dict[str, float | None], dict[str, str], list[str]]:
    """Every figure (or those in `only`; with --quick, those in QUICK unless named in
    `only`): its value or None, the reasons for the Nones, and those that failed."""
    values: dict[str, float | None] = {}
    reasons: dict[str, str] = {}
    failed: list[str] = []
    signal.signal(signal.SIGALRM, _on_alarm)
    for name in FIGURE_NAMES:
        if only is not None and name not in only:
            continue
        values[name] = None
        if left_to_full_run(bench, name, only):
            reasons[name] = FULL_RUN
            continue
        measure = FIGURES.get(name)
        if measure is None:
            reasons[name] = NOT_BUILT
            continue
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        signal.alarm(LIMITS.get(name, LIMIT_S))
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
    parser.add_argument("--quick", action="store_true",
                        help="fewer repetitions, and only the figures that take seconds")
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
    from tasks import code_version

    peers: dict[str, float | None] | None = None
    peer_reasons: dict[str, str] = {}
    load_at_start = os.getloadavg()[0]
    commit = code_version()  # before the run: what was measured
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
                if not args.quick else "--quick: only the figures that take seconds, ours "
                "N = 3–10; theirs N = 3 for --help, 10 for runs, 1 for clicks")
        runs += (f"; load average (1 min) {load_at_start:.1f} at the start and "
                 f"{os.getloadavg()[0]:.1f} at the end, on {os.cpu_count()} cores")
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        old = args.markdown.read_text() if args.markdown.exists() else ""
        args.markdown.write_text(bench_report.markdown(
            values, reasons, peers, peer_reasons, bench_peers.PEER, runs, chart_link,
            commit) + bench_report.sections_after(old))
    if failed:
        print(f"bench: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    venv_python = VENV_BIN / "python"
    if Path(sys.prefix).resolve() != venv_python.parent.parent.resolve() and venv_python.exists():
        os.execv(venv_python, [str(venv_python), __file__, *sys.argv[1:]])
    sys.exit(main())
