"""Which of the loop's rules acted in the task benchmark, and the ablation table: runs of
the same suites with a rule or a family off (`python -m benchmarks.tasks --without RULE`), side by
side with the run that kept them all.

A rule that acted is a `RuleFired` event the run logged (run.py), by its id in
assistant/checks/rules.toml; a send-back is one extra model call.
"""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any


def label(run: dict[str, Any]) -> str:
    """A run's name in tables: its model, its checks profile when one was chosen, and the
    rules it ran without."""
    name = run["model"] + (f" (profile {run['profile']})" if run.get("profile") else "")
    without = run.get("without", "")
    return f"{name} without {without}" if without else name


def fired(row: dict[str, Any]) -> list[str]:
    """The rule ids that acted in one task's turn, in order (skips left out)."""
    return [str(r["rule"]) for r in row.get("log", [])
            if "rule" in r and r.get("action") != "skipped"]


def extra_calls(row: dict[str, Any]) -> int:
    """The model calls the checks added to one task's turn."""
    return sum(1 for r in row.get("log", []) if r.get("action") == "send_back")


def asked(row: dict[str, Any]) -> int:
    """The proposals a person was asked to approve in one task's turn."""
    return sum(1 for r in row.get("log", []) if "proposal" in r)


def counts(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """For a group of our task results: the rules that acted and how often, the median
    extra model calls per task, the mean approvals asked per task, and the turns that
    ended without words."""
    return {
        "rules_fired": dict(Counter(rule for row in rows for rule in fired(row)).most_common()),
        "extra_calls_per_task": statistics.median([extra_calls(r) for r in rows]) if rows else 0,
        "asked_per_task": round(statistics.mean([asked(r) for r in rows]), 2) if rows else 0,
        "empty_answers": sum(1 for r in rows if not str(r.get("answer", "")).strip()),
    }


def fired_line(rows: list[dict[str, Any]]) -> str:
    """One line: each rule that acted, with how many times, most often first."""
    found = counts(rows)
    shown = ", ".join(f"{rule}×{n}" for rule, n in found["rules_fired"].items()) or "none"
    return (f"rules fired: {shown}; extra model calls per task (median) "
            f"{found['extra_calls_per_task']}; approvals asked per task (mean) "
            f"{found['asked_per_task']}; answers without words {found['empty_answers']}")


def ablation(runs: list[dict[str, Any]]) -> str:
    """The Markdown table of pass rates per suite, one row per run (all rules, or without
    some), ours only, with the extra calls, the approvals asked and the turns without
    words. A run that carried rows over from the run with all rules (`--acted-in`) says
    how many tasks it ran."""
    suites = list(dict.fromkeys(r["suite"] for run in runs for r in run["tasks"]))
    head = ["run", *suites, "extra calls / task", "asked / task", "no words"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for run in runs:
        ours = [r for r in run["tasks"] if r["system"] == "ours"]
        cells = [label(run)]
        for suite in suites:
            rows = [r for r in ours if r["suite"] == suite]
            passed = sum(1 for r in rows if r["passed"])
            ran = sum(1 for r in rows if not r.get("carried"))
            cells.append((f"{passed}/{len(rows)}" + (f" (ran {ran})" if ran < len(rows) else ""))
                         if rows else "")
        found = counts(ours)
        cells += [f"{found['extra_calls_per_task']:g}", f"{found['asked_per_task']:g}",
                  str(found["empty_answers"])]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
