"""The daemon with a real system tray (trayer on the shared Xvfb, a D-Bus session): its icon
appears, a left click listens and stops, the menu's "Type a request…" starts a turn, and
Quit ends the daemon and removes the icon."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.integration.daemon.conftest import DaemonProcess, start_daemon
from tests.integration.daemon.test_daemon import ENTRY, click_into, visible_window
from tests.support import tray_host as hosts
from tests.support.display import xdotool
from tests.support.llm_server import LLMServer, text

tray_host = hosts.tray_host
MENU_TYPE_REQUEST = 6  # Listen, Auto-run, Screen context, Model, Recent, Type a request…


@pytest.fixture(scope="module")
def with_tray(tray_host: hosts.TrayHost, pulse, llm: LLMServer,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DaemonProcess,
                                                                         hosts.Box]]:
    before = tray_host.icons()
    daemon = start_daemon(tmp_path_factory.mktemp("tray-home"), llm.openai_url)
    try:
        daemon.wait_for("assistant daemon: tray icon shown", timeout=60)
        daemon.wait_for("assistant daemon: ready", timeout=90)
        icon = tray_host.wait_for_icons(len(before) + 1)
        new = [box for box in icon if box not in before]
        yield daemon, new[0]
    finally:
        daemon.stop()


def test_a_left_click_listens_and_a_second_stops(with_tray) -> None:
    daemon, icon = with_tray
    start = daemon.mark()
    xdotool("mousemove", *map(str, icon.centre), "click", "1")
    daemon.wait_state("listening", start)
    time.sleep(0.5)
    xdotool("mousemove", *map(str, icon.centre), "click", "1")
    daemon.wait_state("idle", start)  # only silence was heard
    assert daemon.states(start) == ["listening", "transcribing", "idle"]


def test_type_a_request_from_the_menu_then_quit(with_tray, llm: LLMServer,
                                                tray_host: hosts.TrayHost) -> None:
    daemon, icon = with_tray
    llm.add(text("Hello from the tray."))
    start = daemon.mark()
    xdotool("mousemove", *map(str, icon.centre), "click", "3")
    time.sleep(0.5)
    xdotool("key", *(["Down"] * MENU_TYPE_REQUEST), "Return")
    click_into(visible_window(ENTRY))
    xdotool("type", "--delay", "10", "say hello")
    xdotool("key", "Return")
    daemon.wait_state("idle", start, timeout=30)
    assert "assistant daemon: answer Hello from the tray." in daemon.lines[start:]
    assert llm.chat_requests[-1].body["messages"][-1]["content"] == "say hello"

    count = len(tray_host.icons())
    xdotool("mousemove", *map(str, icon.centre), "click", "3")
    time.sleep(0.5)
    xdotool("key", "Up", "Return")  # the last item: Quit
    daemon.process.wait(30)
    assert daemon.process.returncode == 0
    assert "assistant daemon: quitting" in daemon.lines
    tray_host.wait_for_icons(count - 1)
