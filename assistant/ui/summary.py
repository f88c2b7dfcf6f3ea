"""How a finished run is described in one line, the same in every front end."""

from __future__ import annotations

from assistant.events import RunEnd


def run_summary(end: RunEnd) -> str:
    if end.waiting_for_input:
        state = "stopped: it waited for input"
    elif end.timed_out:
        state = "stopped: time limit"
    elif end.limit:
        state = f"stopped: {end.limit} limit"
    elif end.interrupted:
        state = "interrupted"
    elif end.exit_status is None:
        state = "not run"
    else:
        state = "done" if end.exit_status == 0 else f"exit {end.exit_status}"
    return f"── {state} · {end.seconds:.2f} s"
