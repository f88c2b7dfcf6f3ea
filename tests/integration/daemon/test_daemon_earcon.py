"""The earcon as a user hears it from the real daemon: on release of a spoken request it
comes at once, through the speaker (the PulseAudio null sink, recorded), and well before
the first spoken word, which still waits for the panel; a release on silence gets none;
`earcon = false` leaves the speech as the first sound (a press while it plays and the
model thinks: test_daemon_cue_press.py). The LLM is scripted to take 1.5 s, as a local
model takes seconds to write its first sentence."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from assistant.journal import Journal
from assistant.voice.wav import read_wav
from assistant.voice.wer import word_error_rate
from tests.integration.daemon.conftest import (
    DaemonProcess,
    hold_the_key_while,
    ready_daemon,
)
from tests.integration.daemon.test_daemon import POPUP, press_in_popup, visible_window
from tests.integration.daemon.test_daemon_panel import PANEL, quiet
from tests.support.audio import (
    Monitor,
    bursts,
    earcon_heard,
    speaker_monitor,
    speech_times,
)
from tests.support.llm_server import LLMServer, delay, text, tool_call

PLAN = "I'll check the free disk space."
THINKING_S = 1.5  # the scripted LLM's wait before its first word


def ask_aloud(daemon: DaemonProcess, llm: LLMServer, pulse: Any, monitor: Monitor,
              entry: dict) -> tuple[float, float]:
    """A spoken request whose proposal is read out; the key's release and the panel's
    appearance (time.monotonic()), once the read-out is over; then Cancel."""
    llm.add(delay(THINKING_S, tool_call("shell", "df -h", text=PLAN)), text("Alright."))
    start = daemon.mark()
    released = hold_the_key_while(daemon, pulse, read_wav(entry["path"]))
    visible_window(PANEL)
    panel_at = time.monotonic()
    daemon.wait_for("Shall I run it?", start, timeout=60)
    quiet(monitor, 1.0)
    visible_window(POPUP)
    press_in_popup("Escape")
    daemon.wait_state("idle", start, timeout=30)
    return released, panel_at


def first_request(daemon: DaemonProcess) -> str:
    journal = Journal.in_dir(daemon.home / "data")
    try:
        records = journal.conversation(None)["records"]
    finally:
        journal.close()
    return next(r["text"] for r in records if r["kind"] == "user")


def test_the_earcon_is_heard_at_release_well_before_the_first_spoken_word(
        display: str, pulse: Any, tmp_path: Path, llm: LLMServer, speech: dict) -> None:
    entry = speech["piper_disk"]
    with ready_daemon(tmp_path / "home", llm) as daemon:
        daemon.wait_for("tray icon", timeout=30)  # shown, or said to be missing (aloud)
        with speaker_monitor(pulse) as monitor:
            quiet(monitor)
            start = daemon.mark()
            released, panel_at = ask_aloud(daemon, llm, pulse, monitor, entry)
        earcon = earcon_heard(monitor, released)
        assert earcon is not None, f"the first sound is not the earcon: {bursts(monitor, released)}"
        assert earcon[0] - released < 1.0, "the earcon came late"
        speech_at = speech_times(monitor, released)
        assert speech_at, "the plan was not spoken"
        assert min(speech_at) - earcon[1] > 0.5, "the earcon ran into the speech"
        assert min(speech_at) > panel_at, "speech began before the panel was on screen"
        lines = daemon.lines[start:]
        assert lines.count("assistant daemon: earcon") == 1
        assert not [line for line in lines if "say" in line and "earcon" in line]
        heard = first_request(daemon)  # the transcript, as journaled and sent
        assert word_error_rate(entry["text"], heard) <= 0.25, heard

        with speaker_monitor(pulse) as monitor:
            quiet(monitor, 1.0)
            start = daemon.mark()
            released = hold_the_key_while(daemon, pulse, read_wav(speech["silence"]["path"]))
            assert "nothing heard" in daemon.wait_state("idle", start, timeout=30)
            time.sleep(2.0)
        assert not [at for at in monitor.loud_times() if at > released], "a sound for silence"
        assert "assistant daemon: earcon" not in daemon.lines[start:]


def test_with_the_earcon_off_no_sound_comes_before_the_speech(
        display: str, pulse: Any, tmp_path: Path, llm: LLMServer, speech: dict) -> None:
    with ready_daemon(tmp_path / "home", llm, "earcon = false\n") as daemon:
        daemon.wait_for("tray icon", timeout=30)
        with speaker_monitor(pulse) as monitor:
            quiet(monitor)
            start = daemon.mark()
            released, panel_at = ask_aloud(daemon, llm, pulse, monitor, speech["piper_disk"])
        heard = [at for at in monitor.loud_times() if at > released]
        assert heard, "the plan was not spoken"
        assert earcon_heard(monitor, released) is None
        assert min(heard) - released > THINKING_S, "a sound came before the LLM's words"
        assert min(heard) > panel_at
        assert "assistant daemon: earcon" not in daemon.lines[start:]
