"""Cuts within one reply: a fenced reply whose last blocks repeat the ones before them
is cut after its first round; with reply.one_block, any reply after its first block."""

from __future__ import annotations

from assistant.checks.repeats import looping, one_block


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


def test_a_reply_ends_where_its_first_runnable_block_closes() -> None:
    ls, mv = "```shell\nls\n```", "```shell\nmv a b\n```"
    assert one_block(f"Listing:\n{ls}\nThis shows 3 files.\n{mv}") == f"Listing:\n{ls}"
    assert one_block("Listing:\n```shell\nls\n``") is None  # its fence not closed yet
    assert one_block(f"```json\n{{\"a\": 1}}\n```\nthen\n{ls}\nmore") == \
        f"```json\n{{\"a\": 1}}\n```\nthen\n{ls}"  # data only shown is not a block to run
    assert one_block("No code here.") is None
