"""The popup shows a previewed effect first (its sentence as the header, the counts, the
model's plan as its claim) and the code behind a "Show code" toggle; real Tk on Xvfb."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from assistant.events import Effect, Proposal
from assistant.ui.popup import Popup
from tests.integration.ui.test_popup import ask, click
from tests.support.display import wait_until

CODE = "rm -r ~/Downloads/old-backups"
EFFECT = Effect(deleted=("/h/Downloads/old-backups/", "/h/Downloads/old-backups/a.tar"),
                summary="Deletes 1 file (/h/Downloads/old-backups/a.tar) and deletes 1 "
                        "folder (/h/Downloads/old-backups).")


@pytest.fixture(scope="module")
def session() -> Iterator[ThreadPoolExecutor]:
    """Threads that ask for approvals, as session threads do."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        yield pool


def test_the_effect_is_the_header_and_the_code_is_one_click_away(
        popup: Popup, session: ThreadPoolExecutor) -> None:
    future = ask(session, popup, Proposal("fx", "shell", CODE, "high", effect=EFFECT),
                 "I will list your largest files.")
    header, details, code_shown = popup.call(lambda w: (
        w.summary.cget("text"), w.effect.cget("text"), w.code.winfo_ismapped()))
    assert header == EFFECT.summary
    assert details.splitlines() == ["2 deleted",
                                    "The model's plan: I will list your largest files."]
    assert not code_shown
    click(popup, lambda w: w.code_button)
    wait_until(lambda: popup.call(lambda w: w.code.winfo_ismapped()), "the code is shown")
    assert popup.call(lambda w: w.code_button.cget("text")) == "Hide code"
    click(popup, lambda w: w.cancel_button)
    assert not future.result(5).approved


def test_without_an_effect_the_code_shows_and_there_is_no_toggle(
        popup: Popup, session: ThreadPoolExecutor) -> None:
    future = ask(session, popup, Proposal("plain", "shell", "ls"), "I will list files.")
    assert popup.call(lambda w: (w.code.winfo_ismapped(), w.code_button.winfo_ismapped(),
                                 w.summary.cget("text"))) == (True, False, "I will list files.")
    click(popup, lambda w: w.cancel_button)
    assert not future.result(5).approved
