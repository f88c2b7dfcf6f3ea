"""Assembling streamed tool-call deltas, and what a run's result looks like in history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.events import RunEnd
from assistant.llm.reply import CodeCall
from assistant.llm.results import (
    NEXT_STEP,
    describe_run,
    fenced_message,
    is_results_message,
    tool_messages,
)
from assistant.llm.tools import ToolCallAssembler
from assistant.prompt import python_packages


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


def test_a_missing_package_is_explained_where_pip_would_not_help() -> None:
    output = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'pandas'\n"
    described = describe_run(RunEnd("a", 1, output, 0.1))
    assert described.endswith(f"pandas is not installed for the Python that runs your code, "
                              f"and pip would install it elsewhere: do it another way. "
                              f"{python_packages()}.")
    assert "pip" not in describe_run(RunEnd("a", 0, "ModuleNotFoundError: No module named "
                                                    "'x' is what we print\n", 0.1))


def test_writing_into_a_folder_not_there_is_explained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    python = "FileNotFoundError: [Errno 2] No such file or directory: 'notes/todo.txt'\n"
    (tmp_path / "elsewhere" / "notes").mkdir(parents=True)
    assert "folder" not in describe_run(RunEnd("a", 1, python, 0.1), "",
                                        str(tmp_path / "elsewhere"))
    assert describe_run(RunEnd("a", 1, python, 0.1)).endswith(
        "The folder notes does not exist (to write there, create it first: "
        "os.makedirs('notes', exist_ok=True), or mkdir -p notes).")
    shell = "bash: line 3: out/a.txt: No such file or directory\n"
    assert "mkdir -p out" in describe_run(RunEnd("a", 1, shell, 0.1))
    (tmp_path / "notes").mkdir()
    assert "folder" not in describe_run(RunEnd("a", 1, python, 0.1))
    plain = "FileNotFoundError: [Errno 2] No such file or directory: 'todo.txt'\n"
    assert "folder" not in describe_run(RunEnd("a", 1, plain, 0.1))
    pandas = ('    raise OSError(rf"Cannot save file into a non-existent directory: '
              "'{parent}'\")\nOSError: Cannot save file into a non-existent directory: "
              "'by_region'\n")
    assert "mkdir -p by_region" in describe_run(RunEnd("a", 1, pandas, 0.1))


def test_a_guessed_key_and_a_many_to_one_rename_are_explained() -> None:
    key = "Traceback (most recent call last):\n  ...\nKeyError: 'quantity'\n"
    assert describe_run(RunEnd("a", 1, key, 0.1)).endswith(
        "The data has no key 'quantity': print one record (or its keys, or the columns) "
        "first to see what it holds, then use those names.")
    moved = "mv: target '*.jpg': No such file or directory\n"
    assert 'for f in *.old; do mv -- "$f" "${f%.old}.new"; done' in describe_run(
        RunEnd("a", 1, moved, 0.1))
    assert "loop" not in describe_run(RunEnd("a", 0, moved, 0.1))


def test_block_python_squeezed_into_python_c_is_explained() -> None:
    squeezed = ('  File "<string>", line 1\n    import os; for f in x: print(f)\n'
                "               ^^^\nSyntaxError: invalid syntax\n")
    assert "(language python) instead" in describe_run(RunEnd("a", 1, squeezed, 0.1))
    script = '  File "/tmp/a.py", line 1\n    for\nSyntaxError: invalid syntax\n'
    assert "language python" not in describe_run(RunEnd("a", 1, script, 0.1))


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
