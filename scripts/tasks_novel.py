"""Blind benchmark tasks, set 5 (benchmarks/tasks/novel.yaml), written without reading the
prompt, the loop or the other suites' tasks. Run this file to self-test every task:

    .venv/bin/python scripts/tasks_novel.py
"""

from __future__ import annotations

import sys

import tasks_data

TASKS = tasks_data.load("novel")

if __name__ == "__main__":
    sys.exit(1 if tasks_data.self_test("novel") else 0)
