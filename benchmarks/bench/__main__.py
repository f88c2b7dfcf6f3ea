"""`python -m benchmarks.bench`: measure the tracked figures (cli.py says how)."""

from benchmarks.venv import run_in_venv

run_in_venv("benchmarks.bench", "benchmarks.bench.cli")
