"""Assembling streamed tool-call deltas."""

from __future__ import annotations

import json

import pytest

from assistant.llm.reply import CodeCall
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
    [call] = assembler.calls()
    assert call.problem == "its arguments are not JSON: print('hi')" and not call.code
    # the history holds valid JSON: chat templates and providers parse it
    assert assembler.message_calls()[0]["function"]["arguments"] == "{}"


@pytest.mark.parametrize("arguments", ['{"language": "python"}', '{"code": "  "}', "", "[1]"])
def test_arguments_without_code_are_a_malformed_call(arguments: str) -> None:
    assembler = ToolCallAssembler()
    assembler.feed([delta(0, id="a", name="execute", arguments=arguments)])
    [call] = assembler.calls()
    assert call.problem
    assert json.loads(assembler.message_calls()[0]["function"]["arguments"]) is not None


def test_an_unknown_tool_is_a_malformed_call() -> None:
    assembler = ToolCallAssembler()
    assembler.feed([delta(0, id="a", name="browse", arguments='{"url": "x"}')])
    [call] = assembler.calls()
    assert call.problem == "there is no tool 'browse': the only one is 'execute'"
    assert assembler.message_calls()[0]["function"]["name"] == "browse"






def test_the_code_of_a_call_being_written_is_read_from_unfinished_json() -> None:
    calls = ToolCallAssembler()
    assert calls.draft() is None
    calls.feed([{"index": 0, "id": "c1", "function": {"name": "execute", "arguments": ""}}])
    calls.feed([{"index": 0, "function": {"arguments": '{"language": "shell", "code": "ls'}}])
    assert calls.draft() == ("shell", "ls")
    calls.feed([{"index": 0, "function": {"arguments": ' -l\\n\\u00e9cho \\"a'}}])
    assert calls.draft() == ("shell", 'ls -l\n\u00e9cho "a')
    calls.feed([{"index": 0, "function": {"arguments": '\\"", "x": 1}'}}])
    assert calls.draft() == ("shell", 'ls -l\n\u00e9cho "a"')
    other = ToolCallAssembler()
    other.feed([{"index": 0, "function": {"name": "notes", "arguments": '{"code": "x"'}}])
    assert other.draft() is None  # another tool's arguments are no code
