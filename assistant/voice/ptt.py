"""Push-to-talk: the hotkey starts a take (stopping any speech: barge-in), and on release
the earcon says the take was heard (when it holds speech) while its transcript, decoded
while the key was held, is finished and goes to `on_text` with its language."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from assistant.choices import HotkeyMode
from assistant.voice.earcon import acknowledge
from assistant.voice.hints import Hints
from assistant.voice.hotkey import Hotkey
from assistant.voice.recorder import Recorder
from assistant.voice.stt import Take, Transcriber

if TYPE_CHECKING:
    from assistant.voice.speaker import Speaker


class PushToTalk:
    def __init__(  # noqa: PLR0913 - the parts it joins, then keyword-only options
            self, transcriber: Transcriber, recorder: Recorder, hotkey: str,
            on_text: Callable[[str, str], None], *, mode: HotkeyMode = "hold",
            speaker: Speaker | None = None, earcon: bool = True,
            on_state: Callable[[str], None] | None = None) -> None:
        self.transcriber = transcriber
        self.recorder = recorder
        self.speaker = speaker
        self.earcon = earcon  # the `earcon` setting
        self._on_text = on_text
        self._on_state = on_state or (lambda state: None)
        self._take: Take | None = None
        self._lock = threading.Lock()
        self.hotkey = Hotkey(hotkey, self.begin, self.end, mode=mode)

    def start(self) -> None:
        self.hotkey.start()

    def stop(self) -> None:
        self.hotkey.stop()
        if self.recorder.recording:
            self.recorder.stop()

    def begin(self) -> None:
        """Key down: silence the assistant (or the earcon) and listen."""
        if self.speaker is not None:
            self.speaker.stop()
        with self._lock:
            self._take = self.transcriber.take(hints=Hints().text)
            self.recorder.start(self._take.feed)
        self._on_state("listening")

    def end(self) -> None:
        """Key up: close the microphone; the transcript follows from a worker thread."""
        with self._lock:
            take, self._take = self._take, None
            if take is None:
                return
            self.recorder.stop()
        self._on_state("transcribing")
        threading.Thread(target=self._finish, args=(take,), daemon=True).start()

    def _finish(self, take: Take) -> None:
        acknowledge(take, self.speaker, self.earcon)
        text = take.finish()
        self._on_state("idle")
        if text:
            self._on_text(text, take.language)
