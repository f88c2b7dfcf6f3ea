"""Assembling streamed tool-call deltas, and what a run's result looks like in history."""

from __future__ import annotations

import json

import pytest

from assistant.llm.reply import CodeCall, LLMError
from assistant.llm.results import fenced_message, is_results_message, tool_messages
from assistant.llm.tools import ToolCallAssembler


def delta(index: int | None, *, id: str = "", name: str = "", arguments: str = "") -> dict:
    return {
        "index": index,
        "id": id or None,
        "function": {"name": name or None, "arguments": arguments},
    }


def test_interleaved_deltas_are_joined_by_index() -> None:
    assembler = ToolCallAssembler()
    assembler.feed([delta(0, id="a", name="execute"), delta(1, id="b", name="execute")])
    assembler.feed([delta(0, arguments='{"language": "py'), delta(1, arguments='{"language": ')])
    assembler.feed([delta(1, arguments='"shell", "code": "ls"}')])
    assembler.feed([delta(0, arguments='thon", "code": "print(1)"}')])
    assert assembler.calls() == [CodeCall("a", "python", "print(1)"), CodeCall("b", "shell", "ls")]
    assert [c["function"]["name"] for c in assembler.message_calls()] == ["execute", "execute"]


def test_whole_calls_without_index_or_id_get_their_own_ids() -> None:
    assembler = ToolCallAssembler()
    args = json.dumps({"language": "bash", "code": "pwd"})
    assembler.feed([{"function": {"name": "execute", "arguments": args}}])
    [call] = assembler.calls()
    assert call.language == "shell" and call.code == "pwd" and call.id.startswith("call_")
    assert assembler.message_calls()[0]["id"] == call.id


def test_a_function_named_after_a_language_is_accepted() -> None:
    assembler = ToolCallAssembler()
    assembler.feed([delta(0, id="a", name="python", arguments='{"code": "1 + 1"}')])
    assert assembler.calls() == [CodeCall("a", "python", "1 + 1")]


def test_arguments_that_are_not_json_are_a_malformed_call() -> None:
    assembler = ToolCallAssembler()
    assembler.feed([delta(0, id="a", name="execute", arguments="print('hi')")])
    with pytest.raises(LLMError, match=r"malformed tool call.*not JSON: print"):
        assembler.calls()


def test_arguments_without_code_are_a_malformed_call() -> None:
    assembler = ToolCallAssembler()
    assembler.feed([delta(0, id="a", name="execute", arguments='{"language": "python"}')])
    with pytest.raises(LLMError, match="malformed tool call"):
        assembler.calls()


def test_an_unknown_tool_is_an_error() -> None:
    assembler = ToolCallAssembler()
    assembler.feed([delta(0, id="a", name="browse", arguments="{}")])
    with pytest.raises(LLMError, match="unknown tool 'browse'"):
        assembler.calls()


def test_tool_messages_answer_every_call() -> None:
    calls = [CodeCall("a", "python", "print(1)"), CodeCall("b", "shell", "ls")]
    messages = tool_messages([(calls[0], "1\n"), (calls[1], "")])
    assert messages == [
        {"role": "tool", "tool_call_id": "a", "content": "1\n"},
        {"role": "tool", "tool_call_id": "b", "content": "(no output)"},
    ]


def test_fenced_results_label_each_output_and_cannot_be_broken_out_of() -> None:
    calls = [CodeCall("a", "python", "x"), CodeCall("b", "shell", "y")]
    message = fenced_message([(calls[0], "has ``` inside"), (calls[1], "declined")])
    content = message["content"]
    assert message["role"] == "user" and is_results_message(message)
    assert "python block 1:\n````\nhas ``` inside\n````" in content
    assert "shell block 2:\n```\ndeclined\n```" in content
