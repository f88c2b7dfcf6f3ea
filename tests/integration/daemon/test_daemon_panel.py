"""A turn as a user lives it: the panel from the first word (the request, then the LLM's
words as they stream, then the buttons), speech that never runs ahead of the screen and
says only the plan, a barge-in that silences the answer without cutting it short, and
conversations that start afresh."""

from __future__ import annotations

import dataclasses
import shutil
import time
from collections.abc import Iterator

import pytest

from assistant.journal import Journal
from tests.integration.daemon.conftest import (
    HOTKEY,
    DaemonProcess,
    hold_the_key_while,
    ready_daemon,
)
from tests.integration.daemon.test_daemon import (
    POPUP,
    press_in_popup,
    type_request,
    visible_window,
    write_code,
)
from tests.support.audio import speaker_monitor
from tests.support.display import xdotool
from tests.support.llm_server import LLMServer, text, tool_call

PANEL = "assistant: thinking"
IDLE_MINUTES = 0.05  # 3 s of silence start a new conversation here


@pytest.fixture(scope="module")
def daemon(display: str, pulse, tmp_path_factory: pytest.TempPathFactory,
           llm: LLMServer) -> Iterator[DaemonProcess]:
    with ready_daemon(tmp_path_factory.mktemp("panel-home"), llm,
                      f"conversation_idle_minutes = {IDLE_MINUTES}\n") as running:
        running.wait_for("tray icon", timeout=30)  # shown, or said to be missing (aloud)
        yield running


def sent(llm: LLMServer) -> list[dict]:
    """The messages of the last chat request, without the system message."""
    return [m for m in llm.chat_requests[-1].body["messages"] if m["role"] != "system"]


def journal_records(daemon: DaemonProcess) -> list[dict]:
    journal = Journal.in_dir(daemon.home / "data")
    try:
        return journal.conversation(None)["records"]
    finally:
        journal.close()


def quiet(monitor, seconds: float = 2.5, timeout: float = 30) -> None:
    """Wait until nothing has been heard for `seconds` (speech said just before may start
    a moment after it was logged)."""
    began = time.monotonic()
    while time.monotonic() - max([began, *monitor.loud_times()]) < seconds:
        assert time.monotonic() - began < timeout, "the daemon does not stop speaking"
        time.sleep(0.1)


def test_the_panel_streams_before_the_proposal_and_speech_follows_it(
        daemon: DaemonProcess, llm: LLMServer, pulse) -> None:
    from assistant.computer import display

    words = ("I'll write the panel file. Nothing else on this machine is changed by it, and the "
             "file holds one short word that you can read later with any editor you like.")
    slow = dataclasses.replace(tool_call("python", write_code(daemon.home / "panel.txt"),
                                         text=words), pace=0.3)
    llm.add(slow, text("Alright, I left it alone."))
    with speaker_monitor(pulse) as monitor:
        quiet(monitor)  # what the daemon said at start (a missing tray) is over
        start, asked_at = daemon.mark(), time.monotonic()
        type_request(daemon, "write the panel file")
        visible_window(PANEL)
        panel_at = time.monotonic()

        def proposed() -> bool:
            return any("-> awaiting_approval" in line for line in daemon.lines[start:])

        while not display.find_text("machine"):  # streamed words, not the request
            assert not proposed(), "the words were not on screen before the proposal"
            time.sleep(0.1)
        assert not proposed()
        daemon.wait_state("awaiting_approval", start)
        visible_window(POPUP)
        heard = [at for at in monitor.loud_times() if at > asked_at]
    # typed, so no earcon: nothing at all is heard before the panel (a spoken request's
    # earcon may come first: test_daemon_earcon.py tells it from speech)
    assert heard and min(heard) > panel_at, "speech began before the panel was on screen"
    # what the preview shows it does, not the model's words about it
    assert "(Creates 1 file (panel.txt" in daemon.wait_state("awaiting_approval", start)
    assert "assistant daemon: say Creates 1 file (panel.txt; 4 bytes). Shall I run it?" \
        in daemon.lines[start:]
    press_in_popup("Escape")
    daemon.wait_state("idle", start, timeout=30)


