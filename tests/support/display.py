"""A real X display for tests: one Xvfb per test session, shared by every test that needs it.

There is no window manager: focus a window by clicking it. Key auto-repeat is turned off,
since Xvfb repeats held keys and tests press and hold keys on purpose.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

SIZE = "1280x800x24"
START_TIMEOUT = 30.0  # seconds; Xvfb starts in well under one, even on a busy machine


@contextmanager
def xvfb(screens: tuple[str, ...] = (SIZE,), xinerama: bool = False) -> Iterator[str]:
    """Start Xvfb (one or more screens) and yield its DISPLAY name; stops it afterwards.

    Xvfb picks the first free display number itself (-displayfd) and writes it once it
    accepts connections: two test processes starting one at once never take the same
    number, and no wait is guessed."""
    if shutil.which("Xvfb") is None:
        raise RuntimeError("Xvfb is not installed: ./scripts/setup --test installs it (xvfb)")
    read_end, write_end = os.pipe()
    args = ["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp", "-noreset"]
    for index, size in enumerate(screens):
        args += ["-screen", str(index), size]
    if xinerama:
        args += ["+xinerama"]
    try:
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   pass_fds=(write_end,))
    finally:
        os.close(write_end)
    with os.fdopen(read_end, "rb") as chosen:
        ready, _, _ = select.select([chosen], [], [], START_TIMEOUT)
        number = chosen.readline().strip() if ready else b""
    if not number.isdigit():
        process.kill()
        error = process.stderr.read().decode(errors="replace") if process.stderr else ""
        raise RuntimeError(f"Xvfb did not start within {START_TIMEOUT:.0f} s: "
                           f"{error.strip()[-300:]}")
    display = f":{number.decode()}"
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
