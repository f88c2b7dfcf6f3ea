"""The page in a real browser (Debian's chromium through Selenium) against an `assistant serve`
the module's tests share and the scripted LLM: a whole turn from the request box to the
answer, then its history."""

from __future__ import annotations

import json
from typing import Any

from tests.integration.web.conftest import Served
from tests.support.browser import wait_for
from tests.support.llm_server import LLMServer, text, tool_call


def test_a_whole_turn_in_the_page_then_found_in_history(browser: Any, shared_served: Served,
                                                        shared_server: LLMServer) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    shared_server.add(tool_call("python", "print('original')", text="I will print it."),
               tool_call("python", "print('original')", text="Trying once more."),
               text("It printed edited."))
    browser.get(shared_served.url)
    assert browser.current_url == f"{shared_served.base}/"  # the token left the address bar
    request = wait_for(browser, "#request")
    request.send_keys("print something", Keys.ENTER)
    wait_for(browser, ".user", containing="print something")

    first = wait_for(browser, ".proposal .actions").find_element(By.XPATH, "..")
    assert "low risk" in first.text.lower() and "print('original')" in first.text
    assert first.find_elements(By.CSS_SELECTOR, ".code .nb, .code .s1")  # highlighted
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_for(browser, ".decided.no", containing="cancelled in the web page")

    second = wait_for(browser, ".proposal .actions").find_element(By.XPATH, "..")
    assert second.get_attribute("data-id") != first.get_attribute("data-id")
    second.find_element(By.CSS_SELECTOR, "button.edit").click()
    editor = wait_for(browser, "textarea.code-edit")
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys("print('edited')")
    second.find_element(By.CSS_SELECTOR, ".head").click()  # out of the editor: Enter runs
    browser.switch_to.active_element.send_keys(Keys.ENTER)

    wait_for(browser, ".decided", containing="Approved by user")
    assert "print('edited')" in second.find_element(By.CSS_SELECTOR, ".code.edited").text
    assert wait_for(browser, ".output", containing="edited").text.strip() == "edited"
    wait_for(browser, ".run-end", containing="exit 0")
    wait_for(browser, ".answer", containing="It printed edited.")
    wait_for(browser, "#status", containing="idle")
    assert shared_server.chat_requests[-1].body["messages"][-1]["content"].count("edited")

    search = browser.find_element(By.ID, "search")
    search.send_keys("print something")
    wait_for(browser, "#conversations li", containing="print something")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#conversations li")) == 1
    browser.find_element(By.ID, "new").click()
    wait_for(browser, ".empty", containing="new conversation")
    wait_for(browser, "#conversations li", containing="print something", click=True)
    wait_for(browser, ".user", containing="print something")
    history = browser.find_element(By.ID, "view").text
    for seen in ("I will print it.", "cancelled in the web page", "Approved by user",
                 "print('edited')", "exit 0", "It printed edited."):
        assert seen in history
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors


RECORD_DECISIONS = """
window.decisions = [];
const send = window.fetch;
window.fetch = (path, options) => {
  if (String(path).endsWith("/decision")) window.decisions.push([String(path), options.body]);
  return send(path, options);
};
"""
REPLAY = """
const [path, body, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body})
  .then((response) => done(response.status), (error) => done(String(error)));
"""


