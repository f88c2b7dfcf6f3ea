"""The assistant's own windows are known by their titles, so the screen it reads for the
model and the words it hears hints from leave them out."""

from __future__ import annotations

from assistant.computer.windows import own
from assistant.daemon.entry import TITLE
from assistant.ui.popup_widgets import TITLES


def test_every_window_the_assistant_shows_is_known_as_its_own() -> None:
    assert all(own(title) for title in [*TITLES.values(), TITLE, "assistant: error"])
    assert not own("Export") and not own("assistant notes.txt - Mousepad")
