"""The earcon in `assistant voice`, the terminal's push-to-talk, as a user hears it: a
real process on Xvfb and PulseAudio (the pipe microphone, the null sink recorded), real
Whisper and espeak-ng. On release of a spoken request the earcon comes at once, through
the chosen output device, well before the first spoken word, which waits for the scripted
LLM's 1.5 s; a release on silence gets none; `earcon = false` leaves the speech as the
first sound. The same cue at the same moment as in the daemon
(tests/integration/daemon/test_daemon_earcon.py)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from assistant.voice.wav import read_wav
from tests.support.audio import Monitor, bursts, earcon_heard, speaker_monitor, speech_times
from tests.support.llm_server import LLMServer, delay, text
from tests.support.require import require
from tests.support.voice_process import VoiceProcess

HOTKEY = "ctrl+alt+space"
THINKING_S = 1.5  # the scripted LLM's wait before its first word
ANSWER = "You have plenty of space left."


@contextlib.contextmanager
def voice_command(server: LLMServer, home: Path, **env: str) -> Iterator[VoiceProcess]:
    """`assistant voice` speaking through PulseAudio with espeak-ng, ready for the key;
    ended with Ctrl-C, as a user ends it, and it must end cleanly."""
    require(shutil.which("xdotool") is not None, "xdotool is not installed")
    require(shutil.which("espeak-ng") is not None, "espeak-ng is not installed")
    require(shutil.which("parec") is not None, "parec is not installed (pulseaudio-utils)")
    (home / "config").mkdir(parents=True)
    full = {**os.environ, "HOME": str(home), "ASSISTANT_CONFIG_DIR": str(home / "config"),
            "ASSISTANT_DATA_DIR": str(home / "data"), "ASSISTANT_API_KEY": "test",
            "ASSISTANT_CODE_STYLE": "tools", "ASSISTANT_JOURNAL": "0",
            "ASSISTANT_INPUT_DEVICE": "pulse", "ASSISTANT_OUTPUT_DEVICE": "pulse",
            "ASSISTANT_TTS_ENGINE": "espeak-ng", **env}
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant.cli", "voice", "--model", "openai/gpt-4o-mini",
         "--api-base", server.openai_url],
        env=full, cwd=home, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    voice = VoiceProcess(process)
    try:
        voice.wait_for(f"Hold {HOTKEY}")
        yield voice
    finally:
        voice.interrupt()
    assert process.returncode == 0, voice.lines


def hold_the_key_while(voice: VoiceProcess, pulse: Any, audio: Any) -> float:
    """Hold the hotkey while `audio` plays into the microphone, then let go; when the key
    was released (time.monotonic())."""
    start = len(voice.lines)
    return float(pulse.hold_key_and_speak(HOTKEY, audio,
                                          lambda: voice.wait_for("[listening]", start)))


def ask_aloud(voice: VoiceProcess, server: LLMServer, pulse: Any, monitor: Monitor,
              entry: dict) -> float:
    """A spoken request whose answer is spoken after the LLM's wait; the release time,
    once the answer has been heard out."""
    server.add(delay(THINKING_S, text(ANSWER)))
    released = hold_the_key_while(voice, pulse, read_wav(entry["path"]))
    deadline = time.monotonic() + 60
    while not speech_times(monitor, released + THINKING_S):
        assert time.monotonic() < deadline, "the answer was not spoken"
        time.sleep(0.05)
    time.sleep(3.0)  # the rest of the answer
    return released


def test_the_terminal_plays_the_earcon_at_release_and_none_for_silence(
        display: str, pulse: Any, tmp_path: Path, speech: dict) -> None:
    with LLMServer() as server, voice_command(server, tmp_path / "home") as voice:
        with speaker_monitor(pulse) as monitor:
            released = ask_aloud(voice, server, pulse, monitor, speech["piper_disk"])
        earcon = earcon_heard(monitor, released)
        assert earcon is not None, f"the first sound is not the earcon: {bursts(monitor, released)}"
        assert earcon[0] - released < 1.0, "the earcon came late"
        spoken = speech_times(monitor, released)
        assert spoken and min(spoken) - earcon[1] > 0.5, "the earcon ran into the speech"
        assert min(spoken) - released > THINKING_S, "speech came before the LLM's words"
        asked = len(server.chat_requests)

        with speaker_monitor(pulse) as monitor:
            start = len(voice.lines)
            released = hold_the_key_while(voice, pulse, read_wav(speech["silence"]["path"]))
            voice.wait_for("[idle]", start)
            time.sleep(2.0)
        assert not [at for at in monitor.loud_times() if at > released], "a sound for silence"
        assert len(server.chat_requests) == asked, "silence was taken for a request"


def test_the_terminal_with_the_earcon_off_speaks_first(
        display: str, pulse: Any, tmp_path: Path, speech: dict) -> None:
    with (LLMServer() as server,
          voice_command(server, tmp_path / "home", ASSISTANT_EARCON="false") as voice,
          speaker_monitor(pulse) as monitor):
        released = ask_aloud(voice, server, pulse, monitor, speech["piper_disk"])
    heard = [at for at in monitor.loud_times() if at > released]
    assert heard, "the answer was not spoken"
    assert earcon_heard(monitor, released) is None
    assert min(heard) - released > THINKING_S, "a sound came before the LLM's words"
