"""Blind benchmark tasks, set 4 (benchmarks/tasks/heldout.yaml), written after the failure
reasons of `unseen` had been read and never looked at since. Run this file to self-test
every task:

    .venv/bin/python scripts/tasks_heldout.py
"""

from __future__ import annotations

import sys

import tasks_data

TASKS = tasks_data.load("heldout")

if __name__ == "__main__":
    sys.exit(1 if tasks_data.self_test("heldout") else 0)
