"""A spoken desktop task in the daemon, end to end: the hotkey held while speech goes into
the PulseAudio pipe microphone in real time, the real Whisper model, a real zenity dialog
on Xvfb under openbox with the accessibility bus, the popup approved, and the dialog's own
exit status and output saying what was done. A command that names only controls on
screen is read without the model; the model is the scripted server, and what it was sent
(the words heard, the screen as text) is checked.

The screen's words are Whisper's hints: a row named "Darktable" that tiny.en writes as
common words on its own is heard right while the dialog shows it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from assistant.journal import Journal
from tests.integration.daemon.conftest import DaemonProcess, hold_the_key_while, ready_daemon
from tests.integration.daemon.test_daemon import press_in_popup
from tests.support.desktop import Program, desktop
from tests.support.llm_server import LLMServer, tool_call

BACKUP = ("zenity", "--list", "--checklist", "--title=Back up",
          "--text=Which folders go on the drive?", "--column=Keep", "--column=Folder",
          "FALSE", "Photos", "FALSE", "Music", "FALSE", "Darktable", "FALSE", "Videos")


@pytest.fixture(scope="module")
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop() as name:
        yield name


@pytest.fixture(scope="module")
def daemon(desk: str, pulse, speech, tmp_path_factory: pytest.TempPathFactory,
           llm: LLMServer) -> Iterator[DaemonProcess]:
    """A daemon on the desktop; the screen goes to the model as text, as with the default
    install's model (`speech` makes sure Piper is there: it speaks the requests)."""
    with ready_daemon(tmp_path_factory.mktemp("desk-home"), llm,
                      'screen_format = "text"\n') as running:
        yield running


def said(words: str) -> Any:
    """`words` in Piper's voice, as the microphone takes it (16 kHz)."""
    from assistant.voice.tts import make_engine
    from assistant.voice.wav import resample

    return resample(*make_engine("piper").synthesize(words))


def spoken_turn(daemon: DaemonProcess, llm: LLMServer, pulse, words: str,
                approvals: int = 1) -> tuple[str, str, str]:
    """Say `words` with the hotkey held, approve each of `approvals` proposals in the popup
    (Return) and wait for the turn to end. Returns the popups' sentences, the request as
    heard (the journal's), and the latest screen the model got when it was asked, else
    "" (a command read without the model)."""
    asked = len(llm.chat_requests)
    start = mark = daemon.mark()
    hold_the_key_while(daemon, pulse, said(words))
    waiting = []
    for _ in range(approvals):
        waiting.append(daemon.wait_state("awaiting_approval", mark, timeout=90))
        mark = daemon.mark()
        press_in_popup("Return")
    daemon.wait_state("idle", start, timeout=60)
    assert daemon.states(start)[-2:] == ["speaking", "idle"], daemon.lines[start:]
    request = heard(daemon)
    if len(llm.chat_requests) == asked:
        return "\n".join(waiting), request, ""
    messages = llm.chat_requests[asked].body["messages"]
    assert request in [m["content"] for m in messages if m["role"] == "user"], messages
    screen = [m for m in messages if isinstance(m["content"], list)][-1]  # the latest
    return "\n".join(waiting), request, " ".join(part.get("text", "")
                                                 for part in screen["content"])


def records(daemon: DaemonProcess) -> list[dict]:
    """The journal's records of the daemon's conversation."""
    journal = Journal.in_dir(daemon.home / "data")
    try:
        return list(journal.conversation(None)["records"])
    finally:
        journal.close()


def heard(daemon: DaemonProcess) -> str:
    """The last request the journal holds: the words as Whisper heard them."""
    return str([r for r in records(daemon) if r["kind"] == "user"][-1]["text"])


def words_of(request: str) -> str:
    """The request's words in lower case, without punctuation."""
    return " ".join("".join(c for c in request if c.isalnum() or c.isspace()).lower().split())


def last_run(daemon: DaemonProcess) -> tuple[dict, dict]:
    """The last approval and run end in the journal."""
    kept = records(daemon)
    approval = [r for r in kept if r["kind"] == "approval"][-1]
    return approval, [r for r in kept if r["kind"] == "run_end"][-1]


def test_the_daemon_itself_publishes_nothing_on_the_accessibility_bus(
        daemon: DaemonProcess) -> None:
    """Its tray's GTK would register it there, and a process busy in Python answers late:
    every tree read, its own and each run's, waited on it (seconds, or came back empty)."""
    from assistant.computer import a11y

    daemon.wait_for("tray icon", timeout=30)  # GTK has started (or the tray said why not)
    atspi = a11y._atspi()
    assert atspi is not None, a11y.status()
    desktop_root = atspi.get_desktop(0)
    pids = [desktop_root.get_child_at_index(i).get_process_id()
            for i in range(desktop_root.get_child_count())]
    assert daemon.process.pid not in pids


def test_click_yes_spoken_over_a_real_question_answers_it_yes_without_the_model(
        daemon: DaemonProcess, llm: LLMServer, pulse) -> None:
    asked = len(llm.chat_requests)
    with Program("zenity", "--question", "--title=Export",
                 "--text=Export the quarterly report now?") as dialog:
        dialog.focused("Export")
        waiting, request, screen = spoken_turn(daemon, llm, pulse, "Click yes.")
        assert dialog.result() == (0, "")  # zenity's own word: Yes was pressed
    assert words_of(request) == "click yes", request
    assert len(llm.chat_requests) == asked and screen == ""  # read as a command
    assert "Presses Yes in the dialog 'Export'." in waiting  # the popup's, from the tree
    approval, end = last_run(daemon)
    assert (approval["approved"], approval["decided_by"]) == (True, "user")
    assert end["exit_status"] == 0


def test_tick_photos_and_music_spoken_over_a_check_list_keeps_those_two(
        daemon: DaemonProcess, llm: LLMServer, pulse) -> None:
    """The command ticks the two; the dialog still waits for its OK, so the model is
    asked next, with the screen as it is then."""
    llm.add(tool_call("python", 'computer.press("OK")', text="I will press OK."))
    with Program(*BACKUP) as dialog:
        dialog.shown("Back up")
        waiting, request, screen = spoken_turn(daemon, llm, pulse, "Tick Photos and Music.",
                                               approvals=2)
        assert dialog.result() == (0, "Photos|Music")
    assert words_of(request) == "tick photos and music", request  # not "take": hinted
    assert 'row "Photos" [x]' in screen and 'row "Music" [x]' in screen, screen
    assert "assistant:" not in screen  # its own panel, showing the request, is not read
    assert "Ticks Photos" in waiting and "Presses OK in the dialog 'Back up'" in waiting
    assert last_run(daemon)[1]["exit_status"] == 0
    assert llm.pending == 0  # the dialog gone ended the turn: the model not asked again


def test_a_name_on_screen_is_heard_as_written_there(daemon: DaemonProcess, llm: LLMServer,
                                                    pulse, transcriber) -> None:
    """Without the screen's words tiny.en writes "Darktable" as other words; the same
    audio in the daemon, over a list that shows it, comes out spelled as on screen."""
    words = "Tick Darktable and Music."
    alone = transcriber.transcribe(said(words))
    assert "darktable" not in alone.lower(), alone
    llm.add(tool_call("python", 'computer.press("OK")'))  # the dialog gone ends the turn
    with Program(*BACKUP) as dialog:
        dialog.shown("Back up")
        _, request, screen = spoken_turn(daemon, llm, pulse, words, approvals=2)
        assert dialog.result() == (0, "Music|Darktable")
    assert 'row "Darktable" [x]' in screen, screen
    assert "Darktable" in request, (request, alone)
