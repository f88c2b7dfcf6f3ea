"""Blind benchmark tasks, set 2 (benchmarks/tasks/fresh.yaml), written after the loop had
been tuned on how it failed `blind`. Run this file to self-test every task:

    .venv/bin/python scripts/tasks_fresh.py
"""

from __future__ import annotations

import sys

import tasks_data

TASKS = tasks_data.load("fresh")

if __name__ == "__main__":
    sys.exit(1 if tasks_data.self_test("fresh") else 0)
