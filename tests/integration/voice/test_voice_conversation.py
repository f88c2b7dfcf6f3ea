"""A spoken conversation over the real Assistant and the scripted LLM server: transcripts
in, proposals approved, declined or revised by voice; and push-to-talk end to end."""

from __future__ import annotations

import io
import shutil
import threading
import time

import pytest

from assistant.events import Proposal
from assistant.voice.wer import word_error_rate
from tests.integration.voice.test_voice_hotkey import stop_listening
from tests.support.llm_server import LLMServer, text, tool_call
from tests.support.require import require
from tests.support.voice_process import VoiceProcess


@pytest.fixture
def server():
    with LLMServer() as running:
        yield running


def conversation(server, confirm=lambda question: False, speaker=None):
    from assistant.api import Assistant
    from assistant.voice.conversation import VoiceConversation

    assistant = Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url,
                          api_key="test", code_style="tools", journal=False)
    out = io.StringIO()
    return assistant, VoiceConversation(assistant, speaker, confirm=confirm, out=out), out


def talk(server, *transcripts: str, **kwargs) -> tuple[str, list]:
    assistant, voice, out = conversation(server, **kwargs)
    with assistant:
        for transcript in (*transcripts, None):
            voice.heard(transcript)
        voice.run()
    return out.getvalue(), server.chat_requests


def last_tool_result(request) -> str:
    return next(m["content"] for m in reversed(request.body["messages"]) if m["role"] == "tool")


def test_yes_runs_the_proposal_and_the_answer_is_printed(server) -> None:
    server.add(tool_call("python", "print(6 * 7)", text="I'll compute it."),
               text("It is 42."))
    out, requests = talk(server, "what is six times seven", "Read the code.", "Yes, go ahead.")
    # the plan, then the previewed effect; the code on screen
    assert "I'll compute it. Changes nothing. Shall I run it?" in out
    assert "Run Python: print 6 * 7. Shall I run it?" in out  # read on request
    assert "42" in last_tool_result(requests[-1])
    assert out.rstrip().endswith("It is 42.")


def test_no_declines_and_the_llm_is_told(server) -> None:
    server.add(tool_call("shell", "ls -l ~"), text("Alright, I won't."))
    out, requests = talk(server, "list my downloads", "No.")
    assert "declined" in last_tool_result(requests[-1])
    assert "Alright, I won't." in out


def test_anything_else_revises_the_proposal(server) -> None:
    server.add(tool_call("shell", "ls ~"), tool_call("shell", "echo documents"),
               text("Done."))
    out, requests = talk(server, "list my downloads", "use the documents folder instead",
                         "run it")
    assert "use the documents folder instead" in last_tool_result(requests[1])
    assert "documents" in last_tool_result(requests[2])
    assert "Done." in out


def test_high_risk_needs_the_keyboard_after_a_spoken_yes(server) -> None:
    questions: list[str] = []

    def keyboard(question: str) -> bool:
        questions.append(question)
        return False

    _, voice, out = conversation(server, confirm=keyboard)
    proposal = Proposal("p1", "shell", "sudo reboot", risk="high")
    voice.heard("yes")
    decision = voice.approve(proposal)
    assert not decision.approved and questions == ["run this high-risk shell code?"]
    assert "confirm on the keyboard" in out.getvalue()
    voice.voice_approves_high_risk = True
    voice.heard("yes")
    assert voice.approve(proposal).approved


def test_push_to_talk_take_is_transcribed_on_release(display, pulse, speech, transcriber):
    require(shutil.which("xdotool") is not None, "xdotool is not installed")

    from assistant.voice.player import Player
    from assistant.voice.ptt import PushToTalk
    from assistant.voice.recorder import Recorder
    from assistant.voice.speaker import Speaker
    from assistant.voice.tts import make_engine
    from assistant.voice.wav import read_wav

    heard: list[str] = []
    done = threading.Event()
    speaker = Speaker(make_engine("espeak-ng"), Player("pulse"))
    ptt = PushToTalk(transcriber, Recorder("pulse"), "ctrl+alt+space",
                     lambda t, language: (heard.append(t), done.set()), speaker=speaker)
    ptt.start()
    try:
        speaker.say("This is a long answer that the user is about to interrupt by talking.")
        deadline = time.monotonic() + 20
        while speaker.first_audio_at is None and time.monotonic() < deadline:
            time.sleep(0.01)
        def silenced() -> None:
            assert speaker.wait(0.5), "speech did not stop when the hotkey was pressed"

        entry = speech["piper_email"]  # a long sentence: robust to where the take starts
        pulse.hold_key_and_speak("ctrl+alt+space", read_wav(entry["path"]), silenced)
        assert done.wait(30), "no transcript after release"
    finally:
        ptt.stop()
        stop_listening(ptt.hotkey)
    assert word_error_rate(entry["text"], heard[0]) <= 0.15


def test_voice_command_holds_a_conversation(display, pulse, speech, server) -> None:
    """`assistant voice` as a real process: hotkey held, speech into the microphone, the
    LLM's answer printed."""
    require(shutil.which("xdotool") is not None, "xdotool is not installed")
    import os
    import subprocess
    import sys

    from assistant.voice.wav import read_wav

    server.add(text("You have plenty of space left."))
    env = {**os.environ, "ASSISTANT_API_KEY": "test", "ASSISTANT_CODE_STYLE": "tools",
           "ASSISTANT_JOURNAL": "0", "ASSISTANT_INPUT_DEVICE": "pulse"}
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant.cli", "voice", "--quiet", "--model",
         "openai/gpt-4o-mini", "--api-base", server.openai_url],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )
    voice = VoiceProcess(process)
    try:
        voice.wait_for("Hold ctrl+alt+space")
        start = len(voice.lines)
        pulse.hold_key_and_speak("ctrl+alt+space", read_wav(speech["piper_disk"]["path"]),
                                 lambda: voice.wait_for("[listening]", start))
        voice.wait_for("[idle]", start)
        deadline = time.monotonic() + 60
        while not server.chat_requests:
            assert time.monotonic() < deadline, voice.lines
            time.sleep(0.05)
        time.sleep(1)
    finally:
        out = voice.interrupt()
    asked = server.chat_requests[0].body["messages"][-1]["content"]
    assert word_error_rate(speech["piper_disk"]["text"], asked) <= 0.15, asked
    assert "You have plenty of space left." in out
    assert process.returncode == 0


def test_a_plan_claiming_a_listing_over_a_delete_is_read_out_as_the_delete(
        server, tmp_path, monkeypatch) -> None:
    from assistant.whatif.preview import problem

    if problem():
        pytest.skip(problem())
    home = tmp_path / "home"
    backups = home / "Downloads" / "old-backups"
    backups.mkdir(parents=True)
    (backups / "2019.tar").write_text("old")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(home)
    server.add(tool_call("shell", "rm -r ~/Downloads/old-backups",
                         text="I will list your largest files."), text("Alright, I won't."))
    out, requests = talk(server, "what are my largest files", "No.")
    assert ("Deletes the folder old-backups in downloads and the file in it (3 bytes). "
            "Shall I run it?") in out
    assert "I will list your largest files. Shall I run it?" not in out
    assert "declined" in last_tool_result(requests[-1])
    assert (backups / "2019.tar").read_text() == "old"
