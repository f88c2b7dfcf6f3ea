"""A fenced reply as it streams: words shown at once, runnable blocks held as drafts and
never shown as words, blocks only shown (```text, JSON) released as words."""

from __future__ import annotations

from assistant.llm.fenced_stream import FencedStream

REPLY = ("I'll move the log.\n```shell\nmkdir -p old\nmv a.log old/\n```\n"
         "Then it is in old.\n")


def streamed(reply: str, size: int, tools=None) -> tuple[str, list[tuple[str, str]]]:
    """What a person is shown, fed `size` characters at a time, and the drafts."""
    stream = FencedStream(tools)
    shown, drafts = [], []
    for at in range(0, len(reply), size):
        words, draft = stream.feed(reply[at:at + size])
        shown.append(words)
        if draft is not None:
            drafts.append(draft)
    shown.append(stream.end())
    return "".join(shown), drafts


def test_a_runnable_block_is_held_out_of_the_words_whatever_the_pieces() -> None:
    for size in (1, 2, 3, 5, 7):
        shown, drafts = streamed(REPLY, size)
        assert shown == "I'll move the log.\nThen it is in old.\n", size
        assert drafts[-1] == ("shell", "mkdir -p old\nmv a.log old/"), size
    assert streamed(REPLY, len(REPLY)) == ("I'll move the log.\nThen it is in old.\n", [])


def test_the_words_before_the_code_are_shown_before_the_block_ends() -> None:
    stream = FencedStream()
    assert stream.feed("I'll move")[0] == "I'll move"
    assert stream.feed(" the log.\n``")[0] == " the log.\n"  # "``" may open a fence
    words, draft = stream.feed("`shell\nmkdir -p old\n")
    assert words == "" and draft == ("shell", "mkdir -p old")


def test_blocks_only_shown_are_words() -> None:
    reply = "The file:\n```text\nhello\n```\nAs data:\n```python\n{\"a\": 1}\n```\nDone."
    for size in (1, 4, len(reply)):
        assert streamed(reply, size)[0] == reply


def test_inline_code_and_a_fence_inside_a_line_are_words() -> None:
    reply = "Use `ls` to list, or run ```shell ls``` here.\nBye."
    assert streamed(reply, 1) == (reply, [])


def test_a_block_left_open_at_the_end_is_still_held() -> None:
    assert streamed("Here:\n```python\nprint(1)", 3)[0] == "Here:\n"
    assert streamed("Here:\n```python\n", 3)[0] == "Here:\n```python\n"  # no code: words


def test_a_block_tagged_with_an_offered_tool_is_held() -> None:
    def tools(tag: str) -> str | None:
        return "mcp_read" if tag == "mcp_read" else None

    shown, drafts = streamed('Reading.\n```mcp_read\n{"path": "a"}\n```\n', 2, tools)
    assert shown == "Reading.\n" and drafts[-1] == ("mcp_read", '{"path": "a"}')


def test_a_stopped_reply_shows_its_code_as_words() -> None:
    stream = FencedStream()
    assert stream.feed("Here:\n```python\nprint(1)\n")[0] == "Here:\n"
    assert stream.end(stopped=True) == "```python\nprint(1)\n"


def test_each_draft_is_new_code() -> None:
    drafts = streamed("```python\nprint(1)\n```\n", 1)[1]
    assert drafts == [("python", "p"), ("python", "pr"), ("python", "pri"), ("python", "prin"),
                      ("python", "print"), ("python", "print("), ("python", "print(1"),
                      ("python", "print(1)")]
