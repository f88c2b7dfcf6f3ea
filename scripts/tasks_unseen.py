"""Blind benchmark tasks, set 3 (benchmarks/tasks/unseen.yaml), written after the loop had
been tuned on `fresh`. Run this file to self-test every task:

    .venv/bin/python scripts/tasks_unseen.py
"""

from __future__ import annotations

import sys

import tasks_data

TASKS = tasks_data.load("unseen")

if __name__ == "__main__":
    sys.exit(1 if tasks_data.self_test("unseen") else 0)
