"""A private D-Bus session bus for tests, and programs started on it once they are up."""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def session_bus(address: str = "") -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """A private D-Bus session bus: its address and process; on `address` if given (a
    `unix:path=` one proves what a socket file allows), else where dbus-daemon likes."""
    listen = [f"--address={address}"] if address else []
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1",
                            *listen],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        address = bus.stdout.readline().strip() if bus.stdout else ""
        if not address:
            raise RuntimeError("dbus-daemon printed no address")
        yield address, bus
    finally:
        end(bus)


def end(process: subprocess.Popen[Any]) -> None:
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


@contextmanager
def started(args: list[str], env: dict[str, str], ready: Callable[[], bool],
             timeout: float) -> Iterator[subprocess.Popen[bytes]]:
    """Run a program until the context ends, once `ready()` says it is up."""
    # Its messages go to a file, not a pipe: a long session's warnings would fill a pipe.
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=log)
        try:
            deadline = time.monotonic() + timeout
            while not ready():
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    error = log.read().decode(errors="replace")[-300:]
                    raise RuntimeError(f"{args[0]} did not start: {error}")
                time.sleep(0.05)
            yield process
        finally:
            end(process)


def has_owner(address: str, name: str) -> bool:
    """Whether `name` is owned on the bus at `address` (asked with dbus-send)."""
    done = subprocess.run(["dbus-send", f"--bus={address}", "--print-reply",
                           "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                           "org.freedesktop.DBus.NameHasOwner", f"string:{name}"],
                          capture_output=True, text=True, timeout=10)
    return "boolean true" in done.stdout
