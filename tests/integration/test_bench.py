"""`python -m benchmarks.bench` still runs and reports in its documented shape (a smoke test,
not a timing)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.require import require

ROOT = Path(__file__).resolve().parents[2]
NO_NAMESPACES = "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$@\""


def run_bench(*args: str, prefix: tuple[str, ...] = (),
              timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*prefix, sys.executable, "-m", "benchmarks.bench", *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          stdin=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          check=False)


def test_one_figure_is_measured_judged_and_written(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    markdown = tmp_path / "benchmarks.md"
    done = run_bench("--quick", "--only", "run_python_ms", "--json", str(out),
                     "--markdown", str(markdown))
    assert done.returncode == 0, done.stderr
    figures = json.loads(out.read_text())
    assert set(figures) == {"run_python_ms", "null_reasons"}
    assert 0 < figures["run_python_ms"] < 5000
    met = "yes" if figures["run_python_ms"] <= 5 else "no"
    written = markdown.read_text()
    assert f"| `run_python_ms` | {figures['run_python_ms']:.4g}" in written
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.strip()
    assert f"- Commit: {commit} + " in written
    row = next(line for line in done.stdout.splitlines() if line.startswith("run_python_ms"))
    assert row.split()[-2:] == ["5", met]


def test_writing_the_figures_keeps_every_section_after_them_as_it_was(tmp_path: Path) -> None:
    markdown = tmp_path / "benchmarks.md"
    after = ("\n<!-- tasks: written by python -m benchmarks.tasks -->\n## Tasks\n\n| a | b |\n"
             "<!-- tasks: end -->\n\n## Written by hand\n\nA finding, with its date.\n")
    markdown.write_text("# Benchmarks\n\n- Date: 2000-01-01 00:00 UTC\n\n"
                        "| `run_python_ms` | 99 |\n" + after)
    done = run_bench("--quick", "--only", "run_python_ms", "--markdown", str(markdown))
    assert done.returncode == 0, done.stderr
    written = markdown.read_text()
    assert written.endswith("\n" + after) and written.count("## Written by hand") == 1
    assert "2000-01-01" not in written and "| `run_python_ms` | 99 |" not in written


def test_unknown_figures_and_a_chart_without_peers_are_refused() -> None:
    done = run_bench("--only", "warp_speed_ms")
    assert done.returncode == 2
    assert "unknown figure(s): warp_speed_ms" in done.stderr
    done = run_bench("--chart", "x.png")
    assert done.returncode == 2
    assert "add --peers" in done.stderr


def test_quick_leaves_the_slow_figures_to_the_full_run_unless_named() -> None:
    from benchmarks.bench import cli as bench
    from benchmarks.bench.base import Bench
    from benchmarks.bench.registry import FIGURE_NAMES, QUICK

    quick = Bench(quick=True)
    assert set(FIGURE_NAMES) > QUICK
    assert not bench.left_to_full_run(quick, "turn_overhead_ms", None)
    assert bench.left_to_full_run(quick, "daemon_idle_rss_mb", None)
    assert not bench.left_to_full_run(quick, "daemon_idle_rss_mb", {"daemon_idle_rss_mb"})
    assert not bench.left_to_full_run(Bench(quick=False), "daemon_idle_rss_mb", None)


def test_the_quick_bench_times_a_voice_turn_to_a_previewed_proposal(tmp_path: Path) -> None:
    """The daemon's figures have silently stopped measuring before (the scripted proposal
    failed its preview, so no popup came): the quick bench CI runs measures one of them."""
    for tool in ("xdotool", "pulseaudio", "espeak-ng", "Xvfb"):
        require(shutil.which(tool), f"{tool} is not installed")
    from benchmarks.bench.registry import QUICK

    assert "voice_turn_overhead_ms" in QUICK
    out = tmp_path / "figures.json"
    done = run_bench("--quick", "--only", "voice_turn_overhead_ms", "--json", str(out),
                     timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(out.read_text())
    assert figures["null_reasons"] == {}
    assert 0 < figures["voice_turn_overhead_ms"] < 60_000


def test_a_figure_that_fails_makes_the_bench_fail_naming_it() -> None:
    """Where the kernel refuses user namespaces (a namespace of the test's own, as in
    tests/integration/whatif/test_without_namespaces.py), turns are not previewed, and
    the figure of a previewed turn fails rather than measure something else."""
    require(shutil.which("unshare"), "unshare (util-linux) is not installed")
    done = run_bench("--quick", "--only", "turn_overhead_ms",
                     prefix=("unshare", "-rm", "sh", "-c", NO_NAMESPACES, "sh"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "bench: failed: turn_overhead_ms" in done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("turn_overhead_ms"))
    assert "failed: RuntimeError: previews need user namespaces" in row
