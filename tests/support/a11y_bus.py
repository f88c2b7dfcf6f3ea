"""The accessibility bus for tests: a private D-Bus session with AT-SPI's bus launcher on
it, one per test session, so GTK windows publish their widgets and `computer` reads them.

The `a11y_bus` fixture sets DBUS_SESSION_BUS_ADDRESS for the test process and its
children while it lives (windows started after it join it), and yields that address.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.dbus_session import has_owner, session_bus, started
from tests.support.environ import variable
from tests.support.require import lacking

LAUNCHER = Path("/usr/libexec/at-spi-bus-launcher")


def missing() -> str:
    """What this machine lacks for an accessibility bus ("" when nothing)."""
    if shutil.which("dbus-daemon") is None:
        return "dbus-daemon is not installed (dbus)"
    if not LAUNCHER.exists():
        return f"{LAUNCHER} is not installed (at-spi2-core)"
    try:
        import gi

        gi.require_version("Atspi", "2.0")
        gi.require_version("Gtk", "3.0")
    except (ImportError, ValueError) as exc:
        return (f"PyGObject cannot load Atspi 2.0 and Gtk 3.0 (gir1.2-atspi-2.0, "
                f"gir1.2-gtk-3.0): {exc}")
    return ""


@contextmanager
def accessibility_bus(display: str, timeout: float = 10.0) -> Iterator[str]:
    """A session bus with the AT-SPI bus up on it; DBUS_SESSION_BUS_ADDRESS points at it."""
    with session_bus() as (address, _bus), variable("DBUS_SESSION_BUS_ADDRESS", address):
        env = {**os.environ, "DISPLAY": display}
        with started([str(LAUNCHER), "--launch-immediately"], env,
                     lambda: has_owner(address, "org.a11y.Bus"), timeout):
            yield address


@pytest.fixture(scope="session")
def a11y_bus(display: str) -> Iterator[str]:
    """One accessibility bus for every test that needs one; fails in CI when it cannot."""
    reason = missing()
    if reason:
        lacking(reason)
    with accessibility_bus(display) as address:
        yield address
