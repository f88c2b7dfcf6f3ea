"""The `computer` package's names: the verbs, the other names models write for them, and
a miss that lists the verbs."""

from __future__ import annotations

import pytest

from assistant import computer
from assistant.computer import verbs


def test_select_is_another_name_for_choose() -> None:
    assert computer.select is verbs.choose


def test_a_verb_that_does_not_exist_is_a_miss_that_lists_the_verbs() -> None:
    with pytest.raises(AttributeError) as caught:
        computer.find_text("Monday")  # type: ignore[attr-defined]
    assert str(caught.value) == (
        "computer has no 'find_text': its verbs are press, choose, tick, untick, type, fill, "
        "replace, save, save_as, close, focus, read, key, screen, click "
        "(computer.screen() shows what is on screen)")
    assert all(callable(getattr(computer, name)) for name in computer.OWN)
    assert not hasattr(computer, "find_text")
