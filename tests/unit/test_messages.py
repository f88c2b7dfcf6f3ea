"""What a run's result looks like in the history, and the loop's own messages known by their
kind (assistant/messages.py)."""

from __future__ import annotations

from assistant.events import RunEnd
from assistant.llm.reply import CodeCall
from assistant.messages import (
    NEXT_STEP,
    RESULTS_HEADER,
    describe_run,
    fenced_message,
    is_results_message,
    sendable,
    tool_messages,
)


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


def test_the_loops_messages_are_known_by_their_kind_which_never_reaches_a_provider() -> None:
    message = fenced_message([(CodeCall("a", "shell", "ls"), "a.txt")])
    assert is_results_message(message) and message["kind"] == "results"
    assert sendable(message) == {"role": "user", "content": message["content"]}
    # a user's words that happen to start like results are still the user's
    typed = {"role": "user", "content": f"{RESULTS_HEADER} were wrong", "kind": "request"}
    assert not is_results_message(typed)
    # a history journaled before messages had kinds is read by how they began
    assert is_results_message({"role": "user", "content": f"{RESULTS_HEADER}\n\nx"})
