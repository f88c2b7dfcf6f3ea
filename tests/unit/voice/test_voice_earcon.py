"""The earcon as shipped: short, soft, click-free, at the voices' rate, and in the package."""

from __future__ import annotations

import fnmatch
import wave
from pathlib import Path

import pytest

from assistant.tomlread import tomllib
from assistant.voice import earcon

ROOT = Path(__file__).resolve().parents[3]


def test_the_earcon_is_short_soft_and_starts_and_ends_in_silence() -> None:
    np = pytest.importorskip("numpy")
    with wave.open(str(earcon.HEARD), "rb") as handle:
        assert (handle.getnchannels(), handle.getsampwidth()) == (1, 2)
        assert handle.getframerate() == earcon.RATE  # shares speech's stream
    audio = earcon.heard()
    assert len(audio) / earcon.RATE < 0.2
    assert np.abs(audio).max() <= 0.3  # about -12 dBFS: never startling
    assert abs(audio[0]) < 0.01 and abs(audio[-1]) < 0.01  # no click at either end


def test_the_earcon_is_package_data() -> None:
    """An installed copy has the WAV: pyproject's package data names it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["assistant"]
    name = earcon.HEARD.relative_to(ROOT / "assistant").as_posix()
    assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), patterns
