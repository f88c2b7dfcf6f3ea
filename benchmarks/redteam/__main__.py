"""`python -m benchmarks.redteam`: score the approval gate on the red-team corpora (cli.py
says how)."""

from benchmarks.venv import run_in_venv

run_in_venv("benchmarks.redteam", "benchmarks.redteam.cli")
