"""The bench results beside the targets and the incumbent: a text table, Markdown, a chart.

Targets live here, next to the table that judges them; the chart is drawn by matplotlib
in the incumbent's venv (.bench/), so it never becomes a dependency of ours.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

Values = dict[str, float | None]

# name -> (kind, bound): "max" means value <= bound, "below" value < bound, "min" value >= bound.
TARGETS: dict[str, tuple[str, float]] = {
    "help_s": ("max", 0.3),
    "run_python_ms": ("max", 5),
    "run_shell_ms": ("max", 10),
    "run_js_ms": ("max", 10),
    "turn_overhead_ms": ("max", 50),
    "stt_release_to_text_ms_5s": ("max", 150),
    "stt_wer_test": ("max", 0.05),
    "stt_wer_test_vs_naive": ("max", 0.6),
    "stt_silence_words": ("max", 0),
    "stt_hint_cost_pct": ("max", 10),  # the screen's words in Whisper's prompt
    "tts_first_audio_ms": ("max", 400),  # the default engine, Piper
    "tts_first_audio_ms_espeak_ng": ("max", 150),
    "tts_first_audio_ms_pyttsx3": ("max", 150),
    "screenshot_ms": ("max", 40),
    "click_text_sparse_ms": ("max", 300),
    "click_text_dense_ms": ("max", 1000),
    "text_map_ms": ("max", 500),  # a dialog over a browser window, both with their trees
    "a11y_tree_ms": ("max", 150),
    "screen_text_tokens": ("max", 320),
    "click_a11y_ms": ("max", 60),
    "voice_turn_overhead_ms": ("max", 500),
    "voice_first_feedback_ms": ("max", 300),
    "spoken_proposal_s": ("max", 4),
    "voice_effect_spoken_s": ("max", 2),  # the proposal complete to its effect spoken
    "mcp_call_overhead_ms": ("max", 15),  # over the MCP server's own time for the call
    "daemon_turn_growth_mb": ("max", 1),
    "daemon_idle_rss_mb": ("max", 350),
    "daemon_idle_cpu_pct": ("below", 1),
    "web_event_latency_ms": ("max", 20),  # an event in the server to the page's DOM
    "embedded_task_median_s": ("max", 20),
    "cli_first_token_warm_s": ("max", 1),  # a second command while the server is kept
    "voice_first_audio_embedded_s": ("max", 3),  # any sound: the earcon
    "voice_first_word_embedded_s": ("max", 4),  # the model writing its first sentence
    "voice_popup_embedded_s": ("max", 8),
}
SIGNS = {"max": "≤", "below": "<", "min": "≥"}

PLOT_SCRIPT = r'''
import json, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
data = json.loads(open(sys.argv[1]).read())
names = [row["name"] for row in data["rows"]]
fig, ax = plt.subplots(figsize=(9, 0.55 * len(names) + 1.6))
y = range(len(names))
ours = [row["ours"] for row in data["rows"]]
theirs = [row["theirs"] for row in data["rows"]]
ax.barh([i + 0.2 for i in y], ours, height=0.4, label="assistant (ours)", color="#2b7bba")
ax.barh([i - 0.2 for i in y], theirs, height=0.4, label=data["peer"], color="#c0504d")
def label(value):
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"
for i, row in enumerate(data["rows"]):
    ax.text(row["ours"] * 1.1, i + 0.2, label(row["ours"]), va="center", fontsize=8)
    ax.text(row["theirs"] * 1.1, i - 0.2, label(row["theirs"]), va="center", fontsize=8)
ax.set_yticks(list(y), names)
ax.invert_yaxis()
ax.set_xscale("log")
ax.set_xlabel("median, log scale (unit in the figure name; lower is better)")
ax.set_title(data["title"], fontsize=10)
ax.set_xlim(right=max(theirs + ours) * 8)
ax.legend(loc="lower right", fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
'''


def met(name: str, value: float | None) -> str:
    """'yes', 'no' or '' (no target, or nothing measured)."""
    if name not in TARGETS or value is None:
        return ""
    kind, bound = TARGETS[name]
    ok = {"max": value <= bound, "below": value < bound, "min": value >= bound}[kind]
    return "yes" if ok else "no"


def target_text(name: str) -> str:
    if name not in TARGETS:
        return ""
    kind, bound = TARGETS[name]
    return f"{SIGNS[kind]} {bound:g}"


def ratio(ours: float | None, theirs: float | None) -> float | None:
    return ours / theirs if ours is not None and theirs else None


def _shown(value: float | None) -> str:
    return "null" if value is None else f"{value:.4g}"


def rows(values: Values, peers: Values | None) -> list[list[str]]:
    """One row per figure: name, ours, theirs, ratio, target, met?"""
    names = list(values) + [n for n in (peers or {}) if n not in values]
    out = []
    for name in names:
        ours = values.get(name)
        theirs = (peers or {}).get(name)
        both = ratio(ours, theirs)
        shown_ratio = "" if both is None else f"{both:.3g}"
        theirs_text = _shown(theirs) if peers is not None and name in peers else ""
        out.append([name, _shown(ours), theirs_text, shown_ratio, target_text(name),
                    met(name, ours)])
    return out


def text_table(values: Values, reasons: dict[str, str], peers: Values | None,
               peer_reasons: dict[str, str]) -> str:
    """The console table; notes say why a figure is null (ours first, then theirs)."""
    head = ["figure", "ours", "theirs", "ratio", "target", "met"]
    body = rows(values, peers)
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + "  note"]
    lines.append("-" * (sum(widths) + 2 * len(widths) + 20))
    for row in body:
        name = row[0]
        note = reasons.get(name) or (f"theirs: {peer_reasons[name]}" if name in peer_reasons
                                     else "")
        cells = "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
        lines.append(f"{cells}  {note}".rstrip())
    return "\n".join(lines)


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.system()} {platform.release()}, {cpu}, {os.cpu_count()} cores"


def markdown(  # noqa: PLR0913 - both sides' figures and reasons, and how they were made
        values: Values, reasons: dict[str, str], peers: Values | None,
        peer_reasons: dict[str, str], peer: str, runs: str, chart: str | None,
        commit: str = "") -> str:
    """The whole docs/benchmarks.md: how it was made (with the `commit` measured), the
    table, the reasons, the chart."""
    when = time.strftime("%Y-%m-%d %H:%M %Z")
    head = ["figure", "ours", f"theirs ({peer})", "ours/theirs", "target", "met?"]
    lines = [
        "# Benchmarks",
        "",
        "Generated by `python -m benchmarks.bench --peers --markdown docs/benchmarks.md "
        "--chart docs/benchmarks.png`, which rewrites this part whole and keeps the "
        "sections after it as they are (each says how and when it was made); do not edit "
        "this part by hand.",
        "",
        f"- Date: {when}",
        *([f"- Commit: {commit}"] if commit else []),
        f"- Machine: {machine()}",
        f"- Each figure is the median of N runs after a warm-up: {runs}.",
        "- Seconds end in `_s`, milliseconds in `_ms`, megabytes in `_mb`; lower is better.",
        "- A ratio below 1 means we are faster (or smaller) than the incumbent.",
        "- `import_rss_mb`: resident memory of a fresh process after `import assistant` "
        "(theirs: `from interpreter import interpreter`).",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---" for _ in head) + "|",
    ]
    for row in rows(values, peers):
        lines.append("| " + " | ".join([f"`{row[0]}`", *row[1:]]) + " |")
    notes = [(n, r) for n, r in reasons.items()] + [
        (n, f"theirs: {r}") for n, r in peer_reasons.items()
    ]
    if notes:
        lines += ["", "Why a figure is null:", ""]
        lines += [f"- `{name}`: {reason}" for name, reason in notes]
    if chart:
        lines += ["", f"![ours vs {peer}, log scale]({chart})"]
    return "\n".join(lines) + "\n"


def sections_after(text: str) -> str:
    """Everything after the figures in an old docs/benchmarks.md, as it is: the sections
    the tasks and speech scripts write between their markers and those written by hand,
    each with its own date (the figures part has no "## " heading and no marker)."""
    for start, line in enumerate(text.splitlines(keepends=True)):
        if line.startswith(("## ", "<!-- ")):
            return "\n" + "".join(text.splitlines(keepends=True)[start:])
    return ""


def chart(values: Values, peers: Values, peer: str, python: Path, out: Path) -> None:
    """A log-scale bar chart of every figure both sides measured, drawn in `python`."""
    both = [
        {"name": n, "ours": values[n], "theirs": peers[n]}
        for n in values
        if values.get(n) and peers.get(n)
    ]
    data = {"rows": both, "peer": peer,
            "title": f"assistant vs {peer} — medians, {time.strftime('%Y-%m-%d')}"}
    draw(python, PLOT_SCRIPT, data, out)


def draw(python: Path, plot: str, data: Mapping[str, object], out: Path) -> None:
    """Run a matplotlib `plot` script on `data` with `python` (the incumbent's venv has
    matplotlib; ours does not need it), writing the PNG to `out`."""
    with tempfile.TemporaryDirectory(prefix="chart-") as folder:
        source = Path(folder) / "data.json"
        source.write_text(json.dumps(data))
        script = Path(folder) / "plot.py"
        script.write_text(plot)
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([str(python), str(script), str(source), str(out.resolve())],
                       check=True, timeout=120, capture_output=True)
