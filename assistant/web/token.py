"""The server's token: random, kept 0600 in the data folder, new at every start of a server
unless the user keeps it (`serve_keep_token`, `--keep-token`).

Whoever holds it is the owner, so it is only ever written to this file and printed in the
one URL `assistant serve` shows; it is never logged, journaled or put in an error message.
A token read or copied earlier stops working when the server starts again.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

FILE = "web-token"


class TokenFile:
    """The token of one data folder."""

    def __init__(self, data_path: Path) -> None:
        self.path = Path(data_path) / FILE

    def get(self) -> str:
        """The token, made on first use."""
        try:
            token = self.path.read_text().strip()
        except FileNotFoundError:
            token = ""
        return token or self.rotate()

    def rotate(self) -> str:
        """A new token: every page and client holding the old one is locked out."""
        token = secrets.token_urlsafe(32)
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fresh = self.path.with_name(f".{FILE}.{os.getpid()}")
        fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, (token + "\n").encode())
        finally:
            os.close(fd)
        os.chmod(fresh, 0o600)  # whatever the umask or an older file said
        os.replace(fresh, self.path)
        return token

    def at_start(self, *, keep: bool) -> str:
        """The token of a server that is starting: a new one, or the kept one."""
        return self.get() if keep else self.rotate()

    def matches(self, offered: str) -> bool:
        return bool(offered) and secrets.compare_digest(offered.encode(), self.get().encode())
