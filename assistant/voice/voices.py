"""Which voice speaks an answer in the language its request was heard in.

The configured engine speaks English (Piper's installed voice, and pyttsx3 as set up
here, speak nothing else); espeak-ng has voices for most languages Whisper hears (fr, de,
es, ...). An answer in a language no installed voice speaks is shown, not spoken, and the
user is told once per conversation, in English, that it speaks English only.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import weakref
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from assistant.voice.tts import Engine

ENGLISH_ONLY = "I speak English only, so the answer is on screen."


class Voiced(Protocol):
    """A speaker whose engine can be swapped between turns."""

    engine: Engine


@functools.cache
def espeak_voice(language: str) -> str:
    """espeak-ng's voice for an ISO 639-1 code; "" when it has none or is not installed."""
    if shutil.which("espeak-ng") is None or not language.isalpha():
        return ""
    listed = subprocess.run(["espeak-ng", f"--voices={language}"], capture_output=True,
                            text=True, timeout=10, check=False).stdout.splitlines()[1:]
    for line in listed:
        fields = line.split()
        if len(fields) > 3 and fields[1].split("-")[0] == language \
                and not fields[3].startswith("mb/"):  # MBROLA voices need data of their own
            return language
    return ""


class Voices:
    """The engine for each turn's language, and the conversation the user was last told
    in that there is none."""

    def __init__(self, speaker: Voiced) -> None:
        self.speaker = speaker
        self.english = speaker.engine
        self._engines: dict[str, Engine | None] = {}
        self._told: weakref.ref[Any] | None = None  # not kept alive by this

    def engine(self, language: str) -> Engine | None:
        """The engine that speaks `language`: the configured one for English (and for a
        request whose language is unknown), espeak-ng's voice, or None."""
        if language in ("", "en"):
            return self.english
        if language not in self._engines:
            from assistant.voice.tts import EspeakEngine

            voice = espeak_voice(language)
            self._engines[language] = EspeakEngine(voice) if voice else None
        return self._engines[language]

    def begin(self, language: str, conversation: Any) -> tuple[bool, str]:
        """A turn of `conversation` (any object that stands for it) answered in
        `language`: the speaker gets its voice. Returns whether the answer is spoken, and
        the line to say now (ENGLISH_ONLY, once per conversation, when no voice speaks it)."""
        engine = self.engine(language)
        self.speaker.engine = engine or self.english
        if engine is not None:
            return True, ""
        told = self._told is not None and self._told() is conversation
        self._told = weakref.ref(conversation)
        return False, "" if told else ENGLISH_ONLY
