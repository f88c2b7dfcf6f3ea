"""The daemon without a microphone: it says so once, starts at once, and the hotkey opens
"Type a request…" instead, which still reaches the LLM."""

from __future__ import annotations

from pathlib import Path

from tests.integration.daemon.conftest import start_daemon
from tests.integration.daemon.test_daemon import ENTRY, click_into, visible_window
from tests.support.display import xdotool
from tests.support.llm_server import text

NO_MIC_HOTKEY = "ctrl+alt+m"


def test_without_a_microphone_the_hotkey_opens_the_text_entry(display: str, pulse, llm,
                                                              tmp_path: Path) -> None:
    llm.add(text("Typed requests work too."))
    daemon = start_daemon(tmp_path, llm.openai_url, "--input-device", "no-such-microphone",
                          "--hotkey", NO_MIC_HOTKEY)
    try:
        daemon.wait_for("assistant daemon: ready", timeout=60)
        said = [line for line in daemon.lines if "no input device matches 'no-such-microphone'"
                in line and "Type a request" in line]
        assert len([line for line in said if not line.startswith(
            "assistant daemon: say ")]) == 1, daemon.lines
        start = daemon.mark()
        xdotool("key", NO_MIC_HOTKEY)
        click_into(visible_window(ENTRY))
        xdotool("type", "--delay", "10", "no microphone here")
        xdotool("key", "Return")
        daemon.wait_state("idle", start, timeout=30)
        assert "assistant daemon: answer Typed requests work too." in daemon.lines[start:]
        assert "listening" not in daemon.states(start)
    finally:
        assert daemon.stop() == 0
