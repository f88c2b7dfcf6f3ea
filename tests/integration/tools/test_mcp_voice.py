"""A spoken turn uses an MCP tool: the daemon (a real process on Xvfb and PulseAudio) reads
the call out, the popup asks, Enter runs it, and the journal keeps every step."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from assistant.journal import Journal
from assistant.voice.wav import read_wav
from tests.integration.daemon.conftest import HOTKEY, start_daemon
from tests.support.display import wait_until, xdotool
from tests.support.llm_server import LLMServer, raw_tool_call, text
from tests.support.mcp_server import config_toml, stdio_config
from tests.support.require import require

POPUP = "assistant: run this?"


def _visible(title: str) -> str:
    with contextlib.suppress(subprocess.CalledProcessError):  # none yet: status 1
        found = xdotool("search", "--onlyvisible", "--name", title).split()
        return found[0] if found else ""
    return ""


@pytest.mark.slow
def test_a_spoken_request_calls_an_mcp_tool_after_the_popup_says_run(
    display: str, pulse, speech, server: LLMServer, tmp_path: Path
) -> None:
    require(shutil.which("xdotool"), "xdotool is not installed")
    require(shutil.which("espeak-ng"), "espeak-ng is not installed")
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "old.txt").write_text("x")
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "config.toml").write_text(config_toml({"notes": stdio_config(notes)}))
    # Asked "how much space is left", the model gives no figure: told so once, it says the
    # same again, and that answer stands.
    server.add(raw_tool_call('{"name": "old.txt"}', name="notes__delete_note"),
               text("The old note is deleted."), text("The old note is deleted."))
    daemon = start_daemon(home, server.openai_url)
    try:
        daemon.wait_for("assistant daemon: ready", timeout=90)
        start = daemon.mark()
        xdotool("keydown", HOTKEY)
        daemon.wait_state("listening", start)
        pulse.play_into_mic(read_wav(speech["piper_disk"]["path"]))
        while not pulse.mic_idle():
            time.sleep(0.02)
        time.sleep(0.3)
        xdotool("keyup", HOTKEY)
        daemon.wait_state("awaiting_approval", start, timeout=60)
        said = daemon.wait_for("assistant daemon: say Call notes, delete note", start)
        assert "name old dot txt" in said
        assert (notes / "old.txt").exists()
        window = wait_until(lambda: _visible(POPUP), "the popup asks", 20)
        xdotool("windowfocus", "--sync", window)
        xdotool("key", "Return")
        daemon.wait_for("assistant daemon: answer The old note is deleted.", start, 60)
    finally:
        assert daemon.stop() == 0, "\n".join(daemon.lines[-30:])
    assert not (notes / "old.txt").exists()
    journal = Journal.in_dir(home / "data")
    try:
        records = journal.conversation(None)["records"]
    finally:
        journal.close()
    proposal = next(r for r in records if r["kind"] == "proposal")
    approval = next(r for r in records if r["kind"] == "approval")
    assert (proposal["language"], proposal["tool"]) == ("notes.delete_note", "mcp:notes")
    assert (approval["approved"], approval["decided_by"]) == (True, "user")
    assert next(r for r in records if r["kind"] == "run_end")["exit_status"] == 0
