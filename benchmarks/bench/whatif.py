"""The what-if figures: a preview's overhead over the run itself, and an undo's time.

Both on a folder of 1,000 files where the code moves 5 of them into a new folder, the
everyday shape of a tidy-up.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.bench.base import Bench, NotMeasurable

FILES = 1000
MOVE = "mkdir old && mv f0001.log f0002.log f0003.log f0004.log f0005.log old/"


def _folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="assistant-bench-whatif-"))
    for number in range(FILES):
        (folder / f"f{number:04d}.log").write_text(f"line {number}\n")
    return folder


def _put_back(folder: Path) -> None:
    old = folder / "old"
    if old.exists():
        for path in old.iterdir():
            path.rename(folder / path.name)
        old.rmdir()


def _median(action: Callable[[], object], reset: Callable[[], object], n: int) -> float:
    """Median wall time of `action`, with `reset` (untimed) after each; one warm-up."""
    times = []
    for index in range(n + 1):
        start = time.perf_counter()
        action()
        if index:
            times.append(time.perf_counter() - start)
        reset()
    return statistics.median(times)


def preview_overhead_ms(bench: Bench) -> float:
    """A preview of the 5-file move (in a fresh what-if runtime) minus the same move run
    for real in the warm shell runtime, in ms."""
    from assistant.runtime import Runtimes
    from assistant.whatif.preview import preview, problem

    if problem():
        raise NotMeasurable(problem())
    folder = _folder()
    try:
        with Runtimes(cwd=str(folder)) as runtimes:
            def previewed() -> None:
                steps = preview(runtimes, "shell", MOVE)
                while True:
                    try:
                        next(steps)
                    except StopIteration as done:
                        if len(done.value.effect.moved) != 5:
                            raise RuntimeError(f"unexpected effect: {done.value}") from None
                        return

            def real() -> None:
                list(runtimes.run("shell", MOVE))

            runs = bench.reps(15, 5)
            whatif = _median(previewed, lambda: None, runs)
            plain = _median(real, lambda: _put_back(folder), runs)
        return 1000 * (whatif - plain)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def undo_ms(bench: Bench) -> float:
    """Putting back the 5-file move after it ran as a transaction, in ms."""
    from assistant.whatif.preview import problem
    from assistant.whatif.transaction import TransactionalRuntimes
    from assistant.whatif.undo import UndoStore

    if problem():
        raise NotMeasurable(problem())
    folder = _folder()
    store = UndoStore(Path(tempfile.mkdtemp(prefix="assistant-bench-undo-")))
    try:
        with TransactionalRuntimes(cwd=str(folder), store=store) as runtimes:
            def committed() -> None:
                list(runtimes.run("shell", MOVE))

            times = []
            for _ in range(bench.reps(10, 4)):
                committed()
                start = time.perf_counter()
                store.undo()
                times.append(time.perf_counter() - start)
                if (folder / "old").exists():
                    raise RuntimeError("undo left the new folder behind")
        return 1000 * statistics.median(times)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(store.folder, ignore_errors=True)
