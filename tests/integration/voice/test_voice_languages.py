"""Speech in another language end to end: `assistant transcribe --language` as a user
runs it on a French take, and a spoken conversation answered in the language heard."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assistant.voice.voices import ENGLISH_ONLY
from assistant.voice.wer import word_error_rate
from tests.integration.conftest import ROOT
from tests.support.audio import rms, speaker_monitor
from tests.support.llm_server import LLMServer, text
from tests.support.models import installed_stt
from tests.unit.voice.test_voice_languages import FRENCH, FRENCH_TOO, french, model


def transcribe(*args: str) -> dict[str, object]:
    """`assistant transcribe --json ARGS` with the data folder setup installed base in."""
    env = {**os.environ, "ASSISTANT_DATA_DIR": str(installed_stt("base").parents[1])}
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "transcribe", "--json", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


@pytest.mark.parametrize("language", ["fr", "auto", "en,fr"])
def test_transcribe_hears_a_french_take_named_or_found(tmp_path: Path, language: str) -> None:
    from assistant.voice.wav import write_wav

    path = tmp_path / "french.wav"
    write_wav(path, french(FRENCH))
    heard = transcribe("--language", language, str(path))
    assert heard["model"] == "base" and heard["language"] == "fr"
    assert "nouveau dossier" in str(heard["text"]).lower()


def test_a_spoken_conversation_answers_in_the_language_heard(pulse: Any,
                                                             transcriber: Any) -> None:
    """French is asked for and spoken by the French voice; a language no voice speaks
    is shown, and said to be unspoken once in the conversation."""
    from assistant.api import Assistant
    from assistant.voice.conversation import VoiceConversation
    from assistant.voice.player import Player
    from assistant.voice.speaker import Speaker
    from assistant.voice.tts import make_engine

    speaker = Speaker(make_engine("espeak-ng"), Player("pulse"))
    out = io.StringIO()
    with LLMServer() as server, Assistant(model="openai/gpt-4o-mini", journal=False,
                                          api_base=server.openai_url, api_key="test",
                                          code_style="tools") as assistant:
        server.add(text(FRENCH_TOO), text("Mo ti se e."), text("O ti pari."))
        voice = VoiceConversation(assistant, speaker, out=out)
        heard = []
        requests = ((FRENCH, "fr"), ("Se e.", "yo"), ("Pari re.", "yo"))
        for request, language in requests:
            with speaker_monitor(pulse) as monitor:
                voice.turn(request, language)
                assert speaker.wait(60)
            heard.append(monitor.audio().astype("float32"))
        asked = [r.body["messages"][-1]["content"] for r in server.chat_requests]
    lines = ["\n(Answer in French.)", *["\n(Answer in the language with ISO code yo.)"] * 2]
    for (request, _), sent, line in zip(requests, asked, lines, strict=True):
        assert sent.startswith(request) and sent.endswith(line), sent
    assert model("base", "en,fr").hear(heard[0]).language == "fr"  # the French voice
    assert out.getvalue().count(ENGLISH_ONLY) == 1 and "O ti pari." in out.getvalue()
    assert word_error_rate(ENGLISH_ONLY, transcriber.transcribe(heard[1])) <= 0.3
    assert rms(heard[2]) < 0.005, "an answer no voice speaks was spoken"
