"""Environment variables set for a while, for the tests and the children they start."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def variable(name: str, value: str) -> Iterator[None]:
    """`name` is `value` in os.environ while this lasts, then what it was (or unset)."""
    previous = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = previous


def isolate(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Config, data and the shared embedded server's runtime folder made under `folder`, and
    no ASSISTANT_ setting or API key from outside: what every test, and every server a
    module's tests share, runs with, never the user's."""
    kept = {"ASSISTANT_CONFIG_DIR": folder / "config", "ASSISTANT_DATA_DIR": folder / "data",
            "ASSISTANT_RUNTIME_DIR": folder / "run"}
    for name, path in kept.items():
        path.mkdir(mode=0o700)
        monkeypatch.setenv(name, str(path))
    for name in list(os.environ):
        if name.startswith("ASSISTANT_") and name not in kept:
            monkeypatch.delenv(name)
        if name.endswith("_API_KEY"):
            monkeypatch.delenv(name)


# Where a program finds its config, data, cache and runtime folders, each made under the
# session's home; and what would lead a test's child to the person's desktop, sound or
# session bus (each test that needs one starts its own: display, pulse, a11y_bus).
HOME_FOLDERS = {"XDG_CONFIG_HOME": ".config", "XDG_DATA_HOME": ".local/share",
                "XDG_CACHE_HOME": ".cache", "XDG_STATE_HOME": ".local/state",
                "XDG_RUNTIME_DIR": "run"}
PERSONS = ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS",
           "PULSE_SERVER", "PULSE_SINK", "PULSE_SOURCE")


def temporary_home() -> Path:
    """A home of the test session's own, set in os.environ with its XDG folders, and no
    ASSISTANT_ setting, API key, display, sound server or session bus from outside: neither
    a test, nor a fixture shared by a module, nor any process they start can read, reuse or
    stop the person's config, journal, embedded server or its token. Made before
    collection; `remove_home` takes it away after the session.

    It is made in the person's home folder (else the temporary folder), empty: a home is
    not under /tmp, which the sandbox and the previews treat as scratch."""
    real = Path.home()
    home = Path(tempfile.mkdtemp(prefix="assistant-test-home-",
                                 dir=real if os.access(real, os.W_OK) else None))
    os.environ["HOME"] = str(home)
    for name, below in HOME_FOLDERS.items():
        path = home / below
        path.mkdir(mode=0o700, parents=True)
        os.environ[name] = str(path)
    for name in list(os.environ):
        if name.startswith("ASSISTANT_") or name.endswith("_API_KEY") or name in PERSONS:
            del os.environ[name]
    return home


def remove_home(home: Path) -> None:
    """The session's home taken away (what a process still running left in it too)."""
    shutil.rmtree(home, ignore_errors=True)
