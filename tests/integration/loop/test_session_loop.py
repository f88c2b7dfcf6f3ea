"""The loop against a model that derails: repeats, mislabelled code, malformed calls, and
how results read. Through real litellm, real runtimes, in both proposal styles."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.events import Error, Notice, Proposal, TurnEnd
from assistant.journal import Journal
from assistant.llm import tools
from assistant.loop.prompt import BASE
from assistant.messages import next_step
from tests.support.llm_server import (
    LLMServer,
    Step,
    fenced,
    raw_tool_call,
    text,
    tool_call,
    tool_calls,
)
from tests.support.loop import STYLES, make, notices, propose, runs, told

# What follows a run that failed: such code, failing in its preview, would not run at all
# (tests/integration/loop/test_session_previews.py), so those checks are off here.
RUNS_FAIL = "preview"


@pytest.mark.parametrize("style", STYLES)
def test_code_proposed_again_after_it_succeeded_is_not_run_again(
    server: LLMServer, work: Path, style: str
) -> None:
    append = "echo line >> notes.txt; wc -l < notes.txt"
    server.add(propose(style, "shell", append), propose(style, "shell", append), text("Done."))
    with make(server, style) as a:
        events = list(a.turn("add a line to notes.txt"))
    assert len(runs(events)) == 1
    assert (work / "notes.txt").read_text() == "line\n"
    second_result = told(server, 2)
    assert "Not run again: this exact code just ran successfully" in second_result
    assert "Output:\n```\n1\n```" in second_result  # the earlier result, to use instead
    assert "same shell code" in notices(events)
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "answered" and end.text == "Done."


@pytest.mark.parametrize("style", STYLES)
def test_a_third_identical_proposal_after_success_ends_the_turn(
    server: LLMServer, work: Path, style: str
) -> None:
    server.add(*[propose(style, "python", "print('same')") for _ in range(3)],
               text("next turn"))
    with make(server, style) as a:
        events = list(a.turn("print it"))
        assert a.ask("and now?") == "next turn"
    assert len(runs(events)) == 1
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "repeated_success"
    # the stopped turn still ends in words, from its record: the model is not asked for them
    assert end.text == "The last run printed:\nsame"
    assert notices(events).count("proposed 3 times in a row after it had succeeded") == 1
    assert len(server.chat_requests) == 4  # three proposals, the next turn
    history = server.chat_requests[3].body["messages"]
    assert "Not run: the same code was proposed again right after it ran." in str(history)
    # the next turn reads the words the user was given
    assert history[-2:] == [{"role": "assistant", "content": end.text},
                            {"role": "user", "content": "and now?"}]


def test_the_same_check_after_other_code_ran_runs_again(server: LLMServer, work: Path) -> None:
    (work / "a.log").write_text("x")
    server.add(tool_call("shell", "ls"), tool_call("shell", "mkdir old && mv a.log old/"),
               tool_call("shell", "ls"), text("Moved."))
    with make(server, "tools") as a:
        events = list(a.turn("move the log into old"))
    outputs = [end.output.strip() for end in runs(events)]
    assert outputs == ["a.log", "", "old"]
    assert events[-1].reason == "answered"


@pytest.mark.parametrize("style", STYLES)
def test_code_that_just_failed_is_not_run_again_nor_kept_in_the_history(
    server: LLMServer, work: Path, style: str
) -> None:
    """A small model that reads its failed code twice writes it a third time."""
    server.add(*[propose(style, "python", "1/0") for _ in range(4)])
    with make(server, style, checks_off=RUNS_FAIL) as a:
        events = list(a.turn("divide"))
    assert len(runs(events)) == 1 and events[-1].reason == "repeated_failure"
    # the words come from the turn's record
    assert events[-1].text == ("1 run in this turn; the last failed (exit status 1): "
                               "ZeroDivisionError: division by zero")
    assert "same python code that had just failed" in notices(events)
    assert "Stopped: the same code failed 3 times in a row" in notices(events)
    temperatures = [r.body["temperature"] for r in server.chat_requests]
    assert temperatures == [0.0, 0.0, 0.7]  # after the repeat: warmer
    third = server.chat_requests[2].body["messages"]
    assert [m["role"] for m in third].count("assistant") == 1  # the repeat is left out
    assert told(server, 2).endswith(
        "Not run again: this exact code just failed, and nothing has run since, so it would "
        "fail the same way:\nZeroDivisionError: division by zero\nWrite different code that "
        "avoids this, or tell the user plainly what does not work.")


def test_the_same_failing_code_after_other_code_ran_runs_again(
    server: LLMServer, work: Path
) -> None:
    """Other code may have made it work (created the folder it wanted)."""
    server.add(fenced("shell", "ls out"), fenced("shell", "mkdir out"), fenced("shell", "ls out"),
               text("out is there, and empty."))
    with make(server, "fenced", checks_off=RUNS_FAIL) as a:
        events = list(a.turn("make the out folder"))
    assert [end.exit_status for end in runs(events)] == [2, 0, 0]
    assert events[-1].reason == "answered"


def test_the_reply_after_a_repeat_is_sampled_warmer_then_cooler_again(
    server: LLMServer, work: Path
) -> None:
    server.add(fenced("shell", "echo a"), fenced("shell", "echo a"), fenced("shell", "echo b"),
               text("Done."))
    with make(server, "fenced", temperature=0.2) as a:
        list(a.turn("print a then b"))
    temperatures = [r.body["temperature"] for r in server.chat_requests]
    assert temperatures == [0.2, 0.2, 0.7, 0.2]


@pytest.mark.parametrize("style", STYLES)
def test_shell_labelled_python_is_shown_rated_and_run_as_shell(
    server: LLMServer, work: Path, style: str
) -> None:
    (work / "a.log").write_text("x")
    code = "mkdir old && mv *.log old/"
    seen: list[Proposal] = []

    def approver(proposal: Proposal) -> bool:
        seen.append(proposal)
        return True

    server.add(propose(style, "python", code), text("Moved."))
    with make(server, style, approver=approver) as a:
        events = list(a.turn("move the logs into old"))
    assert [(p.language, p.code) for p in seen] == [("shell", code)]
    assert (work / "old" / "a.log").exists()
    assert runs(events)[0].exit_status == 0
    assert told(server, 1).count("Ran as shell: this code is shell, not python.") == 1
    assert "This code is shell, not python" in notices(events)


def test_a_relabelled_proposal_is_rated_as_what_runs(server: LLMServer, work: Path) -> None:
    """Denied as shell, the command stays denied under a python label."""
    server.add(tool_call("python", "mkdir old && touch old/x"), text("Could not."))
    with make(server, "tools", deny="command:mkdir") as a:
        events = list(a.turn("make a folder"))
    proposal = next(e for e in events if isinstance(e, Proposal))
    assert proposal.language == "shell" and proposal.risk == "blocked"
    assert not runs(events) and not (work / "old").exists()


@pytest.mark.parametrize("style", STYLES)
def test_python_labelled_shell_runs_as_python(server: LLMServer, work: Path, style: str) -> None:
    server.add(propose(style, "shell", "import os\nprint(sorted(os.listdir('.')))"), text("ok"))
    (work / "data.csv").write_text("a,b\n")
    with make(server, style) as a:
        events = list(a.turn("what is here"))
    assert runs(events)[0].output.strip() == "['data.csv']"
    assert "Ran as python: this code is python, not shell." in told(server, 1)


@pytest.mark.parametrize(
    ("step", "problem"),
    [
        (raw_tool_call("print('hi')"), "its arguments are not JSON: print('hi')"),
        (raw_tool_call('{"url": "x"}', name="browse"), "there is no tool 'browse'"),
        (raw_tool_call('{"language": "python"}'), "it has no 'code' text to run"),
    ],
)
def test_a_malformed_call_goes_back_to_the_model_once(
    server: LLMServer, work: Path, step: Step, problem: str
) -> None:
    server.add(step, tool_call("python", "print('hi')"), text("It printed hi."))
    with make(server, "tools") as a:
        events = list(a.turn("say hi"))
    assert [end.output.strip() for end in runs(events)] == ["hi"]
    assert events[-1].reason == "answered" and events[-1].text == "It printed hi."
    correction = told(server, 1)
    assert correction.startswith(f"Not run: this call is malformed: {problem}")
    assert '"language": "python", "shell" or "javascript", "code": "..."' in correction
    sent_call = server.chat_requests[1].body["messages"][-2]["tool_calls"][0]
    assert sent_call["function"]["arguments"].startswith("{")
    assert "asked to send it again" in notices(events)


def test_a_second_malformed_call_in_a_row_ends_the_turn(server: LLMServer, work: Path) -> None:
    server.add(raw_tool_call("ls -la"), raw_tool_call("ls -la"), text("fine"))
    with make(server, "tools") as a:
        events = list(a.turn("list"))
        assert a.ask("again") == "fine"
    [error] = [e for e in events if isinstance(e, Error)]
    assert error.text.startswith("The model sent a malformed tool call again")
    assert "code_style" in error.text and events[-1].reason == "error"
    history = server.chat_requests[2].body["messages"]
    calls = [c["id"] for m in history for c in m.get("tool_calls") or []]
    answered = [m["tool_call_id"] for m in history if m["role"] == "tool"]
    assert calls == answered and len(calls) == 2


@pytest.mark.parametrize("style", STYLES)
def test_results_say_status_output_and_what_changed_on_disk(
    server: LLMServer, work: Path, style: str
) -> None:
    (work / "old.txt").write_text("old")
    (work / "keep.txt").write_text("keep")
    server.add(
        propose(style, "shell", "touch new.txt; rm old.txt; echo more >> keep.txt"),
        propose(style, "shell", "echo missing >&2; (exit 3)"),
        text("Done."),
    )
    with make(server, style, checks_off=RUNS_FAIL) as a:
        list(a.turn("tidy up"))
    first, second = told(server, 1), told(server, 2)
    assert (
        "Exit status 0 (success).\nOutput: (no output)\nFiles in the working directory: "
        "created new.txt; removed old.txt; modified keep.txt."
    ) in first
    assert "Exit status 3 (failed).\nOutput:\n```\nmissing\n```\n" in second
    assert "No files changed in the working directory." in second
    if style == "fenced":
        assert first.startswith("Results of the code you proposed:\n\nshell block:\nExit status")
        assert first.endswith(next_step("tidy up"))
        assert 'The user asked: "tidy up"\nCheck the results against that' in first


def test_the_system_message_asks_for_checked_work_and_stays_short(
    server: LLMServer, work: Path
) -> None:
    server.add(text("hi"))
    with make(server, "tools") as a:
        list(a.turn("hi"))
    system = server.chat_requests[0].body["messages"][0]["content"]
    for rule in ("run code to find out", "relative paths", "sudo", "check the result",
                 "add no filter"):
        assert rule in system, rule
    assert tools.INSTRUCTIONS in system
    # every token is prefill time on a small CPU: the fixed text stays under ~250 tokens
    assert len(BASE) + len(tools.INSTRUCTIONS) < 1100


def test_desktop_code_may_repeat_right_away(server: LLMServer, work: Path) -> None:
    """The screen changes without any code, and a key pressed twice is two steps."""
    step = "print(computer.__name__)"
    server.add(tool_call("python", step), tool_call("python", step), text("Pressed twice."))
    with make(server, "tools") as a:
        events = list(a.turn("press tab twice"))
    assert [end.output.strip() for end in runs(events)] == ["assistant.computer"] * 2


@pytest.mark.parametrize("style", STYLES)
def test_an_answer_right_after_a_failed_run_is_sent_back_once(
    server: LLMServer, work: Path, style: str
) -> None:
    server.add(propose(style, "shell", "mv *.jpeg photos/"), text("The task is done."),
               propose(style, "shell", "for f in *.jpeg; do mv \"$f\" \"${f%.jpeg}.jpg\"; done"),
               text("Renamed."), propose(style, "shell", "false"), text("Done."),
               text("It did not work."))
    (work / "a.jpeg").write_text("x")
    with make(server, style, checks_off=RUNS_FAIL) as a:
        events = list(a.turn("rename the jpeg files to jpg"))
        assert "answered right after a failed run" in notices(events)
        assert "Your last run failed (exit status 1)" in told(server, 2)
        # the answer sent back came at the usual temperature: the next is sampled warmer
        temperatures = [r.body["temperature"] for r in server.chat_requests]
        assert temperatures == [0.0, 0.0, 0.7, 0.0]
        assert not (work / "photos").exists()
        assert isinstance(events[-1], TurnEnd) and events[-1].text == "Renamed."
        assert (work / "a.jpg").exists()
        again = list(a.turn("now fail"))
    reminders = [e for e in again if isinstance(e, Notice) and "failed run" in e.text]
    assert len(reminders) == 1  # once a turn: the model may then say it did not work
    assert isinstance(again[-1], TurnEnd) and again[-1].text == "It did not work."
    assert len(server.chat_requests) == 7


@pytest.mark.parametrize("style", STYLES)
def test_a_figure_the_output_does_not_show_is_sent_back_once(
    server: LLMServer, work: Path, style: str
) -> None:
    (work / "config.json").write_text('{"database": {"port": 6432}}')
    read = "import json\nprint(json.load(open('config.json'))['database']['port'])"
    server.add(propose(style, "python", read), text("The database uses port 5432."),
               text("The database uses port 6432."))
    with make(server, style) as a:
        events = list(a.turn("which port does the database use in config.json?"))
    assert "checked against what ran" in notices(events)
    assert "Your answer gives 5432, which appears in no output" in told(server, 2)
    assert isinstance(events[-1], TurnEnd) and events[-1].text == "The database uses port 6432."
    said = [m.get("content") for m in server.chat_requests[2].body["messages"]
            if m["role"] == "assistant"]
    if style == "fenced":  # the answer sent back is not there to be said again word for word
        assert "The database uses port 5432." not in said
        assert told(server, 2).startswith("Results of the code you proposed:\n\npython block")
        assert "Check the results against that, then take the next step" in told(server, 2)
    else:  # after a tool result, the answer and the nudge go in, in turn
        assert said[-1] == "The database uses port 5432."


def test_a_question_about_this_machine_gets_code_not_a_guess(server: LLMServer,
                                                              work: Path) -> None:
    for name in ("a.txt", "b.txt", "c.txt"):
        (work / name).write_text(name)
    server.add(text("There are 12 files."), tool_call("shell", "ls | wc -l"),
               text("There are 3 files."))
    with make(server, "tools") as a:
        events = list(a.turn("how many files are in this folder?"))
    assert "You answered without running any code" in told(server, 1)
    assert [end.output.strip() for end in runs(events)] == ["3"]
    assert isinstance(events[-1], TurnEnd) and events[-1].text == "There are 3 files."


def test_a_change_that_changed_nothing_is_sent_back(server: LLMServer, work: Path) -> None:
    config = work / "config.ini"
    config.write_text("[server]\nport = 8080\n")
    server.add(tool_call("shell", "grep port config.ini"), text("The port is now 9090."),
               tool_call("shell", "sed -i 's/8080/9090/' config.ini"), text("Changed to 9090."))
    with make(server, "tools") as a:
        events = list(a.turn("change the server port in config.ini to 9090"))
    assert "config.ini is as it was" in told(server, 2)
    assert config.read_text() == "[server]\nport = 9090\n"
    assert isinstance(events[-1], TurnEnd) and events[-1].text == "Changed to 9090."


def test_a_file_only_shown_in_a_block_that_never_runs_is_sent_back_and_then_written(
        server: LLMServer, work: Path) -> None:
    shown = '```javascript\n{"port": 8080, "debug": true}\n```'
    server.add(text(shown), fenced("shell", "printf '{\"port\": 8080}' > config.json"),
               text("config.json is written."))
    with make(server, "fenced") as a:
        events = list(a.turn("use node to write a config.json with port 8080"))
    assert "blocks with that tag never run" in told(server, 1)
    assert "code that writes it to config.json" in told(server, 1)
    assert (work / "config.json").read_text() == '{"port": 8080}'
    assert isinstance(events[-1], TurnEnd) and events[-1].text == "config.json is written."


def test_an_answer_that_stays_unsupported_is_shown_with_a_notice(server: LLMServer,
                                                                  work: Path) -> None:
    server.add(tool_call("shell", "echo box-7"), text("The hostname is `localhost`."),
               text("The hostname is `localhost`."))
    with make(server, "tools") as a:
        events = list(a.turn("what is the hostname of this computer?"))
    assert isinstance(events[-1], TurnEnd) and events[-1].text == "The hostname is `localhost`."
    assert "Not confirmed by what ran: localhost appears in no output." in notices(events)
    assert len(server.chat_requests) == 3


def test_a_local_model_reads_the_first_lines_of_the_files_a_request_names(
    server: LLMServer, work: Path
) -> None:
    (work / "stock.json").write_text('{"items": [{"name": "stapler", "qty": 2}]}\n')
    server.add(text("The stapler."))
    with make(server, "fenced") as a:
        list(a.turn("which item in stock.json is lowest?"))
        records = Journal.in_dir(a.settings.data_path).conversation(a.conversation_id)["records"]
    assert told(server, 0) == (
        'which item in stock.json is lowest?\n\n<files untrusted="true">\nstock.json (1 line), '
        'compactly:\n{"items": [{"name": "stapler", "qty": 2}]}\n</files>')
    said = [r["text"] for r in records if r["kind"] == "user"]
    assert said == ["which item in stock.json is lowest?"]  # the user's words, not the file


@pytest.mark.parametrize("style", STYLES)
def test_blocks_after_a_failed_one_in_the_same_reply_are_not_run(
    server: LLMServer, work: Path, style: str
) -> None:
    """What follows a failed block was written for its success: `cd build` failed, then
    `rm -rf *` would run in the wrong folder."""
    (work / "keep.txt").write_text("k")
    calls = [("shell", "cd build"), ("shell", "rm -f *.txt"), ("shell", "echo done")]
    if style == "tools":
        step = tool_calls(*calls)
    else:
        step = text("".join(f"```{language}\n{code}\n```\n" for language, code in calls))
    server.add(step, text("There is no build folder, so nothing was removed."))
    with make(server, style, checks_off=RUNS_FAIL) as a:
        events = list(a.turn("clean the build folder"))
    assert [end.exit_status for end in runs(events)] == [1]
    assert (work / "keep.txt").exists()
    assert "2 more block(s) of this reply not run: the code before them failed." in notices(events)
    history = str(server.chat_requests[1].body["messages"])
    assert history.count("Not run: code before it in this reply failed; fix that first.") == 2
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "answered"


def test_an_answer_from_a_successful_run_stands_after_a_later_step_failed(
    server: LLMServer, work: Path
) -> None:
    """The figure was printed; a script never written, run after it, failed."""
    server.add(tool_calls(("shell", "echo 'active users: 4'"), ("shell", "node count.js")),
               text("There are 4 active users."))
    with make(server, "tools", checks_off=RUNS_FAIL) as a:
        events = list(a.turn("count the active users"))
    assert [end.exit_status for end in runs(events)] == [0, 1]
    assert "failed run" not in notices(events)
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.text == "There are 4 active users."
    assert len(server.chat_requests) == 2


@pytest.mark.parametrize("style", STYLES)
def test_a_stopped_turn_ends_with_what_last_ran_printed_without_asking_the_model_again(
    server: LLMServer, work: Path, style: str
) -> None:
    server.add(*[propose(style, "python", "print(2 + 2)") for _ in range(4)])
    with make(server, style) as a:
        events = list(a.turn("what is 2 + 2?"))
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "repeated_success"
    assert len(runs(events)) == 1 and len(server.chat_requests) == 3
    assert end.text == "The last run printed:\n4"


def test_a_stopped_turn_whose_runs_printed_nothing_ends_naming_the_files_written(
    server: LLMServer, work: Path
) -> None:
    (work / "a.md").write_text("colour\n")
    code = "for f in *.md; do sed -i 's/colour/color/g' \"$f\"; done"
    server.add(*[fenced("shell", code) for _ in range(4)])
    with make(server, "fenced") as a:
        events = list(a.turn("replace colour with color in the .md files here"))
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "repeated_success"
    assert (work / "a.md").read_text() == "color\n" and len(runs(events)) == 1
    assert end.text == "Files written in this turn: a.md."


def test_the_same_reply_of_several_checks_again_is_not_run_again(
    server: LLMServer, work: Path
) -> None:
    """Each call follows another, so no single call is a repeat; the reply is."""
    checks = text("```shell\nls\n```\n```shell\necho checked\n```\n")
    server.add(checks, checks, checks)
    with make(server, "fenced") as a:
        events = list(a.turn("check the folder"))
    assert len(runs(events)) == 2 and len(server.chat_requests) == 3
    assert "same code as in its last reply" in notices(events)
    assert "Not run again: your last reply was this same code" in told(server, 2)
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "repeated_success"
    assert end.text == "The last run printed:\nchecked"
