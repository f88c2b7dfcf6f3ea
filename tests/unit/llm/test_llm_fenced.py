"""Which fenced blocks in a reply are code proposals."""

from __future__ import annotations

import pytest

from assistant.llm.fenced import blocks, find_blocks, shown_tags


def test_tagged_blocks_are_found_in_order() -> None:
    text = "First:\n```python\nprint(1)\n```\nThen:\n```shell\nls -l\n```\nDone."
    assert find_blocks(text) == [("python", "print(1)"), ("shell", "ls -l")]


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        ("py", "python"),
        ("python3", "python"),
        ("Python", "python"),
        ("bash", "shell"),
        ("sh", "shell"),
        ("zsh", "shell"),
        ("console", "shell"),
        ("js", "javascript"),
        ("node", "javascript"),
        ("javascript", "javascript"),
    ],
)
def test_language_aliases(tag: str, language: str) -> None:
    assert find_blocks(f"```{tag}\ncode here\n```") == [(language, "code here")]


@pytest.mark.parametrize("tag", ["", "json", "text", "yaml", "diff"])
def test_untagged_and_unrunnable_blocks_are_only_text(tag: str) -> None:
    assert find_blocks(f"Example:\n```{tag}\nrm -rf /tmp/x\n```\n") == []


def test_tilde_fences() -> None:
    assert find_blocks("~~~bash\necho hi\n~~~") == [("shell", "echo hi")]


def test_a_block_inside_a_longer_fence_is_not_a_proposal() -> None:
    text = "````markdown\nExample:\n```python\nprint('no')\n```\n````\n```python\nprint('yes')\n```"
    assert find_blocks(text) == [("python", "print('yes')")]


def test_unterminated_block_with_content_counts() -> None:
    assert find_blocks("Running:\n```python\nimport os\nprint(os.getcwd())") == [
        ("python", "import os\nprint(os.getcwd())")
    ]


def test_unterminated_empty_block_does_not_count() -> None:
    assert find_blocks("Running:\n```python\n") == []
    assert find_blocks("Running:\n```python") == []


def test_empty_block_does_not_count() -> None:
    assert find_blocks("```python\n\n```") == []


def test_indented_fence_in_a_list_is_dedented() -> None:
    text = "1. Run this:\n   ```python\n   for i in range(2):\n       print(i)\n   ```\n"
    assert find_blocks(text) == [("python", "for i in range(2):\n    print(i)")]


def test_info_string_after_the_tag_is_ignored() -> None:
    assert find_blocks('```python title="demo.py"\nx = 1\n```') == [("python", "x = 1")]


def test_console_transcript_keeps_only_the_commands() -> None:
    text = "```console\n$ ls\nfile.txt\n$ pwd\n/home/me\n```"
    assert find_blocks(text) == [("shell", "ls\npwd")]


def test_fence_mentioned_inside_a_sentence_is_not_a_block() -> None:
    assert find_blocks("Write ```python blocks to run code.") == []


def test_code_keeps_inner_blank_lines_and_indentation() -> None:
    code = "def f():\n    return 1\n\n\nprint(f())"
    assert find_blocks(f"```python\n{code}\n```") == [("python", code)]


def test_blocks_that_only_show_are_named_by_tag() -> None:
    text = "```json\n{}\n```\n```\nplain\n```\n```python\nprint(1)\n```"
    assert shown_tags(text) == ["json", "untagged"]
    assert shown_tags("```python\nprint(1)\n```") == []


def test_a_json_object_or_list_is_shown_whatever_its_tag() -> None:
    text = ('Done:\n```python\n{"debug": false, "paths": ["a"]}\n```\n'
            "```javascript\n[1, 2]\n```\n```python\nprint([1, 2])\n```")
    assert find_blocks(text) == [("python", "print([1, 2])")]
    assert shown_tags(text) == ["json", "json"]
    assert find_blocks("```python\n{'debug': False}\n```") == [("python", "{'debug': False}")]


def test_blocks_say_where_each_ends_and_closed_ones_leave_out_the_one_being_written() -> None:
    text = "Hi\n```shell\nls\n```\nthen\n~~~python\nprint(1)\n~~~\n```shell\nmv a b\n"
    assert blocks(text, closed=True) == [("shell", "ls", 4), ("python", "print(1)", 8)]
    assert blocks(text)[-1] == ("shell", "mv a b", 11)  # open to the end
