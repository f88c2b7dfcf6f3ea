"""The tests' private session bus: a session's services, but never the portals."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.support.dbus_session import NOT_STARTED, session_bus

INSTALLED = Path("/usr/share/dbus-1/services")


def test_the_test_bus_starts_installed_services_on_demand_but_not_the_portals() -> None:
    """The document portal, started on demand, mounts a FUSE file system under the tests'
    runtime folder in /tmp (which turns previews off) and outlives the bus."""
    with session_bus() as (address, _bus):
        done = subprocess.run(["dbus-send", f"--bus={address}", "--print-reply",
                               "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                               "org.freedesktop.DBus.ListActivatableNames"],
                              capture_output=True, text=True, timeout=10, check=True)
    names = {line.split('"')[1] for line in done.stdout.splitlines() if "string" in line}
    installed = {path.stem for path in INSTALLED.glob("*.service")}
    assert not {name for name in names if name.startswith(NOT_STARTED)}, names
    assert {name for name in installed if not name.startswith(NOT_STARTED)} <= names
