"""The task benchmark's results: a summary per model, system and suite, Markdown, a chart.

The Markdown goes into docs/benchmarks.md between two markers, so `python -m benchmarks.bench` can
rewrite the figures above it and keep this section; the chart is drawn by matplotlib in
the incumbent's venv (.bench/), as bench/report.py draws its own.
"""

from __future__ import annotations

import os
import re
import statistics
import time
from pathlib import Path
from typing import Any

from benchmarks.bench.report import draw
from benchmarks.tasks.rules import counts, fired_line, label

START = "<!-- tasks: written by python -m benchmarks.tasks -->"
END = "<!-- tasks: end -->"
SYSTEMS = {"ours": "assistant (ours)", "oi": "open-interpreter 0.4.3"}

PLOT_SCRIPT = r'''
import json, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
data = json.loads(open(sys.argv[1]).read())
groups = data["groups"]
fig, (rate, time) = plt.subplots(1, 2, figsize=(11, 0.7 * len(groups) + 1.8))
y = list(range(len(groups)))
colours = {"ours": "#2b7bba", "oi": "#c0504d"}
for system, shift in (("ours", -0.2), ("oi", 0.2)):
    rows = [g[system] for g in groups]
    rate.barh([i + shift for i in y], [r["pass_rate"] if r else 0 for r in rows], height=0.4,
              color=colours[system], label=data["labels"][system])
    time.barh([i + shift for i in y], [r["median_s"] if r else 0 for r in rows], height=0.4,
              color=colours[system], label=data["labels"][system])
    time.plot([r["worst_s"] if r else 0 for r in rows], [i + shift for i in y], "k|",
              markersize=9)
    for i, r in enumerate(rows):
        if r:
            rate.text(r["pass_rate"] + 1, i + shift, f"{r['passed']}/{r['tasks']}",
                      va="center", fontsize=8)
            time.text(r["median_s"] + 1, i + shift, f"{r['median_s']:.0f}", va="center",
                      fontsize=8)
for ax in (rate, time):
    ax.set_yticks(y, [g["name"] for g in groups])
    ax.invert_yaxis()
rate.set_xlim(0, 110)
rate.set_xlabel("tasks passed, % (higher is better)")
time.set_xlabel("median task time, s (| = worst; lower is better)")
time.axvline(120, color="grey", linestyle=":", linewidth=1)
rate.legend(loc="lower right", fontsize=8)
fig.suptitle(data["title"], fontsize=10)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
'''


