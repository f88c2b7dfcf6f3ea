"""A local assistant that turns requests into code you approve, then runs it on your machine.

Public API: `Assistant` (see assistant.api). Loaded on first use so that the command line
starts fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from assistant.api import Assistant

__all__ = ["Assistant"]


def __getattr__(name: str) -> Any:
    if name == "Assistant":
        from assistant.api import Assistant

        return Assistant
    raise AttributeError(f"module 'assistant' has no attribute {name!r}")
