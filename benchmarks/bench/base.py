"""What the figures' modules share: one bench run's settings and resources, the
exception for a figure that has no meaning here yet, timing a repeated action, and the
environment that keeps a measurement off the user's own config and servers."""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.venv import VENV_PYTHON

VENV_BIN = VENV_PYTHON.parent


class NotMeasurable(Exception):
    """The figure has no meaning here yet (a part or a tool is missing); not a failure."""


class Bench:
    """Settings of one bench run and the resources figures share (one Runtimes, as the core)."""

    def __init__(self, quick: bool) -> None:
        self.quick = quick
        self._runtimes: Any = None

    def reps(self, full: int, quick: int) -> int:
        return quick if self.quick else full

    def runtimes(self) -> Any:
        if self._runtimes is None:
            from assistant.runtime import Runtimes

            self._runtimes = Runtimes()
        return self._runtimes

    def close(self) -> None:
        if self._runtimes is not None and hasattr(self._runtimes, "close"):
            self._runtimes.close()


Measure = Callable[[Bench], float]


def median_time(action: Callable[[], object], n: int, warmup: int = 1) -> float:
    """Median wall time of `action` in seconds over n runs, after `warmup` untimed runs."""
    for _ in range(warmup):
        action()
    times = []
    for _ in range(n):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@contextmanager
def isolated_environment() -> Iterator[None]:
    """Keep the bench off the user's config, journal, shared embedded server, price-list
    download and real Ollama.

    Runs before anything imports litellm, which reads these variables at import time.
    """
    from assistant.config import Settings
    from assistant.servers import embedded

    # The embedded weights setup installed in the user's data folder, by path.
    weights = embedded.chosen(Settings(embedded_model=os.environ.get(
        "ASSISTANT_EMBEDDED_MODEL", ""))).path
    scratch = Path(tempfile.mkdtemp(prefix="assistant-bench-"))
    for name in [n for n in os.environ if n.startswith("ASSISTANT_")]:
        del os.environ[name]
    if weights:
        os.environ["ASSISTANT_EMBEDDED_MODEL"] = str(weights)
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    os.environ["OLLAMA_API_BASE"] = "http://127.0.0.1:9"
    for sub, variable in (("config", "ASSISTANT_CONFIG_DIR"), ("data", "ASSISTANT_DATA_DIR"),
                          ("run", "ASSISTANT_RUNTIME_DIR")):
        (scratch / sub).mkdir(mode=0o700)
        os.environ[variable] = str(scratch / sub)
    try:
        yield
    finally:
        from assistant.servers import shared

        for running in shared.records():  # what the figures started and their keep-alive kept
            shared.stop(running)
        shutil.rmtree(scratch, ignore_errors=True)
