"""How a finished run is described in one line, and a previewed effect in a few, the
same in every front end (terminal, popup, web page)."""

from __future__ import annotations

from assistant.events import Effect, RunEnd

NOT_COVERED = "Not covered by the preview: "


def effect_lines(effect: Effect) -> list[str]:
    """The effect as a person reads it first: its sentence, the counts of what is created,
    modified, deleted and moved, then each thing the preview could not cover."""
    counts = " · ".join(f"{len(paths)} {label}" for label, paths in (
        ("created", effect.created), ("modified", effect.modified),
        ("deleted", effect.deleted), ("moved", effect.moved)) if paths)
    lines = [effect.summary] + ([counts] if counts else [])
    return lines + [NOT_COVERED + why for why in effect.unpreviewable]


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
