"""The web page's figures: how soon an event reaches the page, and what an idle server holds.

Both use real parts: the app on uvicorn, Debian's chromium driven by
Selenium (headless), and `assistant serve` as its own process.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench.base import Bench, NotMeasurable
from benchmarks.venv import ROOT

PREFIX = "assistant serve: open "


def web_event_latency_ms(bench: Bench) -> float:
    """Median time from an event entering the server (published on the turn's thread, where
    the session's events enter it) to its element in the page's DOM, stamped by the page."""
    from tests.support.browser import chromium, missing

    if missing():
        raise NotMeasurable(missing())
    from assistant.config import load_settings
    from assistant.events import Notice
    from assistant.journal import Journal
    from assistant.web.app import make_app
    from assistant.web.conversations import Conversations
    from assistant.web.live import Hub
    from assistant.web.server import Server, bind
    from assistant.web.token import TokenFile

    folder = Path(tempfile.mkdtemp(prefix="assistant-bench-web-"))
    hub = Hub()
    journal = Journal.in_dir(folder)
    tokens = TokenFile(folder)
    settings = load_settings({"model": "openai/none", "data_dir": str(folder)})
    server = Server(make_app(hub, Conversations(settings, hub), journal, token=tokens),
                    bind("127.0.0.1", 0))
    thread = server.start()
    samples: list[float] = []
    try:
        with chromium() as browser:
            for _ in range(bench.reps(3, 1)):  # a fresh page each round
                browser.get(f"http://127.0.0.1:{server.port}/?token={tokens.get()}")
                turn = hub.open_turn("bench")
                wait_count(browser, ".user", 1)
                sent = []
                for n in range(bench.reps(60, 20)):
                    sent.append(time.time() * 1000)
                    hub.publish(turn, Notice(f"bench event {n}"))
                    time.sleep(0.02)
                wait_count(browser, ".notice", len(sent))
                shown = browser.execute_script(
                    "return Array.from(document.querySelectorAll('.notice'),"
                    " e => Number(e.dataset.rendered))")
                samples += [at - start for at, start in zip(shown, sent, strict=True)]
                hub.end(turn, "bench round over")
    finally:
        hub.close()
        server.stop()
        thread.join(5)
        journal.close()
    return statistics.median(samples)


def wait_count(browser: Any, css: str, count: int, timeout: float = 30) -> None:
    """Until the page holds `count` elements matching `css`."""
    deadline = time.monotonic() + timeout
    while browser.execute_script("return document.querySelectorAll(arguments[0]).length",
                                 css) < count:
        if time.monotonic() > deadline:
            raise RuntimeError("the page did not show the events in time")
        time.sleep(0.01)


def serve_idle_rss_mb(bench: Bench) -> float:
    """Resident memory of an idle `assistant serve` (LLM client loaded, one page request
    answered; no interpreter runs until a turn needs one), median over fresh starts."""
    return statistics.median(idle_rss_mb() for _ in range(bench.reps(3, 1)))


def idle_rss_mb() -> float:
    import http.client

    with tempfile.TemporaryDirectory(prefix="assistant-bench-serve-") as folder:
        env = {**os.environ, "ASSISTANT_DATA_DIR": folder, "ASSISTANT_CONFIG_DIR": folder,
               "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        process = subprocess.Popen(
            [sys.executable, "-m", "assistant.cli", "serve", "--port", "0", "--model",
             "openai/gpt-4o-mini", "--api-base", "http://127.0.0.1:9/v1", "--api-key", "none"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            if not line.startswith(PREFIX):
                raise RuntimeError(f"assistant serve did not start: {line!r}")
            address = line.removeprefix(PREFIX).split("/?token=")
            port = int(address[0].rsplit(":", 1)[1])
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/api/conversations", headers={
                "Authorization": f"Bearer {address[1].strip()}"})
            if connection.getresponse().status != 200:
                raise RuntimeError("assistant serve did not answer")
            connection.close()
            return settled_rss_mb(process.pid)
        finally:
            process.terminate()
            process.wait(20)


def settled_rss_mb(pid: int, timeout: float = 60) -> float:
    """VmRSS of one process once it stops growing (the LLM client loads in the background)."""
    readings: list[float] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = Path(f"/proc/{pid}/status").read_text()
        readings.append(next(int(line.split()[1]) for line in status.splitlines()
                             if line.startswith("VmRSS:")) / 1024)
        if len(readings) >= 4 and max(readings[-4:]) - min(readings[-4:]) < 0.5:
            return readings[-1]
        time.sleep(1)
    raise RuntimeError(f"the server's memory did not settle: {readings[-4:]}")


if __name__ == "__main__":
    sys.exit("run through python -m benchmarks.bench --only web_event_latency_ms,serve_idle_rss_mb")
