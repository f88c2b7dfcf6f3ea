"""Decoding a short piece of speech with a short Whisper encoder window, and finding where
speech pauses so a take can be cut into such pieces.

faster-whisper always pads audio to Whisper's 30 s window, and on a small CPU the encoder
over 30 s costs most of a pass (about 0.45 s for tiny.en on 2 cores, against under 0.06 s
for 10 s: attention cost grows with the square of the window). CTranslate2's Whisper
encoder accepts fewer frames, so a piece is encoded in a window just long enough for it,
never under MIN_WINDOW_S: below that tiny.en starts repeating itself. The audio gets a
little silence before it (a first word right at the start is often misheard otherwise)
and real silence after it, as Whisper was trained on, and is decoded with timestamps,
which on the fixtures is more accurate than without. A piece that still comes out
repetitive or unsure is decoded again in the full window. Hints (words the user is
likely to say, see hints.py) go into the prompt ahead of the text said before; a hinted
piece that comes out repetitive or unsure is decoded again without them. A multilingual model told
"auto" finds the piece's language from the same encoded window (one decoder step).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, replace
from typing import Any

from assistant.voice.wav import SAMPLE_RATE

HOP = 160  # samples per mel frame
FULL_WINDOW_S = 30.0
MIN_WINDOW_S = 10.0
LEAD_S = 0.3  # silence before the speech
PAD_S = 1.0  # silence after it, so the last word is not cut short
TOKENS_PER_S = 12  # words and timestamps; more than this is a repetition loop
NO_SPEECH_PROB = 0.6
MIN_LOGPROB = -1.0
MAX_COMPRESSION = 2.4  # gzip ratio above which a text is a loop ("the the the ...")
PROMPT_TOKENS = 100  # of the text said before
HINT_TOKENS = 120  # of the hints; the two stay under Whisper's 223-token prompt
PAUSE_MS = 100  # a gap in speech this long is a place to cut a take
# With auto, Whisper base placed 3 of 30 English takes of the tuning part in another
# language (German, Thai), each at under 0.4; at 0.5 they stay English (and on the test
# part 55 of 55 instead of 50), while French it was sure of stays French.
OTHER_LANGUAGE_P = 0.5


@dataclass
class Piece:
    """What one decode gave: text, and the scores the silence guards look at."""

    text: str
    no_speech_prob: float
    avg_logprob: float
    language: str = "en"  # ISO 639-1, as decoded (found, for "auto")
    language_prob: float = 1.0  # how sure finding it was (1 when it was given)

    @property
    def doubtful(self) -> bool:
        """Repetitive ("the the the ...") or unsure: worth decoding another way."""
        return compression_ratio(self.text) > MAX_COMPRESSION or self.avg_logprob < MIN_LOGPROB

    @property
    def speechless(self) -> bool:
        return (not self.text or (self.no_speech_prob > NO_SPEECH_PROB
                                  and self.avg_logprob < MIN_LOGPROB))


def compression_ratio(text: str) -> float:
    data = text.encode()
    return len(data) / len(zlib.compress(data)) if data else 0.0


def prompt_tokens(tokenizer: Any, before: str = "", hints: str = "") -> list[int]:
    """What the decoder reads before the transcript starts: the hints, then the end of
    what was said before, as Whisper's "previous text"; then the start-of-transcript."""
    said = tokenizer.encode(" " + before.strip())[-PROMPT_TOKENS:] if before.strip() else []
    hinted = tokenizer.encode(" " + hints.strip())[:HINT_TOKENS] if hints.strip() else []
    previous = [tokenizer.sot_prev, *hinted, *said] if said or hinted else []
    return [*previous, *tokenizer.sot_sequence]


def to_find(language: str) -> bool:
    """Whether a language setting asks to find the language: "auto", or "en,fr"."""
    return language == "auto" or "," in language


def speech_spans(audio: Any) -> list[tuple[int, int]]:
    """(start, end) samples of speech, split at pauses of PAUSE_MS (Silero VAD: about 3 ms
    per second of audio, and noise is not speech)."""
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    options = VadOptions(min_silence_duration_ms=PAUSE_MS, speech_pad_ms=30)
    return [(span["start"], span["end"]) for span in get_speech_timestamps(audio, options)]


