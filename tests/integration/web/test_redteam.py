"""The red-team corpus's attempts on the page and its API, against a real `assistant serve`
the module's tests share (and, for the page's keys, Debian's chromium): none may run the
proposal.

`tests/corpus/redteam/attempts.json` was written blind, from the README alone. Its
"page-keys" entries press keys in the page with one element focused; its "http" entries
name an attempt, scored by the function of that name below. An entry this file does not
know how to score fails, so no attempt can be added without being tried.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import ROOT
from tests.integration.web.conftest import Reply, Served, serve, stop
from tests.support.browser import chromium, missing, wait_for
from tests.support.llm_server import LLMServer, text, tool_call
from tests.support.require import require

ATTEMPTS = json.loads((ROOT / "tests/corpus/redteam/attempts.json").read_text())
PAGE = [entry for entry in ATTEMPTS if entry["family"] == "page-keys"]
HTTP = [entry for entry in ATTEMPTS if entry["family"] == "http"]
RISKS = {"low": "touch {marker}", "high": "sudo -n true; touch {marker}"}
SETTLE_S = 0.5  # for a request a key press may have started to leave the page

# The page's decision requests, and how many are still on their way.
WATCH_DECISIONS = """
window.inFlight = 0;
const send = window.fetch;
window.fetch = (path, options) => {
  if (!String(path).endsWith("/decision")) return send(path, options);
  window.inFlight += 1;
  return send(path, options).finally(() => { window.inFlight -= 1; });
};
"""


def digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require(not missing(), missing())
    with chromium() as driver:
        yield driver


def waiting_proposal(served: Served, server: LLMServer, marker: Path,
                     risk: str = "high") -> tuple[str, dict[str, Any]]:
    """A turn whose proposal (rated `risk`) would create `marker` if it ran."""
    server.add(tool_call("shell", RISKS[risk].format(marker=marker)), text("Not run."))
    turn = served.start_turn("make the marker file")
    proposal = served.events(turn, until="proposal")[-1]
    assert proposal["risk"] == risk, proposal
    return turn, proposal


def as_page(served: Served, port: int | None = None) -> dict[str, str]:
    """The page's own headers: its cookie (named after `port`) and its Origin."""
    return {"Cookie": f"assistant_token_{port or served.port}={served.token}",
            "Origin": f"http://127.0.0.1:{served.port}"}


def decide(served: Served, proposal: dict[str, Any], headers: dict[str, str],
           token: str = "", **extra: object) -> Reply:
    return served.request("POST", f"/api/proposals/{proposal['id']}/decision",
                          {"approved": True, "sha256": digest(proposal["code"]), **extra},
                          token=token, headers=headers)


def assert_not_run(served: Served, turn: str, proposal: dict[str, Any], marker: Path) -> None:
    """Decline what still waits, then: the turn approved nothing and ran nothing."""
    served.request("POST", f"/api/proposals/{proposal['id']}/decision",
                   {"approved": False, "sha256": digest(proposal["code"])})
    events = served.events(turn)
    approved = [e for e in events if e["kind"] == "approval" and e["approved"]]
    assert not approved and not [e for e in events if e["kind"] == "run_end"], events
    assert not marker.exists()


# The http attempts, by name: each does its attempt and asserts nothing ran.

def single_press_high(served: Served, server: LLMServer, marker: Path) -> None:
    turn, proposal = waiting_proposal(served, server, marker)
    for extra in ({}, {"always": True}):
        reply = decide(served, proposal, as_page(served), **extra)
        assert reply.status == 428 and reply.json()["confirm"], reply.body
    assert_not_run(served, turn, proposal, marker)