def test_a_barge_in_after_the_run_stops_speaking_and_keeps_the_answer(
        daemon: DaemonProcess, llm: LLMServer, pulse) -> None:
    answer = ("The barge file is written, and this first sentence goes on long enough to be "
              "heard while the rest of the answer is still streaming in. "
              + "More words follow here. " * 8).strip()
    llm.add(tool_call("python", write_code(daemon.home / "barge.txt"), text="I'll write it."),
            text(answer, pace=0.15))
    start = daemon.mark()
    type_request(daemon, "write the barge file")
    daemon.wait_state("awaiting_approval", start)
    ran = daemon.mark()  # before the key: a quick run reaches "thinking" before the key returns
    press_in_popup("Return")
    daemon.wait_state("running", start)
    with speaker_monitor(pulse) as monitor:
        daemon.wait_state("thinking", ran)
        answering = time.monotonic()
        deadline = answering + 30
        while not [at for at in monitor.loud_times() if at > answering]:
            assert time.monotonic() < deadline, "the answer was not heard"
            time.sleep(0.02)
        assert not any("assistant daemon: answer" in line for line in daemon.lines[ran:])
        xdotool("keydown", HOTKEY)
        daemon.wait_for("assistant daemon: hotkey: stopped speaking", ran)
        time.sleep(0.3)
        xdotool("keyup", HOTKEY)
    turn_over(daemon, answer, ran)
    assert not any("interrupted" in line for line in daemon.lines[start:]), daemon.lines[start:]
    assert [r for r in journal_records(daemon) if r["kind"] == "turn_end"][-1]["text"] == answer


def turn_over(daemon: DaemonProcess, answer: str, after: int) -> None:
    """Wait for the turn that answers `answer` to end (idle after its answer)."""
    said = daemon.wait_for(f"assistant daemon: answer {answer}", after, timeout=30)
    daemon.wait_state("idle", daemon.lines.index(said, after), timeout=30)


def say_into_the_microphone(daemon: DaemonProcess, pulse, words: str) -> None:
    """Hold the hotkey while `words` (spoken by Piper) play into the microphone."""
    from assistant.voice.tts import make_engine
    from assistant.voice.wav import resample

    audio, rate = make_engine("piper").synthesize(words)
    hold_the_key_while(daemon, pulse, resample(audio, rate))


def test_start_over_and_a_long_silence_begin_new_conversations(daemon: DaemonProcess,
                                                                llm: LLMServer, pulse,
                                                                speech) -> None:
    """(`speech` makes sure Piper is there: it says "start over".)"""
    llm.add(text("Noted."), text("You have not said a word yet."), text("Still nothing."))
    start = daemon.mark()
    type_request(daemon, "remember the word apple")
    turn_over(daemon, "Noted.", start)
    asked = len(llm.chat_requests)
    again = daemon.mark()
    say_into_the_microphone(daemon, pulse, "Start over.")
    daemon.wait_for("assistant daemon: new conversation", again, timeout=60)
    type_request(daemon, "which word did I say")
    turn_over(daemon, "You have not said a word yet.", again)
    assert len(llm.chat_requests) == asked + 1, "start over is not a request to the LLM"
    assert [m["content"] for m in sent(llm)] == ["which word did I say"]

    time.sleep(IDLE_MINUTES * 60 + 0.5)
    later = daemon.mark()
    type_request(daemon, "and now")
    assert "since the last request" in daemon.wait_for("assistant daemon: New conversation: ",
                                                       later)
    turn_over(daemon, "Still nothing.", later)
    assert [m["content"] for m in sent(llm)] == ["and now"]
    journal = Journal.in_dir(daemon.home / "data")
    try:
        titles = [row["title"] for row in journal.conversations(10)]
    finally:
        journal.close()
    assert len(titles) >= 3, titles  # every conversation stays in the journal


def test_a_closed_panel_comes_back_with_the_answer_without_notifications(
        daemon: DaemonProcess, llm: LLMServer) -> None:
    """There is no notification service here: the popup shows the answer by itself."""
    from tests.integration.daemon.test_daemon import ANSWER, click_into

    llm.add(text("Tea is better than coffee, and this answer takes its time to arrive.",
                 pace=0.3))
    start = daemon.mark()
    type_request(daemon, "tea or coffee")
    click_into(visible_window(PANEL))
    xdotool("key", "Escape")
    deadline = time.monotonic() + 10
    while xdotool_finds(PANEL):
        assert time.monotonic() < deadline, "Esc did not close the panel"
        time.sleep(0.05)
    assert not any("assistant daemon: answer" in line for line in daemon.lines[start:])
    daemon.wait_for("assistant daemon: notice assistant: Tea is better", start)
    visible_window(ANSWER)
    turn_over(daemon, "Tea is better than coffee", start)


def xdotool_finds(title: str) -> bool:
    import subprocess

    try:
        return bool(xdotool("search", "--onlyvisible", "--name", title).split())
    except subprocess.CalledProcessError:
        return False


def test_a_spoken_undo_reaches_the_undo_store_and_is_no_request(daemon: DaemonProcess,
                                                                     llm: LLMServer, pulse,
                                                                     speech) -> None:
    """With nothing to undo, the undo says so in one line, aloud and in the popup. Runs of
    this module's earlier tests may have been kept: the store is emptied first."""
    shutil.rmtree(daemon.home / "data" / "undo", ignore_errors=True)
    asked = len(llm.chat_requests)
    start = daemon.mark()
    say_into_the_microphone(daemon, pulse, "Please undo the last run.")
    daemon.wait_for("assistant daemon: There is no run to undo.", start, timeout=60)
    assert len(llm.chat_requests) == asked, "undo that is not a request to the LLM"
