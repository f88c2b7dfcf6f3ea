"""A real system tray for tests: a D-Bus session bus and `trayer` (an XEmbed tray) on the
shared Xvfb, one per test session.

Use the `tray_host` fixture by binding it in a conftest or test module:

    from tests.support import tray_host as hosts
    tray_host = hosts.tray_host

The tray is ready when trayer owns the _NET_SYSTEM_TRAY_S0 selection. The fixture sets
DBUS_SESSION_BUS_ADDRESS for the test process (and so for its children) while it lives;
`running(display)` does the same outside pytest. `TrayHost.icons()` lists the icons
trayer has embedded, as screen rectangles, so a test can see, grab and click a Tray's
icon. A second binding of the fixture (another module or conftest) finds the running
trayer and shares it instead of starting a rival.

`status_notifier_host(display)` is the other kind of tray (KDE, GNOME's AppIndicator
extension): gtk-sni-tray-standalone on a private bus, for a private display.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.support import require as prerequisite
from tests.support.dbus_session import has_owner, session_bus, started
from tests.support.environ import variable

SNI_WATCHER = "org.kde.StatusNotifierWatcher"
TRAYER = ["trayer", "--edge", "top", "--align", "right", "--widthtype", "request",
          "--height", "32", "--transparent", "false"]


@dataclass(frozen=True)
class Box:
    """A rectangle on screen, in physical pixels."""

    left: int
    top: int
    width: int
    height: int

    @property
    def centre(self) -> tuple[int, int]:
        return self.left + self.width // 2, self.top + self.height // 2


@dataclass
class TrayHost:
    """A running tray: its display, the D-Bus address, and a view of the icons it shows."""

    display: str
    bus_address: str
    processes: list[subprocess.Popen[Any]] = field(default_factory=list)

    def manager(self) -> int:
        """The tray manager's window id (the owner of _NET_SYSTEM_TRAY_S0), 0 when none."""
        with _connection(self.display) as x:
            owner = x.get_selection_owner(x.intern_atom("_NET_SYSTEM_TRAY_S0"))
            return owner if isinstance(owner, int) else owner.id  # X.NONE (0) when none

    def icons(self) -> list[Box]:
        """Every icon embedded and mapped in a tray now, left to right."""
        with _connection(self.display) as x:
            info = x.intern_atom("_XEMBED_INFO")
            root = x.screen().root
            found = []
            for window in _descendants(root):
                try:
                    embedded = window.get_full_property(info, 0) is not None
                    attributes = window.get_attributes()
                    if not embedded or attributes.map_state != 2:  # IsViewable
                        continue
                    geometry = window.get_geometry()
                    where = root.translate_coords(window, 0, 0)
                except Exception:  # the window went away while we looked
                    continue
                found.append(Box(where.x, where.y, geometry.width, geometry.height))
            return sorted(found, key=lambda box: box.left)

    def wait_for_icons(self, count: int, timeout: float = 5.0) -> list[Box]:
        """The embedded icons once there are exactly `count` of them, each laid out (an
        icon just embedded is one pixel wide until the tray sizes it)."""
        deadline = time.monotonic() + timeout
        while True:
            icons = self.icons()
            if len(icons) == count and all(i.width > 1 and i.height > 1 for i in icons):
                return icons
            if time.monotonic() > deadline:
                raise AssertionError(f"the tray shows {len(icons)} icons, not {count}, "
                                     f"after {timeout:g} s")
            time.sleep(0.05)


@contextmanager
def _connection(display: str) -> Iterator[Any]:
    from Xlib import display as xdisplay

    connection = xdisplay.Display(display)
    try:
        yield connection
    finally:
        connection.close()


def _descendants(window: Any) -> Iterator[Any]:
    """Every window under `window`; one destroyed during the walk (an icon going away) and its
    subtree are skipped, as they are no longer there to find."""
    from Xlib.error import BadWindow

    try:
        children = window.query_tree().children
    except BadWindow:
        return
    for child in children:
        yield child
        yield from _descendants(child)


def _missing(*programs: tuple[str, str]) -> str:
    for program, package in (("dbus-daemon", "dbus"), *programs):
        if shutil.which(program) is None:
            return f"{program} is not installed: ./scripts/setup --test installs it ({package})"
    return ""


def require(*programs: tuple[str, str]) -> None:
    """Skip (fail in CI) unless dbus-daemon and each (program, Debian package) are here."""
    missing = _missing(*programs)
    prerequisite.require(not missing, missing)


@contextmanager
def running(display: str, timeout: float = 10.0) -> Iterator[TrayHost]:
    """Start a session bus and trayer on `display` (or share the tray already there).

    DBUS_SESSION_BUS_ADDRESS points at the new bus while this lasts.
    """
    existing = TrayHost(display, os.environ.get("DBUS_SESSION_BUS_ADDRESS", ""))
    if existing.manager() and existing.bus_address:
        yield existing
        return
    with session_bus() as (address, bus), variable("DBUS_SESSION_BUS_ADDRESS", address):
        host = TrayHost(display, address, [bus])
        env = {**os.environ, "DISPLAY": display}
        with started(TRAYER, env, lambda: bool(host.manager()), timeout) as trayer:
            host.processes.append(trayer)
            yield host


@contextmanager
def status_notifier_host(display: str, timeout: float = 10.0) -> Iterator[TrayHost]:
    """A StatusNotifier (AppIndicator) tray, as KDE and GNOME's extension are: a private
    bus with gtk-sni-tray-standalone and its watcher, a bar along the top of `display`.

    The environment is left alone: give children `bus_address` yourself. icons() stays
    empty (no XEmbed here); find an icon by its pixels.
    """
    for attempt in range(3):
        with ExitStack() as stack:
            address, bus = stack.enter_context(session_bus())
            env = {**os.environ, "DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": address}
            args = ["gtk-sni-tray-standalone", "--top", "--end", "--size", "32", "--watcher"]
            try:
                tray = stack.enter_context(
                    started(args, env, functools.partial(has_owner, address, SNI_WATCHER), timeout))
            except RuntimeError as error:
                # On a busy machine it may ask its own watcher before that is on the bus,
                # and die ("UnknownObject ... Pattern match failure"): start it again.
                if attempt == 2 or "UnknownObject" not in str(error):
                    raise
                continue
            yield TrayHost(display, address, [bus, tray])
            return


@pytest.fixture(scope="session")
def tray_host(display: str) -> Iterator[TrayHost]:
    """trayer and a D-Bus session on the shared Xvfb; fails in CI when they are missing."""
    require(("trayer", "trayer"))
    with running(display) as host:
        yield host
