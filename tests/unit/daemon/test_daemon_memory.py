"""The daemon's memory guards take effect on glibc, in a process of their own."""

from __future__ import annotations

import subprocess
import sys

PROGRAM = """
import threading
import numpy as np
from assistant.daemon import memory

def rss():
    return next(int(line.split()[1]) for line in open("/proc/self/status")
                if line.startswith("VmRSS")) // 1024

print(memory.limit_arenas())

def churn():
    for _ in range(20):
        blocks = [np.ones(8_000) for _ in range(1000)]  # 64 KB: heap, not mmap
        del blocks

for _ in range(3):
    threads = [threading.Thread(target=churn) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
before = rss()
memory.trim()
print(before, rss())
"""


def test_arenas_are_limited_and_trim_gives_memory_back() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                          timeout=120, check=True)
    limited, sizes = done.stdout.split("\n")[:2]
    before, after = map(int, sizes.split())
    assert limited == "True"
    # what the threads freed goes back: ~95 MB on a quiet machine, 14 seen on a busy one
    # (fewer blocks left in the heap when the threads ran one after another); without the
    # trim nothing does
    assert before - after >= 10, (before, after)
