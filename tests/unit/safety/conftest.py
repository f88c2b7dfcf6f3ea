"""A home folder of its own for each test, with the assistant's folders where a user has
them, so paths rated here mean the same on every machine."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The assistant's config and data folders under a fresh HOME."""
    home = tmp_path / "home" / "ann"
    home.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    return str(home / ".config" / "assistant"), str(home / ".local" / "share" / "assistant")
