"""Shared test set-up: the session runs in a home of its own, and every test with its own
config and data dirs, never the user's."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# One accessibility bus; one PulseAudio, one set of speech fixtures and one loaded
# Whisper model for the session.
from tests.support.a11y_bus import a11y_bus
from tests.support.audio import pulse, speech, transcriber
from tests.support.environ import isolate, remove_home, temporary_home, variable

# Where setup put the model weights, read in the person's data folder before the session's
# own home replaces it (tests pass the files on by path).
from tests.support.models import INSTALLED, PLACE_VARIABLE

__all__ = ["INSTALLED", "a11y_bus", "pulse", "speech", "transcriber"]

# Before anything imports litellm: no price-list fetch, and no stray calls to a real Ollama.
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
os.environ.setdefault("OLLAMA_API_BASE", "http://127.0.0.1:9")
HOME_KEY = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    """The session's own home, before any test module is imported (each xdist worker makes
    its own)."""
    os.environ[PLACE_VARIABLE] = str(INSTALLED)
    config.stash[HOME_KEY] = temporary_home()


def pytest_unconfigure(config: pytest.Config) -> None:
    if HOME_KEY in config.stash:
        remove_home(config.stash[HOME_KEY])


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point config, journal and the shared embedded server's runtime folder at a temporary
    folder and clear keys that would pick a model; a shared server the test started is
    stopped after it (its keep-alive would hold the model for minutes)."""
    isolate(tmp_path, monkeypatch)
    yield tmp_path
    if any((tmp_path / "run").glob("embedded-*.json")):
        from assistant.servers import shared

        for running in shared.records():
            shared.stop(running)


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """One Xvfb for the whole session; DISPLAY is set for the tests and their children."""
    from tests.support.display import xvfb

    with xvfb() as name, variable("DISPLAY", name):
        yield name
