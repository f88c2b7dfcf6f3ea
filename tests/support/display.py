"""A real X display for tests: one Xvfb per test session, shared by every test that needs it.

There is no window manager: focus a window by clicking it. Key auto-repeat is turned off,
since Xvfb repeats held keys and tests press and hold keys on purpose.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SIZE = "1280x800x24"


def _free_display() -> int:
    for number in range(90, 200):
        taken = Path(f"/tmp/.X11-unix/X{number}"), Path(f"/tmp/.X{number}-lock")
        if not any(path.exists() for path in taken):
            return number
    raise RuntimeError("no free X display number between :90 and :199")


@contextmanager
def xvfb(screens: tuple[str, ...] = (SIZE,), xinerama: bool = False) -> Iterator[str]:
    """Start Xvfb (one or more screens) and yield its DISPLAY name; stops it afterwards."""
    if shutil.which("Xvfb") is None:
        raise RuntimeError("Xvfb is not installed: ./scripts/setup --test installs it (xvfb)")
    number = _free_display()
    args = ["Xvfb", f":{number}", "-nolisten", "tcp", "-noreset"]
    for index, size in enumerate(screens):
        args += ["-screen", str(index), size]
    if xinerama:
        args += ["+xinerama"]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    display = f":{number}"
    socket = Path(f"/tmp/.X11-unix/X{number}")
    deadline = time.monotonic() + 10
    while not socket.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            error = process.stderr.read().decode(errors="replace") if process.stderr else ""
            raise RuntimeError(f"Xvfb {display} did not start: {error.strip()[-300:]}")
        time.sleep(0.05)
    env = {**os.environ, "DISPLAY": display}
    if shutil.which("xset"):
        subprocess.run(["xset", "r", "off"], env=env, check=False, timeout=10)
    try:
        yield display
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()


def xdotool(*args: str) -> str:
    """Run xdotool on the current DISPLAY (synthetic input, window search); its output."""
    done = subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=15,
                          check=True)
    return done.stdout.strip()


def wait_until(check: Callable[[], Any], what: str, timeout: float = 5.0) -> Any:
    """What `check` returns once it is true; fails naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"within {timeout} s: {what}")
