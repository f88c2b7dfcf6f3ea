"""One daemon per user: the lock, the socket, a killed daemon's leftovers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from assistant.daemon.instance import AlreadyRunning, Instance, ask, socket_path

HOLDER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from assistant.daemon.instance import Instance
    Instance(Path(sys.argv[1]), {"raise": lambda: "ok"}).claim()
    print("claimed", flush=True)
    time.sleep(60)
""")


def test_a_second_claim_is_refused_with_the_pid_and_the_first_is_asked(tmp_path: Path) -> None:
    asked: list[str] = []
    first = Instance(tmp_path, {"raise": lambda: asked.append("raise") or "ok"})
    first.claim()
    try:
        with pytest.raises(AlreadyRunning) as refused:
            Instance(tmp_path, {}).claim()
        assert refused.value.pid == os.getpid() and refused.value.answered
        assert asked == ["raise"]
        assert ask(tmp_path, "nonsense") == f"unknown command 'nonsense' {os.getpid()}"
    finally:
        first.release()
    again = Instance(tmp_path, {})
    again.claim()
    again.release()
    assert not socket_path(tmp_path).exists()


def test_a_killed_daemon_does_not_block_the_next_start(tmp_path: Path) -> None:
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "claimed"
        with pytest.raises(AlreadyRunning) as refused:
            Instance(tmp_path, {}).claim()
        assert refused.value.pid == holder.pid
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
    assert socket_path(tmp_path).exists()  # the killed one's socket file is left behind
    after = Instance(tmp_path, {"state": lambda: "idle"})
    after.claim()
    try:
        assert ask(tmp_path, "state") == f"idle {os.getpid()}"
    finally:
        after.release()


def test_a_long_folder_gets_a_short_socket_path(tmp_path: Path) -> None:
    deep = tmp_path / ("x" * 120)
    assert len(str(socket_path(deep))) < 108
    first = Instance(deep, {"raise": lambda: "ok"})
    first.claim()
    try:
        assert ask(deep, "raise").startswith("ok ")
    finally:
        first.release()
