"""The embedded model's servers one owner uses: an object, never a module's registry.

Whoever starts a server (an Assistant, a command, the daemon, a benchmark) holds a
`Servers` and passes it to the LLM that talks to the server. It answers one question the
same way for a shared server and a private one, `serves(address)`: the address is an
embedded server this owner keeps, so the adapter speaks to it directly (llm/direct.py)
and asks `ensure` before each reply. Two owners in one process never see each other's
servers; `close` stops the private ones and leaves the shared one to its keep-alive.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from assistant.config import Settings
from assistant.servers.embedded import EmbeddedServer, Model
from assistant.servers.shared import Shared

Tell = Callable[[str], None]


class Kept(Protocol):
    """One server as its owner keeps it: a private EmbeddedServer or a Shared handle."""

    def ensure(self) -> str:
        """Its OpenAI URL now, started again first where it can be."""

    def settings_for(self, settings: Settings) -> Settings:
        """`settings` pointed at it."""


def _quiet(_line: str) -> None:
    """Tells no one."""


class Servers:
    """The servers one owner started or found, by every address they were served at."""

    def __init__(self, tell: Tell = _quiet) -> None:
        """`tell`: where the one line a user should see goes (a start, a restart)."""
        self.tell = tell
        self._kept: dict[str, Kept] = {}
        self._private: list[EmbeddedServer] = []
        self._lock = threading.Lock()

    def start(self, model: Model, settings: Settings) -> Settings:
        """`settings` pointed at a server of `model`: the user's shared one (found or
        started; it stays after `close` for `embedded_keep_alive`), or with a keep-alive
        of 0 a private one, stopped by `close`. EmbeddedError when it cannot start."""
        kept: Kept
        if settings.embedded_keep_alive:
            kept = Shared(model, settings.embedded_keep_alive, self.tell)
        else:
            self.tell(model.notice)
            private = EmbeddedServer(model).start()
            with self._lock:
                self._private.append(private)
            kept = private
        ready = kept.settings_for(settings)
        with self._lock:
            self._kept[ready.api_base] = kept
        return ready

    def serves(self, api_base: str) -> bool:
        """Whether `api_base` is (or was, before a restart moved it) an embedded server
        of these."""
        with self._lock:
            return api_base in self._kept

    def ensure(self, api_base: str) -> str:
        """Where the server once at `api_base` is now: a shared one that stopped (its
        keep-alive, a crash) is started again first, perhaps on another port, and is then
        known at both addresses. Any other address comes back as it is. EmbeddedError
        when the server cannot start again."""
        with self._lock:
            kept = self._kept.get(api_base)
        if kept is None:
            return api_base
        url = kept.ensure()
        with self._lock:
            self._kept[url] = kept
        return url

    def close(self) -> None:
        """Stop the private servers; the shared one is left to its keep-alive."""
        with self._lock:
            private, self._private = self._private, []
            self._kept.clear()
        for server in private:
            server.stop()

    def __enter__(self) -> Servers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
