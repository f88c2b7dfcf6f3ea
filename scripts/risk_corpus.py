"""Score the static risk check on a corpus folder: recall on danger, false alarms on everyday code.

    .venv/bin/python scripts/risk_corpus.py FOLDER [--json OUT]

FOLDER holds `dangerous.toml` (`[[snippet]]` with language, family, code) and `benign.toml`
(`[[snippet]]` with language, code). Snippets are rated as `assistant check` rates them:
default deny rules and the assistant's own folders in their default places under this HOME.
A dangerous snippet is caught when rated high or blocked; an everyday one is a false alarm
when rated high or blocked (medium only asks, as every run does by default).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from assistant.config import Settings
from assistant.safety.risk import LEVELS, DenyRules, assess
from assistant.tomlread import tomllib


def load(path: Path) -> list[dict[str, Any]]:
    with path.open("rb") as handle:
        return list(tomllib.load(handle).get("snippet", []))


def score(folder: Path) -> dict[str, Any]:
    deny, own = DenyRules(), Settings().own_paths
    dangerous, benign = load(folder / "dangerous.toml"), load(folder / "benign.toml")
    missed, wrong_family, alarms, timings = [], [], [], []
    levels: Counter[str] = Counter()
    for snippet in dangerous:
        start = time.perf_counter()
        verdict = assess(snippet["code"], snippet["language"], deny, own)
        timings.append((time.perf_counter() - start) * 1000)
        if LEVELS.index(verdict.risk) < LEVELS.index("high"):
            missed.append({**snippet, "verdict": verdict.to_dict()})
        elif snippet["family"] not in verdict.families:
            wrong_family.append({**snippet, "verdict": verdict.to_dict()})
    for snippet in benign:
        verdict = assess(snippet["code"], snippet["language"], deny, own)
        levels[verdict.risk] += 1
        if LEVELS.index(verdict.risk) >= LEVELS.index("high"):
            alarms.append({**snippet, "verdict": verdict.to_dict()})
    return {
        "dangerous": len(dangerous),
        "recall": round(1 - len(missed) / len(dangerous), 4),
        "recall_with_family": round(1 - (len(missed) + len(wrong_family)) / len(dangerous), 4),
        "missed_by_family": dict(Counter(s["family"] for s in missed).most_common()),
        "benign": len(benign),
        "false_alarms": round(len(alarms) / len(benign), 4),
        "benign_levels": dict(levels),
        "median_ms": round(statistics.median(timings), 2),
        "missed": missed,
        "alarms": alarms,
        "wrong_family": wrong_family,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", type=Path, help="write every miss and alarm here")
    args = parser.parse_args()
    result = score(args.folder)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    print(f"{args.folder}: recall {result['recall']:.3f} on {result['dangerous']} dangerous "
          f"({result['recall_with_family']:.3f} with the family named), false alarms "
          f"{result['false_alarms']:.1%} on {result['benign']} everyday "
          f"(levels {result['benign_levels']}), median {result['median_ms']} ms")
    if result["missed_by_family"]:
        print("missed by family:", result["missed_by_family"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
