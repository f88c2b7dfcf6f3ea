"""Measure the figures the project tracks, so a change that makes them worse shows up.

Run from the project's folder (with another Python, it switches to the project's venv):

    python -m benchmarks.bench [--quick] [--json FILE] [--only NAME,...]
    python -m benchmarks.bench --peers --markdown docs/benchmarks.md \
        --chart docs/benchmarks.png

`--quick` measures only the figures that take seconds (QUICK in registry.py), with
fewer repetitions; the others are null with the reason, for the full run to measure.
`--peers` also measures the incumbent, open-interpreter, in its own venv (.bench/, made
on first use; see peers.py) and prints ours/theirs ratios beside the targets.

Each figure is the median of N runs after a warm-up. A figure that cannot be measured
(a part or a tool such as node is missing) is null with the reason, so the table and the
JSON keep one shape as the project grows. Adding a figure: registry.py says how.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from benchmarks.bench import peers as incumbent
from benchmarks.bench import report
from benchmarks.bench.areas import desktop_display
from benchmarks.bench.base import Bench, NotMeasurable, isolated_environment
from benchmarks.bench.registry import BY_NAME, FIGURE_NAMES, FULL_RUN, QUICK
from benchmarks.tasks.cli import code_version

LIMIT_S = 300  # one figure taking longer than this is a hang, not a measurement


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
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        signal.alarm(BY_NAME[name].limit_s or LIMIT_S)
        try:
            values[name] = BY_NAME[name].measure(bench)
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
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench",
                                     description=__doc__.splitlines()[0])
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

    peers: dict[str, float | None] | None = None
    peer_reasons: dict[str, str] = {}
    load_at_start = os.getloadavg()[0]
    commit = code_version()  # before the run: what was measured
    with isolated_environment():
        bench = Bench(quick=args.quick)
        try:
            values, reasons, failed = measure_all(bench, only)
            if args.peers:
                peers, peer_reasons = incumbent.measure(bench, desktop_display)
                values["import_rss_mb"] = incumbent.our_import_rss_mb()
        finally:
            bench.close()

    print(report.text_table(values, reasons, peers, peer_reasons))
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
        report.chart(values, peers, incumbent.PEER, incumbent.PEER_BIN / "python",
                           args.chart)
        if args.markdown:
            chart_link = os.path.relpath(args.chart.resolve(), args.markdown.resolve().parent)
    if args.markdown:
        runs = ("ours N = 20 for help, runs, turn and screenshot, 7 for clicks (the others as "
                "set in benchmarks/bench/); theirs N = 5 for --help, 20 for runs, 3 for clicks"
                if not args.quick else "--quick: only the figures that take seconds, ours "
                "N = 3–10; theirs N = 3 for --help, 10 for runs, 1 for clicks")
        runs += (f"; load average (1 min) {load_at_start:.1f} at the start and "
                 f"{os.getloadavg()[0]:.1f} at the end, on {os.cpu_count()} cores")
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        old = args.markdown.read_text() if args.markdown.exists() else ""
        args.markdown.write_text(report.markdown(
            values, reasons, peers, peer_reasons, incumbent.PEER, runs, chart_link,
            commit) + report.sections_after(old))
    if failed:
        print(f"bench: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0

