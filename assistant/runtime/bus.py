"""The session bus as runs see it: through xdg-dbus-proxy, which lets them talk only to
the names in bus.toml and those the user adds (`run_bus_allow`).

The keyring (Secret Service, GNOME Keyring, KWallet) answers on the session bus, and any
program there may ask it for the keys `assistant keys set` stored. A run, even an
approved one, must not, so under the guard and the sandbox its bus is a filtering proxy:
notifications, the accessibility bus's address, media players, the screensaver and the
portals answer; the keyring's names are never let through, whatever the list says.

A path socket (`unix:path=`, the usual /run/user/UID/bus) is covered by the proxy's
socket in the run's mount namespace, so the run's address is unchanged and the real bus
is out of reach. An abstract socket (`unix:abstract=`) lives in the network namespace the
guard shares, so it cannot be hidden: `exposed()` says so.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from assistant.tomlread import tomllib

PACKAGE = "xdg-dbus-proxy"
VARIABLE = "DBUS_SESSION_BUS_ADDRESS"
NEVER = ("org.freedesktop.secrets", "org.gnome.keyring", "org.kde.kwalletd",
         "org.kde.kwalletd5", "org.kde.kwalletd6")
"""The keyring's names: never on the allow-list, nor covered by a wildcard in it."""
_ALLOWED = Path(__file__).with_name("bus.toml")


def allowed(extra: Sequence[str] = ()) -> list[str]:
    """The names runs may talk to: bus.toml's and the user's `extra` (the setting
    `run_bus_allow`), without those that reach the keyring (`refused`), since the keys
    must stay out of reach whatever the list says."""
    return [name for name in _listed(extra) if not _keyring(name)]


def refused(extra: Sequence[str] = ()) -> list[str]:
    """The names of the list dropped because they reach the keyring (a wildcard may):
    `assistant doctor` says each, so that a service missing from runs is explained."""
    return [name for name in _listed(extra) if _keyring(name)]


def _listed(extra: Sequence[str]) -> list[str]:
    with _ALLOWED.open("rb") as file:
        names = [str(n) for n in tomllib.load(file).get("talk", [])]
    return list(dict.fromkeys([*names, *extra]))


def _keyring(name: str) -> bool:
    return any(_covers(name, secret) for secret in NEVER)


def _covers(pattern: str, name: str) -> bool:
    if pattern.endswith(".*"):
        prefix = pattern[:-2]
        return name == prefix or name.startswith(prefix + ".")
    return pattern == name or name.startswith(pattern + ".")


def socket_path(address: str) -> str | None:
    """The file of a `unix:path=` address (its first transport), None for any other."""
    first = address.split(";")[0]
    if not first.startswith("unix:"):
        return None
    for part in first[len("unix:"):].split(","):
        key, _, value = part.partition("=")
        if key == "path":
            return value
    return None


def exposed(env: Mapping[str, str] | None = None) -> str:
    """Why runs can still reach the keyring through the session bus ("" when they cannot
    or there is no bus): the proxy is missing, or the bus is an abstract socket."""
    address = (os.environ if env is None else env).get(VARIABLE, "")
    if not address:
        return ""
    if not shutil.which(PACKAGE):
        return (f"runs can reach the session bus, hence the keyring: apt-get install "
                f"{PACKAGE}")
    if socket_path(address) is None:
        return (f"runs can reach the session bus, hence the keyring: its address "
                f"({address.split(';')[0]}) is not a socket file the guard can hide; "
                "start the session bus on a unix:path= address")
    return ""


class BusProxy:
    """One xdg-dbus-proxy for a sandbox's runs: started on the first run, in a folder only
    the user can enter, and stopped with the runtimes."""

    def __init__(self, address: str, extra: Sequence[str] = ()) -> None:
        self.address = address
        self.names = allowed(extra)
        self._process: subprocess.Popen[bytes] | None = None
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._tie: socket.socket | None = None

    def socket(self, timeout: float = 5.0) -> str | None:
        """The proxied socket, the proxy started if it is not running; None without it."""
        if self._process is not None and self._process.poll() is None and self._folder:
            return os.path.join(self._folder.name, "bus")
        self.stop()
        program = shutil.which(PACKAGE)
        if program is None:
            return None
        self._folder = tempfile.TemporaryDirectory(prefix="assistant-bus-")
        path = os.path.join(self._folder.name, "bus")
        # The proxy ends when its end of this pair closes: with stop(), or with us.
        self._tie, theirs = socket.socketpair()
        argv = [program, f"--fd={theirs.fileno()}", self.address, path, "--filter",
                *(f"--talk={name}" for name in self.names)]
        with theirs:
            self._process = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, pass_fds=(theirs.fileno(),))
        deadline = time.monotonic() + timeout
        while not os.path.exists(path):
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                return None
            time.sleep(0.01)
        return path

    def stop(self) -> None:
        """End the proxy and remove its folder; idempotent."""
        if self._process is not None:
            self._process.terminate()
            try:
                self._process.wait(5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(5)
            self._process = None
        if self._tie is not None:
            self._tie.close()
            self._tie = None
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None
