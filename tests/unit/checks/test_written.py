"""Screen calls written as words are read as code; prose naming a verb is not."""

from __future__ import annotations

import pytest

from assistant.checks.written import written_calls


@pytest.mark.parametrize(("words", "code"), [
    ('Use `computer.mouse.click(id=10)` to click the OK button.', "computer.mouse.click(id=10)"),
    ('1. computer.choose("Dark")\n2. computer.press("OK")\nDone.',
     'computer.choose("Dark")\ncomputer.press("OK")'),
    ('```\ncomputer.press("Yes")\n```', 'computer.press("Yes")'),
    ('```text\ncomputer.type("Ana", into="Name:")\n```', 'computer.type("Ana", into="Name:")'),
    ('- `computer.tick("Photos")`\n- `computer.tick("Photos")`', 'computer.tick("Photos")'),
    ('> computer.key("ctrl+s");', 'computer.key("ctrl+s")'),
])
def test_calls_written_as_words_are_read_in_order_once_each(words: str, code: str) -> None:
    assert written_calls(words) == code


@pytest.mark.parametrize("words", [
    "I will call computer.press to do it.",
    "Click the Yes button.",
    '`os.remove("a.txt")`',
    'computer.press("Yes"',  # does not parse
    "`computer.screen`",  # not a call
    'computer = 1; computer.press("Yes")',
])
def test_prose_and_other_code_are_not_read_as_screen_calls(words: str) -> None:
    assert written_calls(words) == ""
