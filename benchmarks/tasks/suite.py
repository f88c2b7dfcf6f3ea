"""The task benchmark's own tasks (benchmarks/tasks/own.yaml): everyday jobs on files,
data, Node.js and the machine. The job done by hand for each is in tests/unit/test_tasks.py;
run this file to check that every task's checks fail on its untouched folder.
"""

from __future__ import annotations

import sys

from benchmarks.tasks import data as tasks_data
from benchmarks.tasks.reading import node_version

TASKS = tasks_data.load("own")

__all__ = ["TASKS", "node_version"]

if __name__ == "__main__":
    sys.exit(1 if tasks_data.self_test("own") else 0)
