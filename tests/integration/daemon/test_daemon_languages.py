"""The daemon hears a request in French and answers in French, aloud in the French voice:
a real process with Whisper base, the take played into the virtual microphone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.integration.daemon.conftest import HOTKEY, ready_daemon
from tests.support.audio import speaker_monitor
from tests.support.display import xdotool
from tests.support.llm_server import LLMServer, text
from tests.support.models import installed_stt
from tests.unit.voice.test_voice_languages import FRENCH, FRENCH_TOO, french, model


def test_a_french_request_is_answered_in_french(display: str, pulse: Any, tmp_path: Path,
                                                llm: LLMServer) -> None:
    config = f'stt_model = "{installed_stt("base")}"\nstt_language = "auto"\n'
    with ready_daemon(tmp_path / "home", llm, config) as daemon:
        llm.add(text(FRENCH_TOO))
        asked = len(llm.chat_requests)
        start = daemon.mark()
        xdotool("keydown", HOTKEY)
        daemon.wait_state("listening", start)
        pulse.play_into_mic(french(FRENCH))
        while not pulse.mic_idle():
            time.sleep(0.02)
        time.sleep(0.3)
        with speaker_monitor(pulse) as monitor:
            xdotool("keyup", HOTKEY)
            daemon.wait_for("assistant daemon: answer", start, timeout=120)
            daemon.wait_state("idle", start, timeout=60)
        request = llm.chat_requests[asked].body["messages"][-1]["content"]
        assert "nouveau dossier" in request.lower() and request.endswith(
            "\n(Answer in French.)"), request
        spoken = model("base", "en,fr").hear(monitor.audio().astype("float32"))
        assert spoken.language == "fr"  # in the French voice
