"""A tiny guard process that kills a runtime's whole process group when the host dies.

Runtimes live in process groups of their own (so terminal Ctrl-C never reaches them),
which also means nothing ends them if the assistant is killed with SIGKILL: without
this guard, a runaway loop would outlive it. The guard sleeps until its parent (the
host) is gone, then kills the group; it leaves by itself once the group is gone.
"""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import os, signal, sys, time
host, group = int(sys.argv[1]), int(sys.argv[2])
while os.getppid() == host:
    time.sleep(0.5)
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        sys.exit()
try:
    os.killpg(group, signal.SIGKILL)
except ProcessLookupError:
    pass
"""


def guard(group: int) -> subprocess.Popen[bytes]:
    """Start the guard for `group`; kill and wait for it when the group is closed normally."""
    return subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", SCRIPT, str(os.getpid()), str(group)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