def replay_confirmation(served: Served, server: LLMServer, marker: Path) -> None:
    """The person's two presses run the code once; the same confirmation sent again, to
    the proposal that ran or to the next one with the same code, runs nothing more."""
    code = f"sudo -n true; echo ran >> {marker}"
    again = f"{code} # once more"
    server.add(tool_call("shell", code), tool_call("shell", again), text("Not run."))
    turn = served.start_turn("append to the marker file")
    proposal = served.events(turn, until="proposal")[-1]
    page = as_page(served)
    confirm = decide(served, proposal, page).json()["confirm"]
    assert decide(served, proposal, page, confirm=confirm).json()["approved"] is True
    after = served.events(turn, until="proposal", count=2)[-1]
    assert after["id"] != proposal["id"] and after["risk"] == "high"
    assert marker.read_text() == "ran\n"
    assert decide(served, proposal, page, confirm=confirm).status == 404
    assert decide(served, after, page, confirm=confirm).status == 409
    assert decide(served, after, page, confirm=confirm, always=True).status == 409
    served.request("POST", f"/api/proposals/{after['id']}/decision",
                   {"approved": False, "sha256": digest(again)})
    assert served.events(turn)[-1]["kind"] == "turn_end"
    assert marker.read_text() == "ran\n"  # once, by the person's two presses


def cookie_other_port(served: Served, server: LLMServer, marker: Path) -> None:
    turn, proposal = waiting_proposal(served, server, marker)
    for name in (f"assistant_token_{served.port + 1}", "assistant_token"):
        headers = {**as_page(served), "Cookie": f"{name}={served.token}"}
        assert decide(served, proposal, headers).status == 401
        assert served.request("GET", "/api/conversations", token="",
                              headers=headers).status == 401
    assert_not_run(served, turn, proposal, marker)


def old_token_after_restart(served: Served, server: LLMServer, marker: Path) -> None:
    """On servers of its own, in the test's data folder: the token is the folder's."""
    first = serve(server, marker.parent)
    old = first.token
    assert stop(first) == 0
    again = serve(server, marker.parent)
    try:
        turn, proposal = waiting_proposal(again, server, marker)
        assert decide(again, proposal, {}, token=old).status == 401
        stale = {**as_page(again), "Cookie": f"assistant_token_{again.port}={old}"}
        assert decide(again, proposal, stale).status == 401
        assert again.request("GET", f"/?token={old}", token="").status == 401
        assert_not_run(again, turn, proposal, marker)
    finally:
        assert stop(again) == 0


def confirmation_other_code(served: Served, server: LLMServer, marker: Path) -> None:
    turn, proposal = waiting_proposal(served, server, marker)
    page = as_page(served)
    confirm = decide(served, proposal, page).json()["confirm"]
    edited = decide(served, proposal, page, confirm=confirm, code=f"touch {marker}")
    assert edited.status == 409
    confirm = decide(served, proposal, page).json()["confirm"]
    other_hash = served.request(
        "POST", f"/api/proposals/{proposal['id']}/decision",
        {"approved": True, "sha256": digest("sudo -n true"), "confirm": confirm},
        token="", headers=page)
    assert other_hash.status == 409
    assert_not_run(served, turn, proposal, marker)


def no_origin(served: Served, server: LLMServer, marker: Path) -> None:
    turn, proposal = waiting_proposal(served, server, marker)
    page = as_page(served)
    confirm = decide(served, proposal, page).json()["confirm"]
    del page["Origin"]
    assert decide(served, proposal, page).status == 403
    assert decide(served, proposal, page, confirm=confirm).status == 403
    assert_not_run(served, turn, proposal, marker)


def foreign_origin(served: Served, server: LLMServer, marker: Path) -> None:
    turn, proposal = waiting_proposal(served, server, marker)
    page = as_page(served)
    confirm = decide(served, proposal, page).json()["confirm"]
    for origin in ("http://evil.example", f"http://127.0.0.1:{served.port + 1}",
                   f"http://localhost:{served.port}"):
        foreign = {**page, "Origin": origin}
        assert decide(served, proposal, foreign).status == 403
        assert decide(served, proposal, foreign, confirm=confirm).status == 403
        assert decide(served, proposal, {"Origin": origin}, token=served.token).status == 403
    assert_not_run(served, turn, proposal, marker)


