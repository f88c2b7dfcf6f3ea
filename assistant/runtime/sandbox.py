"""Running the runtimes under bubblewrap: the kernel enforces what the approval gate decided.

Two strengths. The full sandbox (`sandbox = true`) mounts the whole file system read-only,
with a private /tmp and /dev; only the chosen folders are writable, secrets in the home
folder are hidden, and network off is a network namespace with only loopback. The guard
(`sandbox = "guard"`, the default) changes nothing a run sees but the assistant's own: in
both, its code and Python environment are bound read-only on top, and its config and data
folders (config, profiles, journal, web token) are seen empty and read-only, but for the
downloaded models, so no run can change them or read the secrets in them (secrets.py),
whatever the risk check made of its code.

Signals: the runtime's process group holds the bwrap monitor, bwrap's init (pid 1 of the
sandbox's pid namespace) and the interpreter. The monitor would die of the SIGINT a run
interrupt sends to the group, so it is started with SIGINT ignored, and the interpreter
gets the default back (`env --ignore-signal` / `--default-signal`, coreutils 8.31+).
Init drops signals it has no handler for, as every pid 1 does; SIGKILL reaches all.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.runtime.bus import VARIABLE, BusProxy, socket_path
from assistant.runtime.secrets import keyring_paths

if TYPE_CHECKING:
    from assistant.config import Settings

PACKAGE = "bubblewrap"
HIDDEN = (
    ".ssh", ".gnupg", ".aws", ".password-store", ".mozilla",
    ".config/google-chrome", ".config/chromium", ".config/BraveSoftware", ".kube", ".docker",
    ".netrc", ".git-credentials", ".pgpass", ".pypirc",
)
"""Secrets in the home folder that a sandboxed run does not see (emptied, not removed);
the guard too hides the keyrings' files (secrets.keyring_paths)."""
EXCHANGE_VARIABLES = ("ASSISTANT_VIEW_DIR",)
"""Variables naming folders the host and its runs share files through (screen views)."""
_NAMESPACE_HINTS = ("namespace", "uid map")
"""What bwrap says when user namespaces are off (Debian sysctl, Ubuntu AppArmor, seccomp)."""


class SandboxError(Exception):
    """The sandbox cannot start as asked; the message is one line that says what to do."""


