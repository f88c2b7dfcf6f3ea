"""The daemon as users meet it: a real process, real hotkey presses (xdotool), speech fed
to a virtual microphone, the popup answered with real clicks and keys, speech reaching a
null sink, and the journal read back with the journal API."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path

from assistant.daemon.instance import ask
from assistant.journal import Journal
from assistant.voice.wav import read_wav
from assistant.voice.wer import word_error_rate
from tests.integration.daemon.conftest import HOTKEY, DaemonProcess, daemon_env
from tests.support.audio import rms, speaker_monitor
from tests.support.display import xdotool
from tests.support.llm_server import LLMServer, text, tool_call

POPUP = "assistant: run this?"
ANSWER = "assistant: answer"
ENTRY = "assistant: type a request"


def write_code(target: Path) -> str:
    return f"from pathlib import Path\nPath({str(target)!r}).write_text('done')\nprint('written')"


def visible_window(title: str, timeout: float = 20.0) -> str:
    """The id of the first visible window with this title (waits for it; a search can fail
    when another window goes away while xdotool walks the tree, so it is repeated)."""
    deadline = time.monotonic() + timeout
    while True:
        found: list[str] = []
        with contextlib.suppress(subprocess.CalledProcessError):  # none yet: status 1
            found = xdotool("search", "--onlyvisible", "--name", title).split()
        if found:
            return found[0]
        assert time.monotonic() < deadline, f"no visible window {title!r} within {timeout} s"
        time.sleep(0.05)


def click_into(window: str) -> None:
    """Focus a window by clicking inside it (there is no window manager)."""
    geometry = dict(line.strip().split(": ", 1) for line in
                    xdotool("getwindowgeometry", window).splitlines()[1:])
    x, y = (int(n) for n in geometry["Position"].split()[0].split(","))
    width, height = (int(n) for n in geometry["Geometry"].split("x"))
    xdotool("mousemove", str(x + width // 2), str(y + height // 2), "click", "1")


def type_request(daemon: DaemonProcess, request: str) -> None:
    """What a second start does: ask the daemon to come forward; the entry opens."""
    assert ask(daemon.home / "data", "raise").startswith("ok ")
    click_into(visible_window(ENTRY))
    xdotool("type", "--delay", "10", request)
    xdotool("key", "Return")


def press_in_popup(key: str) -> None:
    window = visible_window(POPUP)
    xdotool("windowfocus", "--sync", window)
    xdotool("key", key)


def last_tool_result(server: LLMServer) -> str:
    messages = server.chat_requests[-1].body["messages"]
    return next(m["content"] for m in reversed(messages) if m["role"] == "tool")


def test_a_spoken_request_is_proposed_run_and_answered(running: DaemonProcess, llm: LLMServer,
                                                       pulse, speech) -> None:
    target = running.home / "reports.txt"
    code = write_code(target) + "\nprint('12 GB left')"  # the figure the request asks for
    llm.add(tool_call("python", code, text="I will write the report file."),
            text("The report file is written; 12 GB are left."))
    start = running.mark()
    asked = len(llm.chat_requests)
    xdotool("keydown", HOTKEY)
    running.wait_state("listening", start)
    entry = speech["piper_disk"]
    pulse.play_into_mic(read_wav(entry["path"]))
    while not pulse.mic_idle():
        time.sleep(0.02)
    time.sleep(0.3)
    xdotool("keyup", HOTKEY)
    running.wait_state("awaiting_approval", start, timeout=60)
    visible_window(POPUP)
    heard = next(m["content"] for m in reversed(llm.chat_requests[asked].body["messages"])
                 if m["role"] == "user" and isinstance(m["content"], str))
    assert word_error_rate(entry["text"], heard) <= 0.25, heard
    assert not target.exists()

    with speaker_monitor(pulse) as monitor:
        from assistant.computer import mouse

        ran = running.mark()
        mouse.click("Run")
        running.wait_state("idle", ran, timeout=60)
    assert target.read_text() == "done"
    assert running.states(start) == ["listening", "transcribing", "thinking",
                                     "awaiting_approval", "running", "thinking", "speaking",
                                     "idle"]
    assert "written" in last_tool_result(llm)
    assert "assistant daemon: answer The report file is written; 12 GB are left." in (
        running.lines[ran:])
    assert rms(monitor.audio()) > 0.01, "no speech reached the speaker"

    journal = Journal.in_dir(running.home / "data")
    try:
        record = journal.conversation(None)
    finally:
        journal.close()
    steps = [r for r in record["records"] if r["turn"] == record["records"][-1]["turn"]]
    kinds = [r["kind"] for r in steps]
    assert kinds[0] == "user" and steps[0]["text"] == heard
    for kind in ("assistant", "proposal", "approval", "run_end", "turn_end"):
        assert kind in kinds, kinds
    approval = next(r for r in steps if r["kind"] == "approval")
    assert approval["approved"] and approval["decided_by"] == "user"
    assert next(r for r in steps if r["kind"] == "run_end")["exit_status"] == 0
    assert steps[-1]["text"] == "The report file is written; 12 GB are left."


def test_cancel_runs_nothing_and_the_llm_is_told(running: DaemonProcess, llm: LLMServer) -> None:
    target = running.home / "cancelled.txt"
    llm.add(tool_call("python", write_code(target)), text("Alright, I left it alone."))
    start = running.mark()
    type_request(running, "write the cancelled file")
    running.wait_state("awaiting_approval", start)
    press_in_popup("Escape")
    running.wait_state("idle", start, timeout=30)
    assert not target.exists()
    assert "declined" in last_tool_result(llm)
    assert "cancelled in the popup" in last_tool_result(llm)
    assert "running" not in running.states(start)


def test_a_second_start_is_refused_and_brings_the_first_forward(running: DaemonProcess,
                                                                 llm: LLMServer) -> None:
    second = subprocess.run(
        [sys.executable, "-m", "assistant.cli", "daemon", "--model", "openai/gpt-4o-mini",
         "--api-base", llm.openai_url], env=daemon_env(running.home), capture_output=True,
        text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert second.returncode == 3, second.stderr
    assert second.stderr.strip() == (f"assistant daemon: already running (pid "
                                      f"{running.process.pid}); asked it to come forward")
    window = visible_window(ENTRY)  # nothing is pending: it offers to type a request
    click_into(window)
    xdotool("key", "Escape")
    assert running.process.poll() is None


def test_a_spoken_yes_approves_and_the_hotkey_interrupts_speech(running: DaemonProcess,
                                                                llm: LLMServer, pulse,
                                                                speech) -> None:
    """(`speech` makes sure Piper is there: it says the "yes".)"""
    from assistant.voice.tts import make_engine
    from assistant.voice.wav import resample

    target = running.home / "by-voice.txt"
    llm.add(tool_call("python", write_code(target), text="I will write it."),
            text("Done. The file by voice is written, and this answer is long enough to be "
                 "interrupted before it ends."))
    yes, rate = make_engine("piper").synthesize("Yes, go ahead.")
    start = running.mark()
    type_request(running, "write the file by voice")
    running.wait_state("awaiting_approval", start)
    xdotool("keydown", HOTKEY)
    assert "(your answer to the proposal)" in running.wait_state("listening", start)
    pulse.play_into_mic(resample(yes, rate))
    while not pulse.mic_idle():
        time.sleep(0.02)
    time.sleep(0.3)
    xdotool("keyup", HOTKEY)
    running.wait_state("running", start, timeout=30)
    running.wait_state("speaking", start, timeout=30)
    barge = running.mark()
    xdotool("keydown", HOTKEY)  # barge-in: silence the answer and listen
    interrupted = running.wait_state("listening", barge)
    xdotool("keyup", HOTKEY)
    running.wait_state("idle", start, timeout=30)
    assert target.read_text() == "done"
    assert "speaking -> listening" in interrupted, "\n".join(running.lines[start:])
    journal = Journal.in_dir(running.home / "data")
    try:
        records = journal.conversation(None)["records"]
    finally:
        journal.close()
    approval = [r for r in records if r["kind"] == "approval"][-1]
    assert (approval["approved"], approval["decided_by"], approval["reason"]) == (
        True, "user", "approved by voice")


def test_the_hotkey_stops_a_run(running: DaemonProcess, llm: LLMServer) -> None:
    llm.add(tool_call("python", "import time\nprint('started', flush=True)\ntime.sleep(60)"),
            text("It was stopped."))
    start = running.mark()
    type_request(running, "wait a minute")
    running.wait_state("awaiting_approval", start)
    press_in_popup("Return")
    running.wait_state("running", start)
    time.sleep(1)
    xdotool("key", HOTKEY)
    running.wait_for("assistant daemon: hotkey: stopping the run", start)
    running.wait_state("idle", start, timeout=30)
    assert "listening" not in running.states(start)
    assert "interrupted" in running.wait_for("assistant daemon: notice", start)
    journal = Journal.in_dir(running.home / "data")
    try:
        records = journal.conversation(None)["records"]
    finally:
        journal.close()
    assert [r for r in records if r["kind"] == "run_end"][-1]["interrupted"]


def test_the_llm_server_down_is_said_and_the_next_turn_works(running: DaemonProcess,
                                                              llm: LLMServer) -> None:
    port = int(llm.url.rsplit(":", 1)[1])
    llm.stop()
    start = running.mark()
    type_request(running, "what time is it")
    error = running.wait_state("error", start, timeout=60)
    visible_window(ANSWER)  # the whole error, on screen
    running.wait_state("idle", start, timeout=30)
    said = running.wait_for("assistant daemon: say ", start)
    assert "Cannot reach the LLM at http" in error
    assert said == "assistant daemon: say I can't reach the language model; details are on screen."
    with LLMServer([text("Tea, then.")], port=port) as back:
        again = running.mark()
        type_request(running, "tea or coffee")
        running.wait_for("assistant daemon: answer Tea, then.", again, timeout=30)
        visible_window(ANSWER)  # the popup shows the answer: there is no notification service
        running.wait_state("idle", again, timeout=30)
        assert back.chat_requests[-1].body["messages"][-1]["content"] == "tea or coffee"
