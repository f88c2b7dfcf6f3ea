"""Telling the user things when no window is showing: desktop notifications, else the log.

When notifications cannot be shown (no notify-send, no notification service), that is
said once, and every later message goes to the log instead of vanishing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Notifier:
    """Desktop notifications with a one-time explanation when they are unavailable."""

    def __init__(self, log: Callable[[str], None]) -> None:
        self._log = log
        self._unavailable = False
        self._said: set[str] = set()
        self._lock = threading.Lock()

    def notify(self, title: str, text: str = "") -> bool:
        """Show a notification; False when it went to the log instead."""
        if self._show(title, text):
            return True
        self._log(f"assistant daemon: notice {title}" + (f": {text}" if text else ""))
        return False

    def once(self, key: str, text: str) -> bool | None:
        """Say `text` in the log and as a notification, only the first time for `key`.

        Returns None when it was said before, else whether a notification showed it."""
        with self._lock:
            if key in self._said:
                return None
            self._said.add(key)
        self._log(f"assistant daemon: {text}")
        return self._show("assistant", text)

    def _show(self, title: str, text: str) -> bool:
        if self._unavailable:
            return False
        from assistant.computer.capability import Unavailable
        from assistant.computer.os import notify

        try:
            notify(title, text)
            return True
        except Unavailable as exc:
            self._unavailable = True
            self._log(f"assistant daemon: desktop notifications are unavailable ({exc}); "
                      "results are written here instead")
            return False
