"""When a conversation starts afresh: asked for in words, or after a long silence."""

import pytest

from assistant.daemon.fresh import asks_fresh_start, asks_undo, idle_note


@pytest.mark.parametrize("text", ["Start over.", "New conversation", "Let's start over, please.",
                                  "Start a new conversation.", "okay, new chat"])
def test_asking_to_start_over(text) -> None:
    assert asks_fresh_start(text)


@pytest.mark.parametrize("text", ["Start over the download of the file",
                                  "what did we say in the new conversation", "list the files"])
def test_requests_that_only_mention_it(text) -> None:
    assert not asks_fresh_start(text)


def test_a_request_after_the_silence_starts_afresh_and_says_so() -> None:
    assert idle_note(11 * 60, 10, started=True) == (
        "New conversation: 11 minutes since the last request.")
    assert idle_note(9 * 60, 10, started=True) == ""
    assert idle_note(11 * 60, 10, started=False) == ""  # nothing to leave behind
    assert idle_note(99 * 60, 0, started=True) == ""  # 0: never


@pytest.mark.parametrize("text", ["Undo that.", "undo that, please", "OK, undo the last run",
                                  "Put it back."])
def test_undo_that_asks_for_an_undo(text: str) -> None:
    assert asks_undo(text)


@pytest.mark.parametrize("text", ["undo the rename in my notes folder",
                                  "how do I undo a git commit", "start over"])
def test_a_request_that_mentions_undo_is_for_the_model(text: str) -> None:
    assert not asks_undo(text)