class Sandbox:
    """How runtimes are wrapped in bubblewrap; one per conversation, checked once.

    `writable` folders (default: the runtime's working directory) are the only places a
    run can write; `protected` paths stay read-only even inside them; `hidden` folders
    are seen empty and read-only, but for the `kept` paths in them (read-only);
    `network` False cuts the network off; `bus_allow` names the session-bus services runs
    may talk to besides bus.toml's.
    """

    def __init__(  # noqa: PLR0913 - folders and switches, each named where it is passed
        self,
        writable: Sequence[str] = (),
        *,
        network: bool = True,
        protected: Sequence[str] = (),
        bwrap: str | None = None,
        guard: bool = False,
        hidden: Sequence[str] = (),
        kept: Sequence[str] = (),
        bus_allow: Sequence[str] = (),
    ) -> None:
        self.guard = guard
        self.bus_allow = tuple(bus_allow)
        self.writable = ("/",) if guard else tuple(
            os.path.abspath(os.path.expanduser(p)) for p in writable)
        self.network = network
        self.protected = tuple(os.path.abspath(os.path.expanduser(p)) for p in protected)
        self.hidden = tuple(os.path.abspath(os.path.expanduser(p)) for p in hidden)
        self.kept = tuple(os.path.abspath(os.path.expanduser(p)) for p in kept)
        self.bwrap = bwrap if bwrap is not None else shutil.which("bwrap")
        self._env = shutil.which("env") or "/usr/bin/env"
        self._problem: str | None = None
        self._lock = threading.Lock()
        self._proxy: BusProxy | None = None
        self._proxy_lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> Sandbox | None:
        """The sandbox a Settings asks for (None for `sandbox = false`): its folders,
        network, and the assistant's own (config, profiles, journal, code, and the Python
        environment it runs from), its config and data folders hidden but for the models."""
        if settings.sandbox == "off":
            return None
        guard = settings.sandbox == "guard"
        return cls(settings.sandbox_writable, network=settings.sandbox_network or guard,
                   protected=(*settings.own_paths, *installation()), guard=guard,
                   hidden=(str(settings.config_path), str(settings.data_path)),
                   kept=(str(settings.models_path),), bus_allow=settings.run_bus_allow)

    @classmethod
    def guard_for(cls, settings: Settings) -> Sandbox | None:
        """The guard for the programs the assistant starts besides its runtimes (MCP
        servers over stdio), whatever the runtimes' strength: they keep their own folders
        and network. None for `sandbox = false` or where bubblewrap cannot work here."""
        if settings.sandbox == "off":
            return None
        guard = cls.from_settings(settings.replace(sandbox="guard"))
        return None if guard is None or guard.problem() else guard

    def interpreter_pid(self, monitor: int) -> int | None:
        """The interpreter under bwrap: its child, or with the full sandbox's process
        namespace the child of bwrap's init."""
        if self.guard:
            deadline = time.monotonic() + 2.0
            while (child := _first_child(monitor)) is None and time.monotonic() < deadline:
                time.sleep(0.005)
            return child
        return interpreter_pid(monitor)

    def describe(self, cwd: str) -> str:
        """What code must know to work inside the sandbox, for the system message."""
        if self.guard:
            return ""
        folders = ", ".join(self.writable or (cwd,))
        network = "" if self.network else " There is no network."
        return (f"Runs are sandboxed: only {folders} and a private /tmp are writable; "
                f"everything else is read-only.{network}")

    def problem(self) -> str:
        """Why the sandbox cannot work on this machine ("" when it can); probed once."""
        with self._lock:
            if self._problem is None:
                self._problem = self._probe()
            return self._problem

    def command(
        self, argv: Sequence[str], cwd: str, readable: Sequence[str] = (),
        writable: Sequence[str] | None = None, env: Mapping[str, str] | None = None,
    ) -> list[str]:
        """`argv` wrapped in bwrap, started in `cwd`; `readable` paths are bound read-only.

        `writable` replaces the sandbox's own folders (the probe passes none); the folders
        `env` names in EXCHANGE_VARIABLES stay writable too. The session bus `env`
        names is seen through the filtering proxy (bus.py); the probe passes no bus.
        """
        if not self.bwrap:
            raise SandboxError(missing_message())
        proxied = self._bus(os.environ if env is None else env)
        if self.guard:
            return self._guarded(self.bwrap, argv, cwd, proxied)
        if writable is None:
            writable = self.writable or (cwd,)
        for folder in writable:
            if not os.path.isdir(folder):
                raise SandboxError(f"sandbox_writable folder {folder} does not exist: "
                                   "create it or change sandbox_writable")
        options = [self._env, "--ignore-signal=INT", self.bwrap,
                   "--unshare-user", "--unshare-pid", "--cap-drop", "ALL", "--die-with-parent",
                   "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
        if not self.network:
            options.append("--unshare-net")
        options += _display_binds()
        for path in installation():  # the runtimes' interpreter and drivers, even in /tmp
            options += ["--ro-bind-try", path, path]
        for path in readable:
            options += ["--ro-bind", path, path]
        if not _inside(cwd, writable):
            options += ["--ro-bind-try", cwd, cwd]
        for folder in writable:
            options += ["--bind", folder, folder]
        for name in EXCHANGE_VARIABLES:
            folder = (env or {}).get(name, "")
            if folder and os.path.isdir(folder):
                options += ["--bind", folder, folder]
        options += _hidden(Path.home() / name for name in HIDDEN)
        options += self._own(writable) + self._secrets() + proxied
        return [*options, "--chdir", cwd, "--", self._env, "--default-signal=INT", *argv]

    def _guarded(self, bwrap: str, argv: Sequence[str], cwd: str,
                 proxied: Sequence[str]) -> list[str]:
        """Everything as it is, devices and processes included, but the assistant's own
        and the session bus."""
        options = [self._env, "--ignore-signal=INT", bwrap, "--unshare-user",
                   "--die-with-parent", "--dev-bind", "/", "/"]
        options += [*self._own(("/",)), *self._secrets(), *proxied]
        return [*options, "--chdir", cwd, "--", self._env, "--default-signal=INT", *argv]

    def _own(self, writable: Sequence[str]) -> list[str]:
        """The assistant's own paths bound read-only, and the folders between a writable
        root and each of them pinned (see `_parents`); all pins first, since a bind made
        later would hide a read-only bind below it."""
        pins: set[str] = set()
        for path in self.protected:
            if _inside(path, writable):
                if not os.path.splitext(path)[1]:  # a folder (a profile is a file)
                    os.makedirs(path, mode=0o700, exist_ok=True)
                pins.update(_parents(path, writable))
        options = [o for pin in sorted(pins, key=len) for o in ("--bind", pin, pin)]
        return options + [o for path in self.protected for o in ("--ro-bind-try", path, path)]

    def _bus(self, env: Mapping[str, str]) -> list[str]:
        """The proxied session bus in place of the real one: bound over the real socket
        file, or (an abstract address, which cannot be hidden) named in the variable.
        Nothing without a bus or without the proxy: runs go on, and doctor says so."""
        address = env.get(VARIABLE, "")
        if not address:
            return []
        with self._proxy_lock:
            if self._proxy is None or self._proxy.address != address:
                self.close()
                self._proxy = BusProxy(address, self.bus_allow)
            proxy = self._proxy.socket()
        if proxy is None:
            return []
        real = socket_path(address)
        if real is not None:
            return ["--bind", proxy, real]
        return ["--bind", proxy, proxy, "--setenv", VARIABLE, f"unix:path={proxy}"]

    def close(self) -> None:
        """Stop the bus proxy; the next run starts it again."""
        if self._proxy is not None:
            self._proxy.stop()

    def _secrets(self) -> list[str]:
        """The hidden folders as empty read-only ones holding only the kept paths, and the
        keyrings' files hidden. A folder, not a file, is covered: the web token made or
        renamed into place while a runtime lives would show through a file's cover."""
        options: list[str] = []
        for folder in self.hidden:
            if not os.path.isdir(folder):  # a folder that is not there hides nothing
                continue
            options += ["--tmpfs", folder]
            for path in self.kept:
                if _inside(path, [folder]):
                    options += ["--ro-bind-try", path, path]
            options += ["--remount-ro", folder]
        return options + _hidden(keyring_paths())

    def _probe(self) -> str:
        fallback = "runs go on without it" if self.guard else "or run without --sandbox"
        if not self.bwrap:
            return missing_message(fallback)
        argv = self.command(["true"], "/", writable=None if self.guard else (),
                            env={})
        try:
            probe = subprocess.run(argv, capture_output=True, text=True, timeout=20,
                                   stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"the sandbox cannot start: {error}; {fallback}"
        if probe.returncode == 0:
            return ""
        said = " ".join(probe.stderr.split())[:200] or f"exit status {probe.returncode}"
        if any(hint in said for hint in _NAMESPACE_HINTS):
            return (f"the sandbox cannot start: this system does not allow user namespaces "
                    f"(bwrap: {said}); enable them (Debian: sysctl -w "
                    "kernel.unprivileged_userns_clone=1; Ubuntu 24.04+: sysctl -w "
                    "kernel.apparmor_restrict_unprivileged_userns=0; in a container, allow "
                    f"unshare in its security profile); {fallback}")
        return f"the sandbox cannot start: bwrap failed ({said}); {fallback}"


def missing_message(fallback: str = "or run without --sandbox") -> str:
    return (f"the sandbox needs bubblewrap, which is not installed: apt-get install {PACKAGE} "
            f"({fallback})")


def interpreter_pid(monitor: int, wait: float = 2.0) -> int | None:
    """The sandboxed interpreter: the child of bwrap's init, the child of the monitor."""
    deadline = time.monotonic() + wait
    while True:
        init = _first_child(monitor)
        program = _first_child(init) if init else None
        if program or time.monotonic() >= deadline:
            return program
        time.sleep(0.005)


def _first_child(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as file:
            children = file.read().split()
    except FileNotFoundError:  # a kernel without CONFIG_PROC_CHILDREN: look at every parent
        children = [e.name for e in os.scandir("/proc")
                    if e.name.isdigit() and _parent(e.name) == pid]
    except OSError:
        return None
    return int(children[0]) if children else None


def _parent(pid: str) -> int:
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            return int(file.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def installation() -> tuple[str, ...]:
    """The assistant's code and the Python environments it runs from: what every runtime
    needs to start, wherever it is installed (a private /tmp would hide a checkout there)."""
    code = str(Path(__file__).resolve().parents[1])
    return tuple(dict.fromkeys((code, sys.prefix, sys.base_prefix)))


def _inside(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def _parents(path: str, writable: Sequence[str]) -> list[str]:
    """The folders between a writable root and `path`, to bind onto themselves, writable.

    A mount point cannot be renamed or removed, so a run cannot move a protected folder's
    parent away and put a folder of its own, with a config it wrote, where it was.
    """
    root = max((f for f in writable if _inside(path, [f])), key=len)
    parents: list[str] = []
    parent = os.path.dirname(path)
    while parent != root and _inside(parent, [root]):
        parents.append(parent)
        parent = os.path.dirname(parent)
    return parents


def _display_binds() -> list[str]:
    """The X server's socket and cookie, which a private /tmp would otherwise hide."""
    binds = ["--ro-bind-try", "/tmp/.X11-unix", "/tmp/.X11-unix"]
    cookie = os.environ.get("XAUTHORITY", "")
    if cookie.startswith("/tmp/"):
        binds += ["--ro-bind-try", cookie, cookie]
    return binds


def _hidden(paths: Iterable[Path]) -> list[str]:
    """Secret folders become empty ones, secret files /dev/null (a plain bind would make it
    unopenable: binds other than --dev-bind forbid device files)."""
    options: list[str] = []
    for given in paths:
        path = given.resolve()  # a linked ~/.ssh is hidden where it really is
        if path.is_dir():
            options += ["--tmpfs", str(path)]
        elif path.is_file():
            options += ["--dev-bind", "/dev/null", str(path)]
    return options
