"""A private D-Bus session bus for tests, and programs started on it once they are up."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CONFIG = Path(__file__).with_name("dbus-session.conf")
# Started on demand by no test bus: the document portal mounts a FUSE file system in the
# runtime folder (the tests' is under /tmp, where a mount turns previews off) and outlives
# the bus; the desktop portal starts it.
NOT_STARTED = ("org.freedesktop.portal.", "org.freedesktop.impl.portal.")


def _services(folder: Path) -> None:
    """The installed session services, less the portals, linked into `folder`."""
    data = os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"
    for root in data.split(":"):
        for service in sorted(Path(root, "dbus-1", "services").glob("*.service")):
            link = folder / service.name
            if not service.name.startswith(NOT_STARTED) and not link.exists():
                link.symlink_to(service)


@contextmanager
def session_bus(address: str = "") -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """A private D-Bus session bus: its address and process; on `address` if given (a
    `unix:path=` one proves what a socket file allows), else where dbus-daemon likes.
    It starts the installed services on demand, as a session's bus does, but not the
    portals (NOT_STARTED)."""
    listen = [f"--address={address}"] if address else []
    with tempfile.TemporaryDirectory(prefix="assistant-bus-services-") as folder:
        _services(Path(folder))
        config = Path(folder, "session.conf")
        config.write_text(CONFIG.read_text().replace("SERVICES", folder))
        bus = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork",
                                "--print-address=1", *listen],
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
