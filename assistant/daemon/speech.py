"""What one turn says aloud while the LLM streams: its first sentence as soon as it is
complete (a proposal's plan, or the start of the answer), the rest of an answer only
when it is short, else "Details are on screen." Everything is on screen first: the
popup shows the words as they stream, and speech follows.

A barge-in mutes the turn until a run ends: its remaining words are shown and journaled,
not spoken. A turn in a language no installed voice speaks is silent throughout.
"""

from __future__ import annotations

from assistant.daemon.parts import SpeakerLike
from assistant.voice.brief import ON_SCREEN, SHORT_SENTENCES, SHORT_WORDS
from assistant.voice.sentences import SentenceSplitter


class TurnSpeech:
    """Fed the turn's words; says the first sentence of each stretch of text at once."""

    def __init__(self) -> None:
        self.speaker: SpeakerLike | None = None
        self.muted = False
        self.silent = False  # no voice speaks this turn's language
        self._splitter = SentenceSplitter()
        self._said = 0  # sentences of this stretch of text spoken (or held back)
        self._held: list[str] = []

    def begin(self, silent: bool = False) -> None:
        """A new turn: nothing said yet, not muted; `silent` when no voice speaks it."""
        self.muted = False
        self.silent = silent
        self._restart()

    def _restart(self) -> None:
        self._splitter = SentenceSplitter()
        self._said = 0
        self._held = []

    def feed(self, delta: str) -> None:
        for sentence in self._splitter.feed(delta):
            self._take(sentence)

    def _take(self, sentence: str) -> None:
        self._said += 1
        if self._said == 1:
            self._say(sentence)
        else:
            self._held.append(sentence)

    def code(self) -> None:
        """Code is being written: the words before it are complete, though the last has no
        full stop ("To check the free space"), so the plan is said now, not once the code
        is whole and previewed. A fenced reply's fence never reaches the words (its code
        comes as drafts), so this is what ends the plan."""
        for sentence in self._splitter.flush():
            self._take(sentence)

    def proposal(self) -> None:
        """Code follows the words: their first sentence was the plan, the rest is on
        screen. The next stretch (after the run) starts afresh."""
        for sentence in self._splitter.flush():
            self._take(sentence)
        self._restart()

    def answer_end(self) -> None:
        """The answer is complete: say the rest when it is short, else where it is."""
        for sentence in self._splitter.flush():
            self._take(sentence)
        if self._held:
            words = sum(len(sentence.split()) for sentence in self._held)
            short = self._said <= SHORT_SENTENCES and words <= SHORT_WORDS
            self._say(" ".join(self._held) if short else ON_SCREEN)
        self._restart()

    def run_over(self) -> None:
        """A run has ended: what the LLM says next is news, spoken even after a barge-in
        that silenced the proposal being read out."""
        self.muted = False
        self._restart()

    def mute(self) -> None:
        """The user pressed the hotkey: silence now, and nothing more until a run ends."""
        self.muted = True
        if self.speaker is not None:
            self.speaker.stop()

    def _say(self, text: str) -> None:
        if self.speaker is not None and not self.muted and not self.silent:
            self.speaker.say(text)
