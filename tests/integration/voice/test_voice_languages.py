"""Speech in another language end to end: `assistant transcribe --language` as a user
runs it on a French take, and a spoken conversation answered in the language heard."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.conftest import ROOT
from tests.support.models import installed_stt
from tests.unit.voice.test_voice_languages import FRENCH, french


def transcribe(*args: str) -> dict[str, object]:
    """`assistant transcribe --json ARGS` with the data folder setup installed base in."""
    env = {**os.environ, "ASSISTANT_DATA_DIR": str(installed_stt("base").parents[1])}
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "transcribe", "--json", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


@pytest.mark.parametrize("language", ["fr", "auto"])
def test_transcribe_hears_a_french_take_named_or_found(tmp_path: Path, language: str) -> None:
    from assistant.voice.wav import write_wav

    path = tmp_path / "french.wav"
    write_wav(path, french(FRENCH))
    heard = transcribe("--language", language, str(path))
    assert heard["model"] == "base" and heard["language"] == "fr"
    assert "nouveau dossier" in str(heard["text"]).lower()