class WindowDecoder:
    """Greedy decoding of one piece, with the text said before it as the prompt.
    `language` is an ISO 639-1 code, "auto" to find it per piece, or codes separated by
    commas ("en,fr") to find it among them; an English-only model always decodes English."""

    def __init__(self, model: Any, language: str = "en") -> None:
        self._model = model
        self.language = language if model.model.is_multilingual else "en"
        self._tokenizers: dict[str, Any] = {}

    def tokenizer(self, language: str) -> Any:
        if language not in self._tokenizers:
            from faster_whisper.tokenizer import Tokenizer

            self._tokenizers[language] = Tokenizer(
                self._model.hf_tokenizer, self._model.model.is_multilingual,
                task="transcribe", language=language)
        return self._tokenizers[language]

    def _find(self, encoded: Any, among: str) -> tuple[str, float]:
        """The likeliest language of the piece, among the comma-separated codes unless
        `among` is "auto", and its share of their probability. With auto, a guess of
        another language than English under OTHER_LANGUAGE_P is taken as English."""
        found = [(token.strip("<|>"), p)
                 for token, p in self._model.model.detect_language(encoded)[0]]
        if among != "auto":
            allowed = set(among.split(","))
            found = [(code, p) for code, p in found if code in allowed]
        elif found[0][0] != "en" and found[0][1] < OTHER_LANGUAGE_P:
            return "en", dict(found).get("en", 0.0)
        return found[0][0], found[0][1] / (sum(p for _, p in found) or 1.0)

    def decode(self, audio: Any, before: str = "", min_window_s: float = MIN_WINDOW_S,
               language: str = "", hints: str = "") -> Piece:
        """The text of float32 16 kHz `audio` (at most about 28 s); `before` is what was
        said just before it, which keeps words, spelling and casing consistent.
        `language` overrides the decoder's own (a take keeps its first piece's); `hints`
        are words the user is likely to say (a list of names, not sentences)."""
        seconds = LEAD_S + len(audio) / SAMPLE_RATE
        window = min(FULL_WINDOW_S, max(min_window_s, seconds + PAD_S))
        piece = self._decode(audio, window, before, language, hints)
        found = piece.language_prob
        if hints and piece.doubtful:  # a list of names can send a small model into a loop
            piece = self._decode(audio, window, before, piece.language)
        if window < FULL_WINDOW_S and piece.doubtful:
            piece = self._decode(audio, FULL_WINDOW_S, before, piece.language, hints)
        return replace(piece, language_prob=found)

    def _decode(self, audio: Any, window_s: float, before: str, language: str = "",
                hints: str = "") -> Piece:
        import ctranslate2
        import numpy as np

        frames = int(window_s * SAMPLE_RATE) // HOP
        lead = np.zeros(int(LEAD_S * SAMPLE_RATE), dtype=np.float32)
        audio = np.concatenate([lead, audio])[: frames * HOP]
        features = self._model.feature_extractor(audio, padding=frames * HOP - len(audio) + HOP)
        features = np.ascontiguousarray(features[None, :, :frames], dtype=np.float32)
        encoded = self._model.model.encode(ctranslate2.StorageView.from_array(features))
        language, sure = language or self.language, 1.0
        if to_find(language):
            language, sure = self._find(encoded, language)
        tokenizer = self.tokenizer(language)
        prompt = prompt_tokens(tokenizer, before, hints)
        result = self._model.model.generate(
            encoded, [prompt], beam_size=1,
            max_length=len(prompt) + 4 + int(TOKENS_PER_S * len(audio) / SAMPLE_RATE),
            return_scores=True, return_no_speech_prob=True,
            suppress_blank=True, suppress_tokens=[-1],
            max_initial_timestamp_index=50,
        )[0]
        tokens = result.sequences_ids[0]
        text = tokenizer.decode(tokens).strip()
        return Piece(text, result.no_speech_prob, result.scores[0] if text else 0.0, language,
                     sure)
