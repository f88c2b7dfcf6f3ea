"""scripts/bench.py still runs and reports in its documented shape (a smoke test, not a timing)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "scripts" / "bench.py"


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, stdin=subprocess.DEVNULL, check=False)


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
    assert f"| `run_python_ms` | {figures['run_python_ms']:.4g}" in markdown.read_text()
    row = next(line for line in done.stdout.splitlines() if line.startswith("run_python_ms"))
    assert row.split()[-2:] == ["5", met]


def test_unknown_figures_and_a_chart_without_peers_are_refused() -> None:
    done = run_bench("--only", "warp_speed_ms")
    assert done.returncode == 2
    assert "unknown figure(s): warp_speed_ms" in done.stderr
    done = run_bench("--chart", "x.png")
    assert done.returncode == 2
    assert "add --peers" in done.stderr


def test_quick_leaves_the_slow_figures_to_the_full_run_unless_named() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    import bench
    from bench_registry import FIGURE_NAMES, QUICK, Bench

    quick = Bench(quick=True)
    assert set(FIGURE_NAMES) > QUICK
    assert not bench.left_to_full_run(quick, "turn_overhead_ms", None)
    assert bench.left_to_full_run(quick, "voice_turn_overhead_ms", None)
    assert not bench.left_to_full_run(quick, "voice_turn_overhead_ms", {"voice_turn_overhead_ms"})
    assert not bench.left_to_full_run(Bench(quick=False), "voice_turn_overhead_ms", None)
