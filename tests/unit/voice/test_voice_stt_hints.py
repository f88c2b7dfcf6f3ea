"""Hints on the real Whisper model: what the decoder is fed, and a name it then gets right."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from tests.support.require import require

SCREEN = "Kdenlive, Firefox, Terminal, Files, Activities, Settings"
REQUEST = "Switch to the Kdenlive window."


@pytest.fixture(scope="module")
def kdenlive() -> Any:
    """Piper's joe asking for a window whose name Whisper does not know."""
    require(importlib.util.find_spec("piper") is not None,
            "the piper extra is not installed (pip install -e '.[piper]')")
    from assistant.voice.tts import make_engine
    from assistant.voice.wav import resample

    return resample(*make_engine("piper").synthesize(REQUEST))


def test_prompt_puts_hints_then_the_text_before_ahead_of_the_transcript(transcriber) -> None:
    from assistant.voice.window import HINT_TOKENS, PROMPT_TOKENS, prompt_tokens

    tokenizer = transcriber.decoder.tokenizer("en")
    start = list(tokenizer.sot_sequence)
    assert prompt_tokens(tokenizer) == start
    tokens = prompt_tokens(tokenizer, "Open the editor.", SCREEN)
    assert tokens[0] == tokenizer.sot_prev and tokens[-len(start):] == start
    assert tokenizer.decode(tokens[1:-len(start)]) == f" {SCREEN} Open the editor."
    long = prompt_tokens(tokenizer, "word " * 500, ", ".join(["Kdenlive"] * 500))
    assert len(long) == 1 + HINT_TOKENS + PROMPT_TOKENS + len(start)
    assert tokenizer.decode(long[1:4]).startswith(" Kdenlive")


def test_hints_change_how_an_unusual_name_is_written(transcriber, kdenlive) -> None:
    plain = transcriber.transcribe(kdenlive)
    hinted = transcriber.transcribe(kdenlive, hints=SCREEN)
    assert "kdenlive" not in plain.lower(), plain
    assert "Kdenlive" in hinted, hinted
    assert hinted.lower().startswith("switch to the"), hinted


def test_a_take_asks_for_its_hints_when_it_decodes(transcriber, kdenlive) -> None:
    asked = []

    def hints() -> str:
        asked.append(True)
        return SCREEN

    take = transcriber.take(hints=hints)
    take.feed(kdenlive)
    text = take.finish()
    assert asked and "Kdenlive" in text, text
