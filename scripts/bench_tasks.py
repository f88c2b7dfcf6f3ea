"""The embedded model's figures for real work: a task's time, and a voice turn's first
spoken word and proposal on screen. Registered on import (bench_figures imports this
module).

Both use the embedded model a user gets, served as the assistant serves it.
"""

from __future__ import annotations

import contextlib
import functools
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench_registry import Bench, NotMeasurable, figure

# Short everyday tasks from the task benchmark (scripts/tasks_suite.py), in this order.
QUICK_TASKS = ("logs_to_old", "csv_total", "hello_file", "json_port", "count_lines")


@functools.cache
def embedded_model() -> Any:
    """The embedded model a user gets (bench.py names the user's installed weights)."""
    from assistant.config import load_settings
    from assistant.llm import embedded

    settings = load_settings({})
    if not embedded.available(settings):
        raise NotMeasurable(f"the embedded model is not installed ({embedded.missing(settings)})")
    return embedded.chosen(settings)


@figure("embedded_task_median_s", limit_s=900)
def embedded_task_median_s(bench: Bench) -> float:
    """Median time from request to final answer over short everyday tasks, each in a fresh
    folder, run by `tasks.py`'s runner (every proposal approved as by the user)."""
    import tasks
    import tasks_run
    import tasks_suite

    model = embedded_model()
    chosen = [t for name in QUICK_TASKS for t in tasks_suite.TASKS if t["name"] == name]
    with tempfile.TemporaryDirectory(prefix="bench-tasks-") as folder:
        log = Path(folder) / "server.log"
        with tasks.serve(model, log) as server:
            config = {"settings": tasks.our_settings(server)}
            times = [tasks_run.run_task(task, "ours", config, tasks_run.ServerLog(log)).seconds
                     for task in chosen[: bench.reps(5, 1)]]
    return statistics.median(times)


def first_word_of_proposal(daemon: Any, monitor: Any, audio: Any) -> float:
    """One spoken request: seconds from key release to the first sound of the proposal
    (its plan, spoken as it streams; else the line that reads it out); then Cancel, and
    back to idle. Nothing else is said in between: the daemon was silent at release."""
    from bench_daemon import PROPOSAL_SAID

    mark = daemon.say(audio)
    released = time.monotonic()
    daemon.wait_for(PROPOSAL_SAID, 120, mark)
    said = next(at for at, line in zip(daemon.stamps[mark:], daemon.lines[mark:], strict=False)
                if PROPOSAL_SAID in line)
    while not [at for at in monitor.loud_times() if at > released]:
        if time.monotonic() - said > 30:
            raise RuntimeError("the proposal was not heard within 30 s of being said")
        time.sleep(0.01)
    heard = min(at for at in monitor.loud_times() if at > released)
    daemon.cancel()
    daemon.wait_idle(180)
    return heard - released


@contextlib.contextmanager
def embedded_daemon() -> Iterator[Any]:
    """A daemon with no model configured, so it runs the embedded model itself, as for a
    new user; the scripted one is stopped first (one daemon holds the hotkey)."""
    from bench_daemon import BenchDaemon, bench_daemon

    embedded_model()
    if bench_daemon.cache_info().currsize:
        bench_daemon().stop()
    daemon = BenchDaemon(embedded=True)
    try:
        yield daemon
    finally:
        daemon.stack.close()


@figure("voice_first_audio_embedded_s", limit_s=900)
def voice_first_audio_embedded_s(bench: Bench) -> float:
    """Key release to the first sound on the speaker, whatever it is, with no model
    configured: the daemon runs the embedded model itself. The daemon plays no earcon, so
    that sound is a proposal's first spoken word (its plan, or the line that reads it out).
    The request is a recorded "How much space is left on my disk?"; the first turn warms
    the model's cache and is not counted."""
    from bench_daemon import settle

    from tests.support.audio import speaker_monitor

    with embedded_daemon() as daemon:
        audio = daemon.fixtures["piper_disk"]["audio"]
        times = []
        with speaker_monitor(daemon.pulse) as monitor:
            for _ in range(1 + bench.reps(3, 1)):
                times.append(first_word_of_proposal(daemon, monitor, audio))
                settle(daemon)
        return statistics.median(times[1:])


@figure("voice_popup_embedded_s", limit_s=900)
def voice_popup_embedded_s(bench: Bench) -> float:
    """Key release to the proposal's buttons on screen with the embedded model (the same
    recorded request; the first turn warms the model's cache and is not counted)."""
    from bench_daemon import POPUP, settle

    with embedded_daemon() as daemon:
        audio = daemon.fixtures["piper_disk"]["audio"]
        times = []
        for _ in range(1 + bench.reps(3, 1)):
            times.append(daemon.release_to(POPUP, audio))
            settle(daemon)
        return statistics.median(times[1:])
