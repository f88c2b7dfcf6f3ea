"""The embedded model's figures for real work: a task's time, and a voice turn's first
sound, first spoken word and proposal on screen.

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

from benchmarks.bench.base import Bench, NotMeasurable
from benchmarks.bench.daemon import POPUP, PROPOSAL_SAID, BenchDaemon, bench_daemon, settle
from benchmarks.tasks import cli as tasks
from benchmarks.tasks import run as tasks_run
from benchmarks.tasks import suite as tasks_suite

# Short everyday tasks from the task benchmark (benchmarks/tasks/suite.py), in this order.
QUICK_TASKS = ("logs_to_old", "csv_total", "hello_file", "json_port", "count_lines")


@functools.cache
def embedded_model() -> Any:
    """The embedded model a user gets (base.isolated_environment names the user's
    installed weights)."""
    from assistant.config import load_settings
    from assistant.servers import embedded

    settings = load_settings({})
    if not embedded.available(settings):
        raise NotMeasurable(f"the embedded model is not installed ({embedded.missing(settings)})")
    return embedded.chosen(settings)


def embedded_task_median_s(bench: Bench) -> float:
    """Median time from request to final answer over short everyday tasks, each in a fresh
    folder, run by the task suites' runner (every proposal approved as by the user)."""
    model = embedded_model()
    chosen = [t for name in QUICK_TASKS for t in tasks_suite.TASKS if t["name"] == name]
    with tempfile.TemporaryDirectory(prefix="bench-tasks-") as folder:
        log = Path(folder) / "server.log"
        with tasks.serve(model, log) as server:
            config = {"settings": tasks.our_settings(server)}
            times = [tasks_run.run_task(task, "ours", config, tasks_run.ServerLog(log)).seconds
                     for task in chosen[: bench.reps(5, 1)]]
    return statistics.median(times)


def first_sounds(daemon: Any, monitor: Any, audio: Any) -> tuple[float, float]:
    """One spoken request: seconds from key release to the first sound (the earcon, when
    it is on) and to the proposal's first spoken word (its plan, spoken as it streams;
    else the line that reads it out); then Cancel, and back to idle. Nothing else is
    heard in between: the daemon was silent at release."""
    from tests.support.audio import first_word

    mark = daemon.say(audio)
    released = time.monotonic()
    daemon.wait_for(PROPOSAL_SAID, 120, mark)
    said = next(at for at, line in zip(daemon.stamps[mark:], daemon.lines[mark:], strict=False)
                if PROPOSAL_SAID in line)
    while (word := first_word(monitor, released)) is None:
        if time.monotonic() - said > 30:
            raise RuntimeError("the proposal was not heard within 30 s of being said")
        time.sleep(0.01)
    sound = min(at for at in monitor.loud_times() if at > released)
    daemon.cancel()
    daemon.wait_idle(180)
    return sound - released, word - released


@contextlib.contextmanager
def embedded_daemon() -> Iterator[Any]:
    """A daemon with no model configured, so it runs the embedded model itself, as for a
    new user; the scripted one is stopped first (one daemon holds the hotkey)."""
    embedded_model()
    if bench_daemon.cache_info().currsize:
        bench_daemon().stop()
    daemon = BenchDaemon(embedded=True)
    try:
        yield daemon
    finally:
        daemon.stack.close()


@functools.cache
def embedded_voice_turns(turns: int) -> list[tuple[float, float]]:
    """Key release to the first sound and to the first spoken word, for `turns` spoken
    requests to a daemon with no model configured: it runs the embedded model itself.
    The request is a recorded "How much space is left on my disk?"; one more turn first
    warms the model's cache and is not counted."""
    from tests.support.audio import speaker_monitor

    with embedded_daemon() as daemon:
        audio = daemon.fixtures["piper_disk"]["audio"]
        times = []
        with speaker_monitor(daemon.pulse) as monitor:
            for _ in range(1 + turns):
                times.append(first_sounds(daemon, monitor, audio))
                settle(daemon)
        return times[1:]


def voice_first_audio_embedded_s(bench: Bench) -> float:
    """Key release to the first sound on the speaker, whatever it is, with the embedded
    model (median): the earcon that says the request was heard, with the default
    settings; a proposal's first spoken word with `earcon = false`."""
    return statistics.median(sound for sound, _ in embedded_voice_turns(bench.reps(3, 1)))


def voice_first_word_embedded_s(bench: Bench) -> float:
    """Key release to a proposal's first spoken word (its plan, or the line that reads it
    out) with the embedded model, the earcon before it left out (median): the model
    writing its first sentence, the same turns as voice_first_audio_embedded_s."""
    return statistics.median(word for _, word in embedded_voice_turns(bench.reps(3, 1)))


def voice_popup_embedded_s(bench: Bench) -> float:
    """Key release to the proposal's buttons on screen with the embedded model (the same
    recorded request; the first turn warms the model's cache and is not counted)."""
    with embedded_daemon() as daemon:
        audio = daemon.fixtures["piper_disk"]["audio"]
        times = []
        for _ in range(1 + bench.reps(3, 1)):
            times.append(daemon.release_to(POPUP, audio))
            settle(daemon)
        return statistics.median(times[1:])
