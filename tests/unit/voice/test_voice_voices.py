"""The voice for each turn's language: espeak-ng's French really speaks French (Whisper
base hears it as such), a language no voice speaks is said once per conversation."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from typing import Any

from assistant.voice.voices import ENGLISH_ONLY, Voices, espeak_voice
from tests.support.require import require
from tests.unit.voice.test_voice_languages import model


@dataclass
class Holder:
    """What Voices needs of a speaker: an engine it may swap."""

    engine: Any


class Conversation:
    """Stands for a conversation (an Assistant in the front ends)."""


def english() -> Any:
    require(shutil.which("espeak-ng") is not None, "espeak-ng is not installed")
    from assistant.voice.tts import EspeakEngine

    return EspeakEngine()


def test_espeak_has_voices_for_french_german_spanish_and_not_for_every_language() -> None:
    english()
    assert [espeak_voice(code) for code in ("fr", "de", "es", "yo", "x1")] == [
        "fr", "de", "es", "", ""]


def test_a_french_turn_is_spoken_in_french_and_english_turns_in_the_configured_voice() -> None:
    from assistant.voice.wav import resample

    speaker = Holder(english())
    voices = Voices(speaker)
    conversation = Conversation()
    assert voices.begin("fr", conversation) == (True, "")
    assert speaker.engine.voice == "fr"
    audio, rate = speaker.engine.synthesize("J'ai renommé les photos de vacances par date et "
                                            "je les ai rangées dans un nouveau dossier.")
    assert model("base", "en,fr").hear(resample(audio, rate)).language == "fr"
    assert voices.begin("en", conversation) == (True, "")
    assert speaker.engine is voices.english
    assert voices.begin("", conversation) == (True, "") and speaker.engine is voices.english


def test_without_a_voice_the_user_is_told_once_per_conversation() -> None:
    speaker = Holder(english())
    voices = Voices(speaker)
    first, second = Conversation(), Conversation()
    assert voices.begin("yo", first) == (False, ENGLISH_ONLY)
    assert speaker.engine is voices.english  # what is said, is said in English
    assert voices.begin("yo", first) == (False, "")
    assert voices.begin("fr", first) == (True, "")
    assert voices.begin("yo", first) == (False, "")
    assert voices.begin("yo", second) == (False, ENGLISH_ONLY)
