"""Repeats within one reply: a fenced reply whose last blocks repeat the ones before them
is cut after its first round."""

from __future__ import annotations

from assistant.checks.repeats import GUESS_CHARS, guessing, looping


def test_a_reply_whose_last_blocks_repeat_the_ones_before_is_cut_after_the_first_round() -> None:
    ls, mv = "```shell\nls\n```", "```shell\nmv a b\n```"
    assert looping(f"Hi\n{ls}\nagain\n{ls}\nmore") == f"Hi\n{ls}"
    assert looping(f"{ls}\n{mv}\n{ls}\n{mv}") == f"{ls}\n{mv}"
    assert looping(f"{ls}\n{mv}\n{ls}") is None  # a check after a change
    assert looping(f"{ls}\n```shell\nls\n") is None  # not closed yet
    assert looping(f"```python\nprint(1)\n```\n{ls}") is None


def test_a_tool_named_block_repeated_is_a_loop_too() -> None:
    call = "```notes_search\n{\"q\": \"x\"}\n```"
    assert looping(f"{call}\n{call}", tools=lambda name: name if name == "notes_search"
                   else None) == call
    assert looping(f"{call}\n{call}") is None  # no such tool: blocks that only show


def test_words_long_after_the_code_end_the_reply_at_the_code() -> None:
    code = "Pressing it.\n```python\ncomputer.press('Yes')\n```"
    assert guessing(f"{code}\nDone.") is None  # a short word after the code stays
    assert guessing(f"{code}\n" + "x" * (GUESS_CHARS + 1)) == code
    assert guessing("no code, " + "x" * (GUESS_CHARS + 1)) is None
    second = f"{code}\n{'Then: ' * 60}\n```python\ncomputer.press('OK')"
    assert guessing(second) is None  # another block begun: a plan of two steps
