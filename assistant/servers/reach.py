"""Whether a server takes connections at an address: one TCP connect, bounded in time.

Its own module because both the choice of a local model (local.py) and the shared
embedded server's record (shared.py) ask it, and local.py starts the shared server.
"""

from __future__ import annotations

import socket
import urllib.parse


def accepts_connections(url: str, timeout: float) -> bool:
    """Whether the server at `url` accepts a TCP connection within `timeout` seconds."""
    parts = urllib.parse.urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname or "localhost", port), timeout=timeout):
            return True
    except OSError:
        return False
