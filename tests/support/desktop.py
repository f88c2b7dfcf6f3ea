"""A desktop as a person has one: its own Xvfb, openbox as the window manager, a D-Bus
session with the accessibility bus, and real programs nobody here wrote (zenity, yad).

    with desktop():                                  # DISPLAY and the bus set meanwhile
        with Program("zenity", "--question", "--title=Export", "--text=Now?") as asked:
            ...
            assert asked.result() == (0, "")

The shared session display has no window manager (other tests rely on that), so this one
is separate; it lives for a test module. The accessibility bus is the session's one
(a11y_bus): libatspi connects once per process, and windows of any display find it
through the D-Bus session.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.support.a11y_bus import missing as a11y_missing
from tests.support.dbus_session import end, started
from tests.support.display import wait_until, xvfb
from tests.support.environ import variable
from tests.support.require import lacking

PROGRAMS = ("openbox", "zenity", "yad")


def missing(*programs: str) -> str:
    """What this machine lacks for the desktop and `programs` ("" when nothing)."""
    absent = [name for name in (*PROGRAMS, *programs) if shutil.which(name) is None]
    if absent:
        return f"{', '.join(absent)} not installed (./scripts/setup --test installs them)"
    return a11y_missing()


def _managed() -> bool:
    """Whether a window manager has taken the screen (EWMH's check window is set)."""
    from Xlib import X, display

    connection = display.Display()
    try:
        root = connection.screen().root
        return root.get_full_property(connection.intern_atom("_NET_SUPPORTING_WM_CHECK"),
                                      X.AnyPropertyType) is not None
    finally:
        connection.close()


@contextmanager
def desktop(*programs: str) -> Iterator[str]:
    """Xvfb and openbox; DISPLAY points at them while this lasts (the accessibility bus
    must be up: the a11y_bus fixture), and `programs` the tests drive are installed.
    Yields the display's name."""
    reason = missing(*programs)
    if reason:
        lacking(reason)
    with xvfb() as name, variable("DISPLAY", name):
        env = {**os.environ, "DISPLAY": name}
        with started(["openbox", "--sm-disable"], env, _managed, 10):
            yield name


class Program:
    """A real program on the desktop: what it printed and its exit status once it ends."""

    def __init__(self, *argv: str, cwd: str | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.argv = argv
        self.cwd = cwd
        self.env = {**os.environ, **(env or {})}
        self.process: subprocess.Popen[str] | None = None

    def __enter__(self) -> Program:
        self.process = subprocess.Popen(self.argv, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, cwd=self.cwd,
                                        env=self.env)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.process is not None and self.process.poll() is None:
            end(self.process)

    def shown(self, title: str, timeout: float = 10.0) -> None:
        """Wait until its window titled `title` publishes its controls and is managed (the
        window manager gives a new window the focus as it takes it on)."""
        from assistant.computer import tree, windows

        wait_until(lambda: any(w.title == title and w.controls for w in tree.windows(title)),
                   f"the window {title!r} of {self.argv[0]} shows its controls", timeout)
        wait_until(lambda: title in [w["title"] for w in windows.list()],
                   f"openbox manages the new window {title!r}", timeout)

    def focused(self, title: str, timeout: float = 10.0) -> None:
        """shown(), then wait until that window has the keyboard focus: the window manager
        gives it to a new window as it takes it on, and on a busy machine that comes a
        moment after the window is managed."""
        from assistant.computer import tree

        self.shown(title, timeout)
        wait_until(lambda: any(w.title == title and w.active for w in tree.windows(title)),
                   f"the new window {title!r} has the keyboard focus", timeout)

    def titled(self, part: str, timeout: float = 10.0) -> str:
        """Wait until a window whose title holds `part` publishes its controls (an editor
        puts the file's path and state in its title); that title."""
        from assistant.computer import tree

        def found() -> str:
            return next((w.title for w in tree.windows(part) if w.controls), "")

        return str(wait_until(found, f"a window of {self.argv[0]} titled like {part!r} "
                                     "shows its controls", timeout))

    def result(self, timeout: float = 10.0) -> tuple[int, str]:
        """Its exit status and what it printed, once it has ended."""
        assert self.process is not None
        out, _ = self.process.communicate(timeout=timeout)
        return self.process.returncode, out.strip()

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None
