"""uvicorn serving the app: on the main thread for `assistant serve`, on a thread of its own
in the daemon. The socket is bound first, so the URL (and its port) is known before any
request can come; no access log is written, so no URL with a token ever reaches a log."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from typing import Any

GRACE_S = 1  # open event streams get this long to end before they are cut


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on (host, port); port 0 takes a free one. Raises OSError."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


class Server:
    """One uvicorn server on one bound socket; `stop()` may be called from any thread."""

    def __init__(self, app: Any, sock: socket.socket, *, tls_cert: str = "",
                 tls_key: str = "") -> None:
        import uvicorn

        class Quiet(uvicorn.Server):
            @contextlib.contextmanager
            def capture_signals(self) -> Iterator[None]:
                yield  # the front end that owns the process decides what a signal means

        config = uvicorn.Config(app, access_log=False, log_level="warning", lifespan="off",
                                ws="none", timeout_graceful_shutdown=GRACE_S,
                                ssl_certfile=tls_cert or None, ssl_keyfile=tls_key or None)
        self._server = Quiet(config)
        self.sock = sock
        self.port: int = sock.getsockname()[1]

    def run(self) -> None:
        """Serve until `stop()`."""
        try:
            self._server.run(sockets=[self.sock])
        finally:
            self.sock.close()

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.run, name="web", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self._server.should_exit = True
