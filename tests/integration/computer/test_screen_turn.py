"""End to end: the LLM asks to click OK, the run clicks the real window, the LLM sees the screen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant import Assistant
from assistant.events import Notice, RunEnd
from tests.support.llm_server import LLMServer, text, tool_call
from tests.support.tk_app import TkApp


@pytest.fixture
def dialog(display: str, tmp_path: Path) -> Iterator[TkApp]:
    with TkApp(tmp_path / "events.jsonl", layout="dialog") as app:
        yield app


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as running:
        yield running


def make(server: LLMServer, **kwargs: object) -> Assistant:
    return Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                     code_style="tools", approval="auto", journal=False, **kwargs)


def parts(request: object, kind: str) -> list[dict]:
    return [part for message in request.body["messages"]  # type: ignore[attr-defined]
            if isinstance(message.get("content"), list)
            for part in message["content"] if part.get("type") == kind]


def test_click_ok_then_the_next_request_carries_the_screenshot(
    dialog: TkApp, server: LLMServer, ocr_engine: str
) -> None:
    server.add(tool_call("python", 'computer.mouse.click("OK")'), text("Clicked OK."))
    with make(server, approver=lambda proposal: True) as assistant:  # a click asks a person
        events = list(assistant.turn("click the OK button"))
    end = next(e for e in events if isinstance(e, RunEnd))
    assert end.exit_status == 0, end.output
    assert dialog.wait_for(lambda r: r["event"] == "click")["widget"] == "OK"
    first, second = server.chat_requests
    assert len(parts(first, "image_url")) == 1  # the request was about the screen
    images = parts(second, "image_url")
    assert len(images) == 2 and images[-1]["image_url"]["url"].startswith("data:image/png;base64,")
    intro = parts(second, "text")[-1]["text"]
    assert "untrusted data" in intro and "1280x800" in intro
    system = second.body["messages"][0]["content"]
    assert 'computer.press("Yes")' in system and "untrusted" in system


def test_only_the_last_images_stay_and_view_attaches_one(
    dialog: TkApp, server: LLMServer
) -> None:
    server.add(tool_call("python", "computer.display.view()"),
               tool_call("python", "computer.display.view()"), text("Seen."))
    with make(server, screen_images=1) as assistant:
        events = list(assistant.turn("look at the screen"))
    assert not [e for e in events if isinstance(e, Notice)]
    requests = server.chat_requests
    assert [len(parts(r, "image_url")) for r in requests] == [1, 1, 1]
    removed = [p["text"] for p in parts(requests[-1], "text") if "removed" in p["text"]]
    assert len(removed) == 2


def test_a_model_without_vision_gets_the_text_map_with_ids(
    dialog: TkApp, server: LLMServer, ocr_engine: str
) -> None:
    server.add(text("I see it."))
    with make(server, screen_format="text") as assistant:
        list(assistant.turn("what is on the screen?"))
    request = server.chat_requests[0]
    assert parts(request, "image_url") == []
    shown = parts(request, "text")[-1]["text"]
    assert '<screen_text untrusted="true">' in shown
    assert "publishes no controls" in shown and "click(id=N)" in shown
    assert re.search(r'\[\d+\] "OK"', shown) and " x=" not in shown


def test_an_id_the_model_was_shown_resolves_in_its_run_after_the_screen_is_read_again(
    dialog: TkApp, server: LLMServer, ocr_engine: str
) -> None:
    """The map of the first turn names OK; the second turn reads the screen again (and
    the run could too), and the id the model read still clicks OK."""
    server.add(text("I see it."))
    with make(server, screen_format="text", approver=lambda proposal: True) as assistant:
        list(assistant.turn("what is on the screen?"))
        shown = parts(server.chat_requests[0], "text")[-1]["text"]
        number = int(re.search(r'\[(\d+)\] "OK"', shown).group(1))
        server.add(tool_call("python", f"computer.screen()\ncomputer.click(id={number})"),
                   text("Clicked OK."))
        events = list(assistant.turn("click the OK button on the screen"))
    end = next(e for e in events if isinstance(e, RunEnd))
    assert end.exit_status == 0, end.output
    assert dialog.wait_for(lambda r: r["event"] == "click")["widget"] == "OK"


def test_never_means_no_screen_and_no_guide(dialog: TkApp, server: LLMServer) -> None:
    server.add(text("Fine."))
    with make(server, screen_context="never") as assistant:
        list(assistant.turn("click the OK button"))
    request = server.chat_requests[0]
    assert parts(request, "image_url") == []
    assert "computer.mouse" not in request.body["messages"][0]["content"]
