"""The page in a real browser against `assistant serve`, a fenced reply and real what-if
runs: a try that failed in a copy of the files is one collapsed line whose code opens on a
click, never words in the answer; the conversation read back from the journal shows the
same."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.web.conftest import Served, serve, stop
from tests.support.browser import wait_for
from tests.support.llm_server import LLMServer, fenced, text
from tests.support.require import require

FAILING = "mv ~/a.txt ~/old/"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    from assistant.whatif.preview import problem

    require(not problem(), problem())
    folder = tmp_path / "home"
    folder.mkdir()
    (folder / "a.log").write_text("a")
    return folder


@pytest.fixture
def fenced_served(server: LLMServer, tmp_path: Path, home: Path) -> Iterator[Served]:
    running = serve(server, tmp_path, "--code-style", "fenced", env={"HOME": str(home)})
    yield running
    assert stop(running) == 0, running.log()


def test_a_failed_try_is_a_collapsed_line_with_its_code_on_a_click(
        browser: Any, fenced_served: Served, server: LLMServer, home: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    server.add(fenced("shell", FAILING, before="I'll move the log."),
               fenced("shell", "mkdir -p ~/old && mv ~/a.log ~/old/", before="Now a.log."),
               text("Moved a.log into old."))
    browser.get(fenced_served.url)
    wait_for(browser, "#request").send_keys("move the log into a new folder old", Keys.ENTER)
    wait_for(browser, ".proposal .actions")
    tried = browser.find_element(By.CSS_SELECTOR, "details.tried")
    summary = tried.find_element(By.TAG_NAME, "summary")
    assert summary.text.startswith("Tried in a copy of your files: failed (")
    code = tried.find_element(By.CSS_SELECTOR, ".code")
    assert not code.is_displayed()
    summary.click()
    assert code.is_displayed() and FAILING in code.text
    answers = " ".join(a.text for a in browser.find_elements(By.CSS_SELECTOR, ".answer"))
    assert "I'll move the log." in answers and "Now a.log." in answers
    assert "mv ~/a" not in answers and "```" not in answers
    wait_for(browser, ".proposal button.run", click=True)
    wait_for(browser, ".run-end", containing="exit 0")
    wait_for(browser, "#status", containing="idle")
    assert (home / "old" / "a.log").read_text() == "a"

    browser.find_element(By.ID, "new").click()  # the conversation again, from the journal
    wait_for(browser, ".empty", containing="new conversation")
    wait_for(browser, "#conversations li", containing="move the log", click=True)
    wait_for(browser, "details.tried summary", containing="Tried in a copy of your files")
    answers = " ".join(a.text for a in browser.find_elements(By.CSS_SELECTOR, ".answer"))
    assert "Now a.log." in answers and "mv ~/a" not in answers
