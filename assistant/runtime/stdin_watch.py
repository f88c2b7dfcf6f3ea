"""Noticing a run that is blocked reading stdin.

A runtime's stdin is a pipe the host never writes to, so a program that asks
for input would wait forever. Linux shows, per process, what fd 0 is
(/proc/PID/fd/0), where the process sleeps (/proc/PID/wchan) and which syscall
with which first argument it is in (/proc/PID/syscall): a process of the
runtime's group that sleeps in a pipe read on fd 0, and fd 0 is our pipe, is
waiting for input. Elsewhere (no /proc) the watch does nothing.
"""

from __future__ import annotations

import os
import time

_PROC = "/proc"


class StdinWatch:
    """Polls one runtime's process group for a process blocked on the stdin pipe."""

    def __init__(self, pgid: int, stdin_fd: int, leader: int | None = None) -> None:
        self._pgid = pgid
        # The runtime's interpreter, when it is not the group leader (inside a sandbox).
        self._leader = pgid if leader is None else leader
        self._link = f"pipe:[{os.fstat(stdin_fd).st_ino}]"
        self._enabled = os.path.exists(f"{_PROC}/self/stat")
        self._now = _boot_ticks() if self._enabled else 0
        self._since = self._now - 1
        self._last_pid = _last_pid() if self._enabled else 0
        self._strikes = 0

    def waiting(self) -> bool:
        """True once a waiting process has been seen on two consecutive polls.

        Processes left over from earlier runs are ignored (the group leader
        excepted): they are not what this run is waiting on. A process is new if it
        started in a later clock tick than the run, or if its pid was handed out after
        the run began and it started around then (start times are too coarse for a
        process of the tick the run began in; pids wrap around and may be reused).
        """
        if not self._enabled:
            return False
        found = any(self._blocked_on_stdin(pid) for pid in self._members())
        self._strikes = self._strikes + 1 if found else 0
        return self._strikes >= 2

    def _members(self) -> list[int]:
        members = []
        for name in os.listdir(_PROC):
            if not name.isdigit():
                continue
            try:
                with open(f"{_PROC}/{name}/stat", "rb") as file:
                    fields = file.read().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            pid = int(name)
            pgrp, started = int(fields[2]), int(fields[19])
            new = started > self._now or (pid > self._last_pid and started >= self._since)
            if pgrp == self._pgid and (pid in (self._pgid, self._leader) or new):
                members.append(pid)
        return members

    def _blocked_on_stdin(self, pid: int) -> bool:
        try:
            if os.readlink(f"{_PROC}/{pid}/fd/0") != self._link:
                return False
            with open(f"{_PROC}/{pid}/wchan") as file:
                if "pipe" not in file.read():
                    return False
        except OSError:
            return False
        try:
            with open(f"{_PROC}/{pid}/syscall") as file:
                syscall = file.read().split()
        except OSError:
            return True
        return len(syscall) > 1 and syscall[1] == "0x0"


def _boot_ticks() -> int:
    """Now, in the clock ticks since boot that /proc/PID/stat uses for start times."""
    return int(time.clock_gettime(time.CLOCK_BOOTTIME) * os.sysconf("SC_CLK_TCK"))


def _last_pid() -> int:
    """The last pid the kernel handed out (0 when it does not say)."""
    try:
        with open(f"{_PROC}/sys/kernel/ns_last_pid") as file:
            return int(file.read())
    except (OSError, ValueError):
        return 0
