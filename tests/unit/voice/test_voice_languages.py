"""Speech in several languages on the real Whisper base model that scripts/setup joins
into the data folder, beside the English-only tiny.en."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assistant.voice.wer import word_error_rate
from tests.support.audio import voice_installed
from tests.support.models import installed_stt
from tests.support.require import require


@pytest.fixture(scope="module")
def base() -> Any:
    """Whisper base by its name, found in the data folder setup installed it in."""
    require(voice_installed(), "the voice extra is not installed (pip install -e '.[voice]')")
    from assistant.voice.stt import Transcriber

    transcriber = Transcriber("base", models=installed_stt("base").parent)
    transcriber.load()
    return transcriber


def test_base_is_found_by_name_and_hears_english(base: Any, speech: dict[str, Any]) -> None:
    from assistant.voice.wav import read_wav

    entry = speech["piper_disk"]
    assert base.model.model.is_multilingual
    assert word_error_rate(entry["text"], base.transcribe(read_wav(entry["path"]))) <= 0.15


def test_base_missing_says_how_to_install_it(tmp_path: Path) -> None:
    from assistant.voice.stt import ModelError, Transcriber

    with pytest.raises(ModelError, match=r"not installed in .*: run ./scripts/setup \(or "
                                         r"assistant models pull base\)"):
        Transcriber("base", models=tmp_path).load()
