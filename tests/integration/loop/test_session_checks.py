"""The loop holds a run's files and the final answer to the request: an empty file, a file
written in the wrong folder, the user's column names, a refusal. Through real litellm and
real runtimes."""

from __future__ import annotations

from pathlib import Path

from assistant.checks.answers import NEVER_RAN, REFUSED
from assistant.events import TurnEnd
from assistant.loop.turn import FRAMED
from tests.support.llm_server import LLMServer, fenced, text
from tests.support.loop import make, notices, runs, told


def test_an_empty_requested_file_is_said_after_the_run_and_at_the_answer(
    server: LLMServer, work: Path
) -> None:
    (work / "a.py").write_text("x = 1  # TODO: retry\n")
    strict = ("with open('todo.txt', 'w') as out:\n    for line in open('a.py'):\n"
              "        if line.startswith('TODO'):\n            out.write(line)")
    loose = strict.replace("line.startswith('TODO')", "'TODO' in line")
    server.add(fenced("python", strict), text("todo.txt holds every TODO."),
               fenced("python", loose), text("todo.txt holds the TODO line."))
    with make(server, "fenced") as a:
        events = list(a.turn("collect every line containing TODO from a.py into todo.txt"))
    assert "todo.txt is empty: nothing was written into it." in told(server, 1)
    assert told(server, 2).endswith(
        'todo.txt is empty: nothing was written into it. Yet TODO is in a.py, line 1: <line '
        'untrusted="true">\nx = 1  # TODO: retry\n</line>. Check what your code matched or '
        "selected against the files it read. Fix it and check it, then answer.")
    assert (work / "todo.txt").read_text() == "x = 1  # TODO: retry\n"
    assert "empty" not in told(server, 3)
    assert isinstance(events[-1], TurnEnd) and events[-1].text == "todo.txt holds the TODO line."


def test_a_requested_file_written_in_another_folder_is_said(server: LLMServer,
                                                            work: Path) -> None:
    nested = "mkdir -p tiny-tool && echo '{\"name\": \"tiny-tool\"}' > tiny-tool/package.json"
    server.add(fenced("shell", nested), fenced("shell", "mv tiny-tool/package.json ."),
               text("package.json is made."))
    with make(server, "fenced") as a:
        list(a.turn("create a package.json for a Node.js project named tiny-tool"))
    assert ("The request asks for package.json in the working folder, but the run wrote "
            "tiny-tool/package.json: write package.json itself.") in told(server, 1)
    assert (work / "package.json").is_file()


def test_the_users_column_names_are_held_against_the_written_table(server: LLMServer,
                                                                   work: Path) -> None:
    (work / "scores.csv").write_text("team,score\nred,10\nred,20\nblue,9\n")
    averages = ("import csv\nrows = list(csv.DictReader(open('scores.csv')))\n"
                "teams = {}\nfor r in rows:\n    teams.setdefault(r['team'], []).append("
                "float(r['score']))\nwith open('averages.csv', 'w') as f:\n"
                "    f.write('team,NAME\\n')\n    for t, s in sorted(teams.items()):\n"
                "        f.write(f'{t},{sum(s) / len(s)}\\n')")
    server.add(fenced("python", averages.replace("NAME", "score")),
               fenced("python", averages.replace("NAME", "average")),
               text("averages.csv is written."))
    with make(server, "fenced") as a:
        list(a.turn("compute the average score per team in scores.csv and write it to "
                    "averages.csv with the columns team,average"))
    assert ("averages.csv has no column average: the request asks for the columns team, "
            "average, by those names.") in told(server, 1)
    assert (work / "averages.csv").read_text() == "team,average\nblue,9.0\nred,15.0\n"


def test_a_refusal_is_answered_that_the_code_runs_here(server: LLMServer, work: Path) -> None:
    (work / "a.md").write_text("colour\n")
    server.add(text("I cannot access or modify files on your computer."),
               fenced("shell", "sed -i 's/colour/color/g' *.md"), text("Replaced."))
    with make(server, "fenced") as a:
        events = list(a.turn("replace every 'colour' with 'color' in the .md files here"))
    assert told(server, 1) == f"Results of the code you proposed:\n\n{REFUSED}"
    assert "checked against what ran" in notices(events)
    assert (work / "a.md").read_text() == "color\n"


def test_code_that_copies_the_results_is_not_run_and_the_model_is_told_why(
    server: LLMServer, work: Path
) -> None:
    server.add(fenced("python", "print(6 * 7)"),
               fenced("python", "python block:\nExit status 0 (success).\nOutput:\n42"),
               text("It is 42."))
    with make(server, "fenced") as a:
        events = list(a.turn("what is 6 times 7? use python"))
    assert [end.output for end in runs(events)] == ["42\n"]
    assert FRAMED in told(server, 2)
    assert "copies the results the model was given: not run" in notices(events)
    assert isinstance(events[-1], TurnEnd) and events[-1].text == "It is 42."


def test_code_repeated_after_success_is_told_the_step_still_missing(server: LLMServer,
                                                                    work: Path) -> None:
    (work / "numbers.txt").write_text("2\n3\n")
    write = "echo \"console.log(5)\" > sum.js"
    server.add(fenced("shell", write), fenced("shell", "ls"), fenced("shell", "ls"),
               fenced("shell", "node sum.js"), text("The sum is 5."))
    with make(server, "fenced") as a:
        events = list(a.turn("write a Node.js script sum.js that prints the sum of the numbers "
                             "in numbers.txt, run it, and tell me the sum"))
    assert NEVER_RAN.format("node sum.js", "sum.js") in told(server, 3)
    assert [end.output for end in runs(events)][-1] == "5\n"
    assert isinstance(events[-1], TurnEnd) and events[-1].text == "The sum is 5."


def test_a_block_copying_the_results_beside_real_code_is_not_run(server: LLMServer,
                                                                 work: Path) -> None:
    copy = "python block:\nExit status 0 (success).\nOutput: (no output)"
    server.add(text("```python\nprint(6 * 7)\n```\n```python\n" + copy + "\n```\n"),
               text("It is 42."))
    with make(server, "fenced") as a:
        events = list(a.turn("what is 6 times 7? use python"))
    assert [end.output for end in runs(events)] == ["42\n"]
    assert FRAMED in told(server, 1)
    assert "copies the results the model was given: not run" in notices(events)
