"""Per-run limits on real runtime processes: each breach stops the run, says which limit,
and the next run works. Every program here is bounded, so a failing limit cannot harm
the machine: at most 40 sleeping processes, 400 MB, a few seconds of CPU."""

from __future__ import annotations

import os
import time
from pathlib import Path

from assistant.events import OutputChunk, RunEnd
from assistant.runtime import Runtimes
from assistant.runtime.watch import Limits, sample


def run(runtimes: Runtimes, language: str, code: str) -> RunEnd:
    events = list(runtimes.run(language, code, proposal_id="t"))
    assert all(isinstance(e, OutputChunk) for e in events[:-1])
    end = events[-1]
    assert isinstance(end, RunEnd)
    return end


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_process_limit_kills_the_group_and_the_next_run_works(tmp_path: Path) -> None:
    """A bounded stand-in for a fork bomb: 40 background processes against a limit of 10."""
    pids = tmp_path / "pids"
    bomb = f"for i in $(seq 40); do sleep 20 & echo $! >> {pids}; done; wait"
    with Runtimes(timeout=30, limits=Limits(processes=10)) as runtimes:
        started = time.monotonic()
        end = run(runtimes, "shell", bomb)
        assert time.monotonic() - started < 10
        assert end.limit == "processes" and end.restarted
        assert "process limit" in end.output and "max_processes" in end.output
        again = run(runtimes, "shell", "echo still here")
        assert again.exit_status == 0 and "still here" in again.output
    children = [int(pid) for pid in pids.read_text().split()]
    assert len(children) > 10
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in children)


def test_memory_limit() -> None:
    with Runtimes(timeout=30, limits=Limits(memory_mb=200)) as runtimes:
        run(runtimes, "python", "kept = 1")
        end = run(runtimes, "python", "import time\nx = b'x' * (400 * 2**20)\ntime.sleep(20)")
        assert end.limit == "memory" and "max_memory_mb" in end.output
        assert "state" in end.output  # the LLM is told the runtime's variables are gone
        again = run(runtimes, "python", "print('kept' in globals())")
        assert again.exit_status == 0 and "False" in again.output


def test_cpu_limit_counts_each_run_alone() -> None:
    busy = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}: pass\n"
    with Runtimes(timeout=30, limits=Limits(cpu_seconds=1.0)) as runtimes:
        for _ in range(2):  # 0.6 s each: together over the limit, each within it
            assert run(runtimes, "python", busy.format(s=0.6)).exit_status == 0
        end = run(runtimes, "python", "while True: pass")
        assert end.limit == "cpu" and "max_cpu_seconds" in end.output
        assert run(runtimes, "python", "print(3)").output.strip().endswith("3")


def test_output_limit_stops_a_flood_and_keeps_state() -> None:
    with Runtimes(timeout=30, max_output=500, limits=Limits(output_chars=200_000)) as runtimes:
        run(runtimes, "python", "kept = 7")
        end = run(runtimes, "python", "while True: print('x' * 1000)")
        assert end.limit == "output" and "max_run_output" in end.output
        assert run(runtimes, "python", "print(kept)").output.strip() == "7"


def test_group_sample_sees_this_process() -> None:
    now = sample(os.getpgrp())
    assert now.processes >= 1 and now.memory_mb > 1 and now.cpu_seconds > 0
