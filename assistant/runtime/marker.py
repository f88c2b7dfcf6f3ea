"""Finding the end-of-run marker in a stream of program output.

A driver ends every run by writing ``<token><exit status>;`` to stdout and to
stderr. The token is random per run, so a program cannot fake it; it can still
arrive split across reads or glued to output that lacks a final newline, so the
scanner holds back any tail that could be the start of the token and never lets
a character of the marker reach the user.
"""

from __future__ import annotations

import secrets


def new_token() -> str:
    """An unguessable marker for one run."""
    return "run-end-" + secrets.token_hex(16)


class MarkerScanner:
    """Splits one stream's text into program output and the run's end marker."""

    def __init__(self) -> None:
        self._token = ""
        self._pending = ""
        self._carry = ""
        self.done = False
        self.status: int | None = None

    def start(self, token: str) -> None:
        """Watch for a new run's token; text that came after the last marker belongs to it."""
        self._token = token
        self._pending = self._carry
        self._carry = ""
        self.done = False
        self.status = None

    def feed(self, text: str) -> str:
        """Take newly read text and return the part that is safe to show now."""
        if self.done:
            self._carry += text
            return ""
        buffer = self._pending + text
        start = buffer.find(self._token)
        if start >= 0:
            end = buffer.find(";", start + len(self._token))
            if end < 0:
                self._pending = buffer[start:]
                return buffer[:start]
            status = buffer[start + len(self._token) : end]
            self.status = int(status) if status.lstrip("-").isdigit() else None
            self.done = True
            self._pending = ""
            self._carry = buffer[end + 1 :]
            return buffer[:start]
        held = _token_prefix_length(buffer, self._token)
        self._pending = buffer[len(buffer) - held :] if held else ""
        return buffer[: len(buffer) - held]

    def flush(self) -> str:
        """Give up on the marker (the process is gone) and return whatever was held back."""
        text, self._pending = self._pending, ""
        return text


def _token_prefix_length(text: str, token: str) -> int:
    """Length of the longest end of `text` that is also a beginning of `token`."""
    for length in range(min(len(text), len(token) - 1), 0, -1):
        if text.endswith(token[:length]):
            return length
    return 0
