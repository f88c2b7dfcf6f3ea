"""The page in a real browser against `assistant serve`, the scripted LLM and real what-if
runs: a proposal shows its effect first and its code behind "Show code"; after it ran,
"Undo last run" (POST /api/undo, token-guarded) puts the files back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.web.conftest import Served, serve, stop
from tests.support.browser import wait_for
from tests.support.llm_server import LLMServer, text, tool_call
from tests.support.require import require


@pytest.fixture
def home(tmp_path: Path) -> Path:
    from assistant.whatif.preview import problem

    require(not problem(), problem())
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def served_home(server: LLMServer, tmp_path: Path, home: Path) -> Iterator[Served]:
    running = serve(server, tmp_path, env={"HOME": str(home)})
    yield running
    assert stop(running) == 0, running.log()


def test_the_effect_shows_first_the_code_on_a_click_and_undo_puts_the_file_back(
        browser: Any, served_home: Served, server: LLMServer, home: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    server.add(tool_call("shell", "echo hello > ~/note.txt", text="I will list your files."),
               text("Done."))
    browser.get(served_home.url)
    wait_for(browser, "#request").send_keys("make a note", Keys.ENTER)
    card = wait_for(browser, ".proposal .actions").find_element(By.XPATH, "..")
    effect = card.find_element(By.CSS_SELECTOR, ".effect")
    assert effect.text.splitlines() == ["Creates 1 file (~/note.txt; 6 bytes).",
                                        "1 created"]
    code = card.find_element(By.CSS_SELECTOR, ".code")
    assert not code.is_displayed()
    card.find_element(By.CSS_SELECTOR, "button.show-code").click()
    assert code.is_displayed() and "echo hello" in code.text
    card.find_element(By.CSS_SELECTOR, "button.run").click()
    wait_for(browser, ".run-end", containing="exit 0")
    wait_for(browser, "#status", containing="idle")
    assert (home / "note.txt").read_text() == "hello\n"

    wait_for(browser, "#undo", click=True)
    said = wait_for(browser, ".undone", containing="Undid run")
    assert "creates 1 file" in said.text
    assert not (home / "note.txt").exists()
    wait_for(browser, "#undo", click=True)
    wait_for(browser, ".undone.error", containing="no run to undo")


def test_undo_needs_the_token(served: Served) -> None:
    assert served.request("POST", "/api/undo", {}, token="").status == 401
    reply = served.request("POST", "/api/undo", {})
    assert reply.status == 409 and reply.json()["error"]
