"""The catalogue of every text the model reads from the loop (texts.toml), by key: one
place to read, reword or translate them, apart from the code that says them."""

from __future__ import annotations

import functools
from pathlib import Path

from assistant.tomlread import tomllib

CATALOGUE = Path(__file__).resolve().parent / "texts.toml"


@functools.cache
def _texts() -> dict[str, str]:
    data = tomllib.loads(CATALOGUE.read_text(encoding="utf-8"))
    return {f"{section}.{name}": value
            for section, entries in data.items() for name, value in entries.items()}


def text(key: str) -> str:
    """The text of `key` ("answer.no_figure"); KeyError names a key the catalogue lacks."""
    try:
        return _texts()[key]
    except KeyError:
        raise KeyError(f"{key} is not in {CATALOGUE}") from None
