"""One environment variable set for a while, for the tests and the children they start."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def variable(name: str, value: str) -> Iterator[None]:
    """`name` is `value` in os.environ while this lasts, then what it was (or unset)."""
    previous = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = previous