def test_high_risk_runs_on_the_second_press_and_a_replayed_first_press_runs_nothing(
        browser: Any, shared_served: Served, shared_server: LLMServer, tmp_path: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    marker = tmp_path / "ran"
    shared_server.add(tool_call("shell", f"sudo -n true; touch {marker}"), text("Done."))
    browser.get(shared_served.url)
    wait_for(browser, "#request").send_keys("do it as root", Keys.ENTER)
    card = wait_for(browser, ".proposal .actions").find_element(By.XPATH, "..")
    assert "high risk" in card.text.lower() and card.find_elements(By.CSS_SELECTOR, ".reasons li")
    browser.execute_script(RECORD_DECISIONS)
    run = card.find_element(By.CSS_SELECTOR, "button.run")
    run.click()
    wait_for(browser, ".proposal button.run.armed", containing="press again")
    [(path, first_press)] = browser.execute_script("return window.decisions")
    assert "confirm" not in json.loads(first_press)  # the server answered it with one
    # The first press sent again, from the page itself (its cookie, its Origin): a new
    # confirmation, and nothing runs.
    assert browser.execute_async_script(REPLAY, path, first_press) == 428
    assert browser.execute_async_script(REPLAY, path, first_press) == 428
    assert not marker.exists() and not browser.find_elements(By.CSS_SELECTOR, ".decided")
    assert len(shared_server.chat_requests) == 1  # the turn still waits on the proposal
    run.click()
    wait_for(browser, ".decided", containing="Approved by user")
    wait_for(browser, ".answer", containing="Done.")
    assert marker.exists()
    second = json.loads(browser.execute_script("return window.decisions")[-1][1])
    assert second["confirm"] and second["approved"] is True


def test_enter_on_cancel_edit_the_editor_search_or_request_box_runs_nothing(
        browser: Any, shared_served: Served, shared_server: LLMServer, tmp_path: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    marker = tmp_path / "ran"
    shared_server.add(tool_call("shell", f"touch {marker}"), text("Not run."))
    browser.get(shared_served.url)
    wait_for(browser, "#status", containing="idle")
    shared_served.start_turn("make the file")  # from elsewhere: the page's request box stays open
    card = wait_for(browser, ".proposal .actions").find_element(By.XPATH, "..")
    assert "low risk" in card.text.lower()  # one Enter on Run would run it
    browser.execute_script(RECORD_DECISIONS)
    for target in ("#search", "#request", ".proposal button.edit", "textarea.code-edit"):
        element = wait_for(browser, target)
        browser.execute_script("arguments[0].focus()", element)
        ActionChains(browser).send_keys(Keys.ENTER).perform()
        ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(
            Keys.CONTROL).perform()
    assert browser.switch_to.active_element.get_attribute("class") == "code-edit"
    cancel = card.find_element(By.CSS_SELECTOR, "button.cancel")
    browser.execute_script("arguments[0].focus()", cancel)
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait_for(browser, ".decided.no", containing="cancelled in the web page")
    wait_for(browser, ".answer", containing="Not run.")
    sent = [json.loads(body) for _, body in browser.execute_script("return window.decisions")]
    assert [body["approved"] for body in sent] == [False]
    assert not marker.exists()


def test_turns_running_at_once_each_keep_their_own_place(browser: Any, shared_served: Served,
                                                         shared_server: LLMServer) -> None:
    import hashlib

    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    shared_server.add(tool_call("shell", "echo from the script"), text("Page answer."),
               text("Script answer."))
    browser.get(shared_served.url)
    wait_for(browser, "#status", containing="idle")
    script_turn = shared_served.start_turn("a request from a script")
    proposal = shared_served.events(script_turn, until="proposal")[-1]
    wait_for(browser, ".proposal .actions")  # the page may answer it too
    wait_for(browser, "#request").send_keys("a request from the page", Keys.ENTER)
    wait_for(browser, ".answer", containing="Page answer.")
    reply = shared_served.request("POST", f"/api/proposals/{proposal['id']}/decision", {
        "approved": True, "sha256": hashlib.sha256(proposal["code"].encode()).hexdigest()})
    assert reply.status == 200
    wait_for(browser, ".answer", containing="Script answer.")
    first, second = browser.find_elements(By.CSS_SELECTOR, "section.turn")
    assert "a request from a script" in first.text and "Script answer." in first.text
    assert "from the script" in first.find_element(By.CSS_SELECTOR, ".output").text
    assert "Page answer." not in first.text
    assert "a request from the page" in second.text and "Page answer." in second.text
    assert "Script answer." not in second.text and not second.find_elements(
        By.CSS_SELECTOR, ".proposal")


def test_markup_from_the_llm_or_a_program_is_shown_as_text(browser: Any, shared_served: Served,
                                                           shared_server: LLMServer) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    code = "echo '<b id=\"from-output\">bold?</b>'  # <b id=\"from-code\">x</b>"
    shared_server.add(tool_call("shell", code, text='<b id="from-words">Hi</b>'),
               text('Printed <img id="from-answer" src="x">.'))
    browser.get(shared_served.url)
    wait_for(browser, "#request").send_keys("<b id='from-request'>go</b>", Keys.ENTER)
    wait_for(browser, ".proposal .actions")
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(browser, ".answer", containing='<img id="from-answer" src="x">')
    for name in ("from-output", "from-code", "from-words", "from-answer", "from-request"):
        assert not browser.find_elements(By.ID, name)
    assert '<b id="from-output">bold?</b>' in browser.find_element(By.CSS_SELECTOR,
                                                                   ".output").text
