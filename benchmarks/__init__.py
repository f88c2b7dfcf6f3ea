"""The project's benchmarks, run from the project's folder with the project's venv:
`python -m benchmarks.bench` (the tracked figures), `python -m benchmarks.tasks` (the
task suites, whose data is in tasks/*.yaml) and `python -m benchmarks.redteam` (the
attempts in redteam/*.json against the policy and the gate). Not shipped with the
assistant: nothing under assistant/ imports this package."""