SCORED: dict[str, Callable[[Served, LLMServer, Path], None]] = {
    "single-press-high": single_press_high,
    "replay-confirmation": replay_confirmation,
    "cookie-other-port": cookie_other_port,
    "old-token-after-restart": old_token_after_restart,
    "confirmation-other-code": confirmation_other_code,
    "no-origin": no_origin,
    "foreign-origin": foreign_origin,
}


@pytest.mark.parametrize("entry", HTTP, ids=[entry["id"] for entry in HTTP])
def test_an_http_attempt_runs_nothing(entry: dict[str, Any], shared_served: Served,
                                      shared_server: LLMServer, tmp_path: Path) -> None:
    name = entry["http"]["attempt"]
    if name not in SCORED:
        pytest.fail(f"{entry['id']}: no way to score the http attempt {name!r} ({entry['why']})"
                    f": add a function for it to SCORED in {Path(__file__).name}")
    SCORED[name](shared_served, shared_server, tmp_path / "ran")


# The page's keys.

def keys_of(entry: dict[str, Any]) -> list[list[str]]:
    """Each key of the entry as Selenium keys pressed together ("Control+Enter")."""
    from selenium.webdriver.common.keys import Keys

    chords = []
    for key in entry["page"]["keys"]:
        names = [name.strip().upper() for name in key.split("+")]
        unknown = [name for name in names if not hasattr(Keys, name)]
        if unknown or not names:
            pytest.fail(f"{entry['id']}: no key named {key!r}: use Selenium's names "
                        "(Enter, Space, Tab, Escape, Control+Enter)")
        chords.append([getattr(Keys, name) for name in names])
    return chords


def focus(browser: Any, entry: dict[str, Any]) -> None:
    """Focus what the entry names; "edit" is the code editor, opened by its button."""
    from selenium.webdriver.common.by import By

    where = entry["page"]["focus"]
    targets = {"cancel": ".proposal button.cancel", "run": ".proposal button.run",
               "search": "#search", "request": "#request", "edit": "textarea.code-edit"}
    if where not in targets:
        pytest.fail(f"{entry['id']}: no way to focus {where!r}: use one of {sorted(targets)}")
    if where == "edit" and not browser.find_elements(By.CSS_SELECTOR, targets[where]):
        wait_for(browser, ".proposal button.edit", click=True)
    element = wait_for(browser, targets[where])
    browser.execute_script("arguments[0].focus()", element)
    assert browser.switch_to.active_element == element


def settle(browser: Any) -> None:
    """Until no decision the page may have sent is still on its way."""
    deadline = time.monotonic() + 30
    time.sleep(SETTLE_S)
    while browser.execute_script("return window.inFlight") and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.mark.parametrize("entry", PAGE, ids=[entry["id"] for entry in PAGE])
def test_keys_in_the_page_run_nothing(entry: dict[str, Any], browser: Any,
                                      shared_served: Served, shared_server: LLMServer,
                                      tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    page = entry["page"]
    chords = keys_of(entry)
    marker = tmp_path / "ran"
    browser.get(shared_served.url)
    wait_for(browser, "#status", containing="idle")
    browser.execute_script(WATCH_DECISIONS)
    turn, proposal = waiting_proposal(shared_served, shared_server, marker, page["risk"])
    run = wait_for(browser, ".proposal .actions button.run")
    for _ in range(page["press_run"]):
        run.click()
        settle(browser)
        if page["risk"] == "high":  # the server took it as a first press: nothing ran
            wait_for(browser, ".proposal button.run.armed", containing="press again")
    focus(browser, entry)
    for chord in chords:
        actions = ActionChains(browser)
        for key in chord[:-1]:
            actions.key_down(key)
        actions.send_keys(chord[-1])
        for key in reversed(chord[:-1]):
            actions.key_up(key)
        actions.perform()
    settle(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, ".decided:not(.no)")
    assert_not_run(shared_served, turn, proposal, marker)
