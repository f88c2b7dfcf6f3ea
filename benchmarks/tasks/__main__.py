"""`python -m benchmarks.tasks`: run the task suites (cli.py says how)."""

from benchmarks.venv import run_in_venv

run_in_venv("benchmarks.tasks", "benchmarks.tasks.cli")
