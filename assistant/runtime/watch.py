"""Per-run resource limits: memory, processes and CPU time of a runtime's process group.

The runtimes are persistent, so a kernel limit set once would count every run together
(CPU time) or outlive the run. Instead the group is sampled from /proc while a run goes
(every poll of the run loop), against a CPU baseline taken when the run starts; a breach
kills the whole group at once, and the run says which limit it was. Where the kernel
can help per run without harm (RLIMIT_NPROC for a non-root user), it is set too.
RLIMIT_AS is not: it caps address space, not memory, and Node reserves about 11 GB of it
for one WebAssembly memory (browsers a run opens reserve more), so any cap that would
stop a memory hog also breaks ordinary programs.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import time
from dataclasses import dataclass

PAGE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Limits:
    """What one run may use; 0 turns a limit off. Wall time is the run's `timeout`."""

    memory_mb: int = 2048
    processes: int = 128
    cpu_seconds: float = 240.0
    output_chars: int = 20_000_000


@dataclass(frozen=True)
class Sample:
    processes: int
    memory_mb: float
    cpu_seconds: float


def sample(pgid: int) -> Sample:
    """Processes, resident memory and CPU time (live, plus reaped children) of a group."""
    count, rss_pages, ticks = 0, 0, 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                raw = handle.read()
        except OSError:
            continue
        fields = raw[raw.rfind(b")") + 2 :].split()
        if len(fields) < 22 or int(fields[2]) != pgid:
            continue
        count += 1
        ticks += sum(int(f) for f in fields[11:15])
        rss_pages += int(fields[21])
    return Sample(count, rss_pages * PAGE / 2**20, ticks / TICKS)


class GroupWatch:
    """Checks one run of one process group against its limits."""

    def __init__(self, pgid: int, limits: Limits, leader: int | None = None) -> None:
        self.pgid = pgid
        self.limits = limits
        # Taken at the first check, not here: a run that ends before the first poll
        # then costs no /proc scan at all (the first poll's CPU goes uncounted).
        self._cpu_start: float | None = None
        # On the interpreter, whose children inherit it (the leader may be a sandbox's bwrap).
        _limit_user_processes(pgid if leader is None else leader, limits.processes)

    def breach(self) -> tuple[str, str]:
        """The limit passed (processes, memory or cpu) and a note saying so; ("", "") if none."""
        limits = self.limits
        if not (limits.memory_mb or limits.processes or limits.cpu_seconds):
            return "", ""
        now = sample(self.pgid)
        if limits.processes and now.processes > limits.processes:
            return "processes", (f"process limit: the run had more than {limits.processes} "
                                 "processes at once (max_processes)")
        if limits.memory_mb and now.memory_mb > limits.memory_mb:
            return "memory", (f"memory limit: the run used {now.memory_mb:.0f} MB, more than "
                              f"{limits.memory_mb} MB (max_memory_mb)")
        if self._cpu_start is None:
            self._cpu_start = now.cpu_seconds
        used = now.cpu_seconds - self._cpu_start
        if limits.cpu_seconds and used > limits.cpu_seconds:
            return "cpu", (f"CPU time limit: the run used {used:.1f} s of CPU, more than "
                           f"{limits.cpu_seconds:g} s (max_cpu_seconds)")
        return "", ""


def kill_group(pgid: int, attempts: int = 100) -> None:
    """SIGKILL a group until it is empty: a process forking as it is killed needs repeats."""
    for _ in range(attempts):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            return
        time.sleep(0.01)


def _limit_user_processes(pid: int, allowed: int) -> None:
    """For a non-root user, let the kernel refuse forks beyond `allowed` more processes.

    RLIMIT_NPROC counts all the user's processes, so the soft limit is set to what the
    user has now plus `allowed`, on the runtime before each run (its children inherit).
    Root ignores RLIMIT_NPROC; there the sampling alone holds the line.
    """
    uid = os.getuid()
    if not allowed or uid == 0:
        return
    mine = 0
    for entry in os.scandir("/proc"):
        with contextlib.suppress(OSError):
            if entry.name.isdigit() and entry.stat().st_uid == uid:
                mine += 1
    with contextlib.suppress(OSError, ValueError):
        _, hard = resource.prlimit(pid, resource.RLIMIT_NPROC)
        soft = mine + allowed
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.prlimit(pid, resource.RLIMIT_NPROC, (soft, hard))
