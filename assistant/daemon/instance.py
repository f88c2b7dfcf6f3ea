"""One daemon per user: a lock file held for the daemon's life, and a Unix socket beside it.

The kernel drops the lock when the process dies, however it dies, so a killed daemon never
blocks the next start; its leftover socket file is simply replaced. A second start finds
the lock taken, asks the running daemon over the socket to come forward, and learns its
pid from the answer.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import socket
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

MAX_SOCKET_PATH = 100  # AF_UNIX paths are limited to 108 bytes


class AlreadyRunning(Exception):
    """Another daemon holds the lock; `pid` is its process id (0 when it did not answer)."""

    def __init__(self, pid: int, answered: bool) -> None:
        super().__init__(pid)
        self.pid = pid
        self.answered = answered


def socket_path(folder: Path) -> Path:
    """The socket beside the lock, or in the temp folder when that path is too long."""
    path = folder / "daemon.sock"
    if len(str(path)) <= MAX_SOCKET_PATH:
        return path
    digest = hashlib.sha256(str(folder).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"assistant-{os.getuid()}-{digest}.sock"


def ask(folder: Path, command: str, timeout: float = 3.0) -> str:
    """Send one command line to the running daemon and return its one-line answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(timeout)
        client.connect(str(socket_path(folder)))
        client.sendall(command.encode() + b"\n")
        return client.makefile("r", encoding="utf-8").readline().strip()


class Instance:
    """The running daemon's claim; `commands` maps a command line to its answer."""

    def __init__(self, folder: Path, commands: dict[str, Callable[[], str]]) -> None:
        self.folder = folder
        self.commands = commands
        self._lock_file: int | None = None
        self._server: socket.socket | None = None

    def claim(self) -> None:
        """Take the lock and open the socket, or raise AlreadyRunning after asking the
        running daemon to come forward."""
        self.folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(self.folder / "daemon.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            raise self._running_one() from None
        os.ftruncate(descriptor, 0)
        os.write(descriptor, str(os.getpid()).encode())
        self._lock_file = descriptor
        path = socket_path(self.folder)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()  # left by a daemon that was killed: the lock says it is gone
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(path))
        os.chmod(path, 0o600)
        server.listen(4)
        self._server = server
        threading.Thread(target=self._serve, name="daemon-socket", daemon=True).start()

    def _running_one(self) -> AlreadyRunning:
        try:
            answer = ask(self.folder, "raise")
        except OSError:
            text = (self.folder / "daemon.lock").read_text().strip()
            return AlreadyRunning(int(text) if text.isdigit() else 0, answered=False)
        pid = answer.split()[-1]
        return AlreadyRunning(int(pid) if pid.isdigit() else 0, answered=True)

    def _serve(self) -> None:
        server = self._server
        while server is not None:
            try:
                connection, _ = server.accept()
            except OSError:
                return  # closed
            with connection:
                connection.settimeout(2.0)
                try:
                    line = connection.makefile("r", encoding="utf-8").readline().strip()
                    handler = self.commands.get(line)
                    answer = handler() if handler else f"unknown command {line!r}"
                    connection.sendall(f"{answer} {os.getpid()}\n".encode())
                except OSError:
                    continue

    def release(self) -> None:
        if self._server is not None:
            server, self._server = self._server, None
            with contextlib.suppress(OSError):
                server.shutdown(socket.SHUT_RDWR)  # wakes the accept() in _serve
            server.close()
            with contextlib.suppress(FileNotFoundError):
                socket_path(self.folder).unlink()
        if self._lock_file is not None:
            os.close(self._lock_file)
            self._lock_file = None
