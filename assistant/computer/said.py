"""Text a `computer` call returns to be read: shown as it reads, not quoted, when the call
is a run's last line (the Python runtime shows a last expression's repr, as Jupyter does)."""

from __future__ import annotations


class Said(str):
    """Text whose repr is itself."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)
