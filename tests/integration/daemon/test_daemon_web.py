"""The daemon with serve = true: its turns live in the web page (a real chromium), and the
page is one more place to answer its waiting proposal; the popup and the page agree."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.conftest import ROOT
from tests.integration.daemon.conftest import DaemonProcess, daemon_env
from tests.integration.daemon.test_daemon import POPUP, type_request, visible_window, write_code
from tests.support.browser import chromium, missing, wait_for
from tests.support.llm_server import LLMServer, text, tool_call
from tests.support.require import require


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def serving(display: str, pulse, tmp_path_factory: pytest.TempPathFactory,
            llm: LLMServer) -> Iterator[tuple[DaemonProcess, str]]:
    """A daemon serving its page, and the page's address with the token."""
    require(shutil.which("xdotool") is not None, "xdotool is not installed")
    require(not missing(), missing())
    home = tmp_path_factory.mktemp("daemon-web-home")
    port = free_port()
    env = {**daemon_env(home), "ASSISTANT_SERVE": "true", "ASSISTANT_SERVE_PORT": str(port)}
    daemon = DaemonProcess(home, ["--model", "openai/gpt-4o-mini", "--api-base",
                                  llm.openai_url, "--quiet"], env)
    try:
        line = daemon.wait_for("assistant daemon: web page on", timeout=180)
        assert f"http://127.0.0.1:{port}/" in line and "token" not in line.split("(")[0]
        daemon.wait_for("assistant daemon: ready", timeout=180)  # a loaded machine
        url = subprocess.run([sys.executable, "-m", "assistant.cli", "serve", "--url"],
                             env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True,
                             text=True, check=True, timeout=60).stdout.strip()
        assert url.startswith(f"assistant serve: open http://127.0.0.1:{port}/?token=")
        yield daemon, url.removeprefix("assistant serve: open ")
    finally:
        assert daemon.stop() == 0, "\n".join(daemon.lines[-30:])
    token = url.rsplit("=", 1)[1]
    assert all(token not in line for line in daemon.lines)
    journal = [p for p in (home / "data").iterdir() if p.name.startswith("journal.db")]
    assert all(token.encode() not in p.read_bytes() for p in journal)


@pytest.fixture
def page(serving: tuple[DaemonProcess, str]) -> Iterator[Any]:
    with chromium() as browser:
        browser.get(serving[1])
        wait_for(browser, "#status", containing="idle")
        yield browser


def test_a_typed_request_is_live_in_the_page_and_the_page_approves_it(
        serving: tuple[DaemonProcess, str], page: Any, llm: LLMServer) -> None:
    from selenium.webdriver.common.keys import Keys

    daemon, _ = serving
    target = daemon.home / "from-the-page.txt"
    llm.add(tool_call("python", write_code(target), text="I will write it."),
            text("Written, approved in the page."))
    start = daemon.mark()
    type_request(daemon, "write the file")
    daemon.wait_state("awaiting_approval", start, timeout=60)
    visible_window(POPUP)
    wait_for(page, ".user", containing="write the file")
    wait_for(page, ".proposal .actions")
    assert not target.exists()
    page.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(page, ".decided", containing="Approved by user: approved in the web page")
    wait_for(page, ".answer", containing="Written, approved in the page.")
    daemon.wait_state("idle", start, timeout=60)
    assert target.read_text() == "done"
    assert "running" in daemon.states(start)


def test_a_request_from_the_page_runs_in_the_daemon_and_esc_cancels(
        serving: tuple[DaemonProcess, str], page: Any, llm: LLMServer) -> None:
    from selenium.webdriver.common.keys import Keys

    daemon, _ = serving
    target = daemon.home / "never.txt"
    llm.add(tool_call("python", write_code(target)), text("Understood, not written."))
    start = daemon.mark()
    wait_for(page, "#request").send_keys("make a file from the page", Keys.ENTER)
    daemon.wait_state("awaiting_approval", start, timeout=60)
    visible_window(POPUP)  # the desktop shows it too
    wait_for(page, ".proposal .actions")
    page.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_for(page, ".decided.no", containing="cancelled in the web page")
    wait_for(page, ".answer", containing="Understood, not written.")
    daemon.wait_state("idle", start, timeout=60)
    assert not target.exists()
    told = next(m["content"] for m in reversed(llm.chat_requests[-1].body["messages"])
                if m["role"] == "tool")
    assert "declined" in told
    assert any("make a file from the page" in line for line in daemon.lines[start:])


def test_the_page_waits_while_the_daemon_is_busy(serving: tuple[DaemonProcess, str],
                                                 llm: LLMServer) -> None:
    import http.client
    import json

    daemon, url = serving
    port = int(url.split(":")[2].split("/")[0])
    token = url.rsplit("=", 1)[1]
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    llm.add(text("A slow answer. " * 20, pace=0.05), text("Next."))
    start = daemon.mark()

    def post(body: str) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("POST", "/api/turns", body, headers)
        response = connection.getresponse()
        reply = response.status, json.loads(response.read())
        connection.close()
        return reply

    status, turn = post('{"text": "talk slowly"}')
    assert status == 202
    daemon.wait_state("thinking", start)
    assert post('{"text": "and another"}')[0] == 409
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", f"/api/turns/{turn['turn_id']}/events", headers=headers)
    stream = connection.getresponse()
    while '"turn_end"' not in stream.readline().decode():
        pass
    connection.close()
    assert post('{"text": "right after its end"}')[0] == 202  # not refused as busy
    daemon.wait_for("assistant daemon: answer Next.", start, timeout=60)
    daemon.wait_state("idle", start, timeout=60)
