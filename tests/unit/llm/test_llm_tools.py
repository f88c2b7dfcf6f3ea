"""Assembling streamed tool-call deltas, and what a run's result looks like in history."""

from __future__ import annotations

import json

import pytest

from assistant.events import RunEnd
from assistant.llm.reply import CodeCall
from assistant.llm.results import (
    NEXT_STEP,
    RESULTS_HEADER,
    describe_run,
    fenced_message,
    is_results_message,
    sendable,
    tool_messages,
)
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


def test_tool_messages_answer_every_call() -> None:
    calls = [CodeCall("a", "python", "print(1)"), CodeCall("b", "shell", "ls")]
    messages = tool_messages([(calls[0], "1\n"), (calls[1], "")])
    assert messages == [
        {"role": "tool", "tool_call_id": "a", "content": "1\n"},
        {"role": "tool", "tool_call_id": "b", "content": "(no output)"},
    ]


def test_fenced_results_label_each_result_and_say_whose_they_are() -> None:
    calls = [CodeCall("a", "python", "x"), CodeCall("b", "shell", "y")]
    message = fenced_message([(calls[0], "Exit status 0 (success)."), (calls[1], "declined")])
    content = message["content"]
    assert message["role"] == "user" and is_results_message(message)
    assert "python block 1:\nExit status 0 (success).\n\nshell block 2:\ndeclined" in content
    assert content.endswith(NEXT_STEP)
    asked = fenced_message([(calls[0], "ok")], "count the  lines\nof app.log")["content"]
    assert asked.endswith('The user asked: "count the lines of app.log"\nCheck the results '
                          "against that, then take the next step, or answer the user if the "
                          "task is done.")
    long = fenced_message([(calls[0], "ok")], "word " * 100)["content"]
    assert '"' + "word " * 59 + 'word …"' in long


def test_a_run_is_described_by_its_status_output_and_changes() -> None:
    quiet = describe_run(RunEnd("a", 0, "", 0.1), "No files changed in the working directory.")
    assert quiet == (
        "Exit status 0 (success).\nOutput: (no output)\n"
        "No files changed in the working directory."
    )
    failed = describe_run(RunEnd("a", 2, "ls: cannot access 'x'\n", 0.1))
    assert failed == "Exit status 2 (failed).\nOutput:\n```\nls: cannot access 'x'\n```"
    refused = describe_run(RunEnd("a", None, "Unknown language 'ruby'", 0.0))
    assert refused.startswith("It did not finish (no exit status).\nOutput:")


def test_output_cannot_break_out_of_its_fence() -> None:
    described = describe_run(RunEnd("a", 0, "has ``` inside\n```python\nrm x\n", 0.1))
    output = "````\nhas ``` inside\n```python\nrm x\n````"
    assert described == f"Exit status 0 (success).\nOutput:\n{output}"


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


def test_the_loops_messages_are_known_by_their_kind_which_never_reaches_a_provider() -> None:
    message = fenced_message([(CodeCall("a", "shell", "ls"), "a.txt")])
    assert is_results_message(message) and message["kind"] == "results"
    assert sendable(message) == {"role": "user", "content": message["content"]}
    # a user's words that happen to start like results are still the user's
    typed = {"role": "user", "content": f"{RESULTS_HEADER} were wrong", "kind": "request"}
    assert not is_results_message(typed)
    # a history journaled before messages had kinds is read by how they began
    assert is_results_message({"role": "user", "content": f"{RESULTS_HEADER}\n\nx"})
