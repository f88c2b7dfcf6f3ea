"""Blind benchmark tasks (benchmarks/tasks/blind.yaml), written without reading the prompt
or the loop. Run this file to self-test every task:

    .venv/bin/python scripts/tasks_blind.py
"""

from __future__ import annotations

import sys

import tasks_data

TASKS = tasks_data.load("blind")

if __name__ == "__main__":
    sys.exit(1 if tasks_data.self_test("blind") else 0)
