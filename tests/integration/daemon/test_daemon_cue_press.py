"""A press of the hotkey while a cue (the earcon) still plays and the model thinks: the
daemon in this process with its real parts (the popup on Xvfb, PulseAudio for the
microphone and the speaker, Whisper, litellm against the scripted server), so the cue
can be made long enough to be surely playing when the key goes down. The press means
what it means in silence: the turn stops and the daemon listens; a cue is not speech, so
it is no barge-in that would mute the turn and let it go on (README; controller._press).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from assistant.config import Settings
from assistant.daemon.controller import Daemon
from assistant.daemon.notices import Notifier
from assistant.ui.popup import Popup
from tests.support.display import wait_until
from tests.support.llm_server import LLMServer, delay, text

ANSWER = "Your disk has plenty of space left, and this answer was never stopped."
THINKING_S = 20.0  # the scripted model's wait before its first word: past the press
CUE_S = 20.0  # long enough to still play when the key goes down on a busy machine


@pytest.fixture
def daemon(popup: Popup, pulse: Any, transcriber: Any,
           llm: LLMServer) -> Iterator[tuple[Daemon, list[str]]]:
    from assistant.api import Assistant
    from assistant.voice.player import Player
    from assistant.voice.recorder import Recorder
    from assistant.voice.speaker import Speaker
    from assistant.voice.tts import make_engine

    lines: list[str] = []
    settings = Settings(model="openai/gpt-4o-mini", api_base=llm.openai_url, api_key="k")
    made = Daemon(settings, popup=popup, make_assistant=Assistant, transcriber=transcriber,
                  recorder=Recorder(), notifier=Notifier(lines.append), log=lines.append)
    made.attach_speaker(Speaker(make_engine("espeak-ng"), Player()))
    made.start()
    try:
        yield made, lines
    finally:
        made.close()


def logged(lines: list[str], part: str, timeout: float = 30.0) -> None:
    wait_until(lambda: any(part in line for line in lines), f"the daemon logs {part!r}",
               timeout)


def test_a_press_while_a_cue_plays_and_the_model_thinks_stops_the_turn_and_listens(
        daemon: tuple[Daemon, list[str]], llm: LLMServer) -> None:
    import numpy as np

    made, lines = daemon
    llm.add(delay(THINKING_S, text(ANSWER)))
    made.submit("How much space is left on my disk?")
    logged(lines, "-> thinking")
    wait_until(lambda: llm.chat_requests, "the turn asks the model", 30)
    speaker = made.speaker
    assert speaker is not None
    rate = 22050
    speaker.cue(np.full(int(CUE_S * rate), 0.01, dtype=np.float32), rate)
    wait_until(lambda: not speaker.wait(0), "the cue plays", 10)
    made.key_down()
    logged(lines, "assistant daemon: hotkey: stopped the earcon")
    assert made.state == "listening", lines
    time.sleep(0.3)  # a take too short to hold a request
    made.key_up()
    wait_until(lambda: made.state == "idle", "the daemon is idle again", 30)
    logged(lines, "you interrupted")
    assert speaker.wait(5), "the cue went on after the press"
    assert not [line for line in lines if "stopped speaking" in line], lines
    assert not [line for line in lines if ANSWER in line], "the turn went on after the press"
