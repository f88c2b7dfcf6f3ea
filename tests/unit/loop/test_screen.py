"""Which turns carry the screen, in which form, and how many images stay in the history."""

from __future__ import annotations

import pytest

from assistant.config import Settings
from assistant.llm.context import split_turns
from assistant.loop.screen import POINTS, REMOVED, ScreenFeed, guide


def context(**settings: object) -> ScreenFeed:
    return ScreenFeed(Settings(model="openai/gpt-4o-mini", **settings))


def test_auto_mode_looks_for_requests_and_runs_about_the_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    screen = context()
    assert screen.wanted_for("click the Save button")
    assert screen.wanted_for("What is on my screen?")
    assert screen.wanted_for("Tick Photos and Music.") and screen.wanted_for("press OK")
    assert not screen.wanted_for("book a ticket") and not screen.wanted_for("tyre pressure")
    assert not screen.wanted_for("how much disk space is free")
    assert screen.wanted_for("Write two lines in the empty note that's open.")
    assert screen.wanted_after(["computer.mouse.click('OK')"])
    assert not screen.wanted_after(["print(1)"])
    assert context(screen_context="always").wanted_for("hello")
    never = context(screen_context="never")
    assert not never.wanted_for("click OK") and not never.wanted_after(["computer.display.view()"])
    monkeypatch.setenv("DISPLAY", ":1234")
    assert never.addendum() == "" and 'computer.press("Yes")' in screen.addendum()
    monkeypatch.delenv("DISPLAY")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert screen.addendum() == ""  # no desktop, nothing to advertise


def test_only_the_last_images_stay_and_the_screen_does_not_start_a_turn() -> None:
    screen = context(screen_images=2)

    def image_message() -> dict:
        return {"role": "user", "content": [
            {"type": "text", "text": "The screen at this moment (1280x800)"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}

    messages = [{"role": "user", "content": "click OK"}, image_message(),
                {"role": "assistant", "content": "done"}, image_message(), image_message()]
    screen.prune(messages)
    kinds = [[p["type"] for p in m["content"]] for m in messages if isinstance(m["content"], list)]
    assert kinds == [["text", "text"], ["text", "image_url"], ["text", "image_url"]]
    assert messages[1]["content"][1]["text"] == REMOVED
    assert len(split_turns(messages)) == 1


def test_the_guide_teaches_each_verb_by_an_example_that_is_code_that_resolves() -> None:
    """One short example per verb, not signatures: each example line parses as Python, and
    what it calls is there in `computer`."""
    import ast

    from assistant import computer
    from assistant.computer import editing, verbs

    text = guide()
    examples = [line.split("  #")[0].strip() for line in text.splitlines()
                if line.startswith("computer.")]
    assert len(examples) >= 10 and "signature" not in text and "accessible names are" in text
    for example in examples:
        call = ast.parse(example).body[0].value
        assert callable(getattr(computer, call.func.attr)), example
    for verb in [*verbs.__all__, *(v for v in editing.__all__ if v != "editor")]:
        assert f"{verb}(" in text, verb


def test_a_request_to_act_on_a_window_in_other_words_wants_the_screen() -> None:
    screen = context(screen_context="auto")
    for request in ("press Save in the unsaved changes prompt", "fill the contact form",
                    "close the message that says the copy finished", "say yes to it"):
        assert screen.wanted_for(request), request
    assert not screen.wanted_for("change the format of dates.csv")  # "form" only as a word


@pytest.mark.parametrize(("request_", "points"), [
    ("Use the newsletter page in the browser to unsubscribe me.", True),
    ("Please file a support ticket on the page that's open.", True),
    ("chores.txt is open in the text editor. Delete the line about the cat.", True),
    ("close the dialog", True),
    ("save the page at 127.0.0.1:9 as page.html", False),
    ("make a file from the page", False),
])
def test_words_that_point_at_something_displayed(request_: str, points: bool) -> None:
    assert bool(POINTS.search(request_)) is points