def merged(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One result per model and set of rules: runs of the same model without the same rules
    (parts of its tasks measured by separate, possibly simultaneous commands) joined, each
    command and code version kept."""
    out: dict[str, dict[str, Any]] = {}
    for run in runs:
        into = out.get(label(run))
        if into is None:
            out[label(run)] = {**run, "tasks": list(run["tasks"])}
            continue
        for key in ("command", "code", "date"):
            into[key] = f"{into.get(key, '?')}`; `{run.get(key, '?')}"
        into["load"] = [*into["load"], *run["load"]]
        into["tasks"] += run["tasks"]
    return list(out.values())


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Pass rate, median and worst time, tokens per task for one group of task results."""
    times = [r["seconds"] for r in rows]
    generated = [r["tokens"].get("generated", 0) for r in rows]
    evaluated = [r["tokens"].get("prompt_evaluated", 0) for r in rows]
    passed = sum(1 for r in rows if r["passed"])
    return {
        **counts(rows),
        "tasks": len(rows),
        "passed": passed,
        "pass_rate": round(100 * passed / len(rows), 1) if rows else 0.0,
        "median_s": round(statistics.median(times), 1) if times else 0.0,
        "worst_s": round(max(times), 1) if times else 0.0,
        "prompt_tokens_per_task": round(statistics.median(evaluated)) if rows else 0,
        "generated_tokens_per_task": round(statistics.median(generated)) if rows else 0,
        "tokens_total": sum(generated) + sum(evaluated),
    }


def summaries(results: dict[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """suite -> system -> summary, for one model's results."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for suite in dict.fromkeys(r["suite"] for r in results["tasks"]):
        for system in dict.fromkeys(r["system"] for r in results["tasks"]):
            rows = [r for r in results["tasks"] if r["suite"] == suite and r["system"] == system]
            if rows:
                out.setdefault(suite, {})[system] = summarize(rows)
    return out


def text_table(results: dict[str, Any]) -> str:
    lines = [f"{label(results)}: {results['command']}"]
    for suite, systems in summaries(results).items():
        for system, s in systems.items():
            lines.append(
                f"  {suite:5} {system:4} {s['passed']:3}/{s['tasks']:<3} {s['pass_rate']:5.1f}%  "
                f"median {s['median_s']:5.1f} s  worst {s['worst_s']:5.1f} s  tokens/task "
                f"{s['prompt_tokens_per_task']} in, {s['generated_tokens_per_task']} out")
            if system == "ours":
                ours = [r for r in results["tasks"]
                        if r["suite"] == suite and r["system"] == "ours"]
                lines.append(f"        {fired_line(ours)}")
    return "\n".join(lines)


def signs(row: dict[str, Any]) -> list[str]:
    """What a failed task's event log shows about why, for the people tuning the loop."""
    log = row["log"]
    codes = [str(r["code"]) for r in log if "code" in r]
    outputs = [str(r.get("output", "")) for r in log if "exit_status" in r]
    found = []
    if row["end_reason"] not in ("", "answered"):
        found.append(f"turn ended: {row['end_reason']}")
    if not codes:
        found.append("no code proposed")
    if any(re.search(r"\bsudo\b", c) for c in codes):
        found.append("sudo")
    # The task's own folder (/tmp/task-*/work), given in the system message, is fine.
    if any(re.search(r"(^|[\s'\"(])/(home|tmp|Users|root|path)/(?!task-\w+/work)", c)
           for c in codes):
        found.append("absolute path outside the folder")
    if any(re.search(r"\b(nano|vim?|less|more)\b\s", c) for c in codes):
        found.append("editor or pager")
    if any("SyntaxError" in o for o in outputs):
        found.append("SyntaxError")
    if any("command not found" in o or "No such file" in o for o in outputs):
        found.append("missing command or file")
    if len(codes) != len(set(codes)):
        found.append("same code proposed again")
    return found


def failures(results: dict[str, Any], system: str = "ours") -> list[str]:
    """One line per failed task: the check's reason, then what the log shows."""
    lines = []
    for row in results["tasks"]:
        if row["system"] == system and not row["passed"]:
            shown = "; ".join(signs(row))
            lines.append(f"{row['suite']}/{row['name']}: {row['reason']}"
                         + (f" [{shown}]" if shown else ""))
    return lines


def markdown(runs: list[dict[str, Any]], chart: str | None) -> str:
    """The tasks section of docs/benchmarks.md, for one or more models' results."""
    head = ["model", "tasks", "system", "passed", "pass rate", "median s", "worst s",
            "prompt tokens / task", "generated tokens / task"]
    lines = [
        START,
        "## Tasks, side by side",
        "",
        "Generated by `python -m benchmarks.tasks`; do not edit by hand. Each task runs in a fresh "
        "folder holding its files; a check reads the files left behind and the final answer. "
        "Every proposal is approved as by the user (ours: an approver answering for the user; "
        "theirs: `auto_run`). Both systems talk to the same `llama_cpp.server` and model. A "
        "task is stopped at 120 s. Time is from the request to the final answer; tokens are "
        "counted by the server per task (prompt tokens it evaluated, beyond its cache, and "
        "tokens generated), medians per task. `own`: the project's tasks; `blind`: tasks "
        "written without reading the prompt or the loop code (the loop was later changed "
        "while looking at how it failed them); `fresh`: 24 more written the same way after "
        "those changes (the loop was later changed again, looking at how it failed them); "
        "`unseen`: 24 more written the same way after that (the loop was changed later, having "
        "read only one line per failed task); `heldout`: 32 more written the same way, never "
        "looked at before these runs; `novel`: 24 more written the same way without reading "
        "the other suites' tasks either, after the loop's rules had been pruned on three of "
        "them, never tuned on.",
        "",
    ]
    for run in runs:
        lines.append(f"- {label(run)}: `{run['command']}` (started `{run['date']}`; ours at "
                     f"`{run.get('code', '?')}`); server threads {run.get('threads', '?')}; load "
                     f"average (1 min) from {min(run['load']):.1f} to {max(run['load']):.1f} "
                     f"on {os.cpu_count()} cores")
    lines += ["", "| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for run in runs:
        for suite, systems in summaries(run).items():
            for system, s in systems.items():
                lines.append("| " + " | ".join([
                    label(run), suite, SYSTEMS.get(system, system),
                    f"{s['passed']}/{s['tasks']}", f"{s['pass_rate']:.0f} %",
                    f"{s['median_s']:.1f}", f"{s['worst_s']:.1f}",
                    str(s["prompt_tokens_per_task"]), str(s["generated_tokens_per_task"])]) + " |")
    for run in runs:
        failed = failures(run)
        if failed:
            suites = ", ".join(summaries(run))
            lines += ["", f"Ours, failed on {label(run)} ({suites} tasks), with what its log "
                      "shows in brackets:", ""]
            lines += [f"- {line}" for line in failed]
    if chart:
        lines += ["", f"![tasks passed and median task time, ours vs the incumbent]({chart})"]
    lines.append(END)
    return "\n".join(lines) + "\n"


def section_of(text: str, start: str = START, end: str = END) -> str:
    """The section between `start` and `end` (the tasks one by default) in a
    docs/benchmarks.md text ("" when it has none), for `python -m benchmarks.bench` to keep when it
    rewrites the figures above it."""
    if start not in text or end not in text:
        return ""
    return "\n" + start + text.split(start, 1)[1].split(end, 1)[0] + end + "\n"


def write_section(path: Path, section: str, start: str = START, end: str = END) -> None:
    """Put `section` into `path` in place of the previous one between `start` and `end`
    (or at the end)."""
    old = path.read_text() if path.exists() else ""
    if start in old and end in old:
        before, rest = old.split(start, 1)
        after = rest.split(end, 1)[1].lstrip("\n")
        new = before + section + after
    else:
        new = (old.rstrip("\n") + "\n\n" if old else "") + section
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(new)


def chart(runs: list[dict[str, Any]], python: Path, out: Path) -> None:
    """Pass rate and median time, ours beside the incumbent, one group per model and suite."""
    groups = []
    for run in runs:
        for suite, systems in summaries(run).items():
            groups.append({"name": f"{label(run)}\n{suite} tasks",
                           "ours": systems.get("ours"), "oi": systems.get("oi")})
    data = {"groups": groups, "labels": SYSTEMS,
            "title": f"Tasks on a local model, 2 cores — {time.strftime('%Y-%m-%d')}"}
    draw(python, PLOT_SCRIPT, data, out)
