"""Environment variables set for a while, for the tests and the children they start."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


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


def isolate(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Config, data and the shared embedded server's runtime folder made under `folder`, and
    no ASSISTANT_ setting or API key from outside: what every test, and every server a
    module's tests share, runs with, never the user's."""
    kept = {"ASSISTANT_CONFIG_DIR": folder / "config", "ASSISTANT_DATA_DIR": folder / "data",
            "ASSISTANT_RUNTIME_DIR": folder / "run"}
    for name, path in kept.items():
        path.mkdir(mode=0o700)
        monkeypatch.setenv(name, str(path))
    for name in list(os.environ):
        if name.startswith("ASSISTANT_") and name not in kept:
            monkeypatch.delenv(name)
        if name.endswith("_API_KEY"):
            monkeypatch.delenv(name)
