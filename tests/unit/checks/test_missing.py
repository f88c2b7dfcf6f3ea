"""A failure on a path that is not there is told what is: the same name in the working
folder, or what the folder it was looked for in holds; never the names of a folder
elsewhere, and never to a model whose provider is off this machine."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.actions.apply import applies
from assistant.checks.missing import hint, missing, noted
from assistant.events import RunEnd
from assistant.loop.reported import hint as noted_hint
from tests.support.turns import turn


@pytest.fixture
def work(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    (folder / "notes").mkdir(parents=True)
    (folder / "expenses.csv").write_text("category,amount\n")
    (folder / "notes" / "monday.md").write_text("m")
    (folder / ".hidden").write_text("h")
    return folder


@pytest.mark.parametrize(("output", "path"), [
    ("FileNotFoundError: [Errno 2] No such file or directory: 'transactions.csv'",
     "transactions.csv"),
    ("python3: can't open file '/w/find_todos.py': [Errno 2] No such file or directory",
     "/w/find_todos.py"),
    ("Error: ENOENT: no such file or directory, open 'contacts.json'", "contacts.json"),
    ("chmod: cannot access 'find_todos.py': No such file or directory", "find_todos.py"),
    ("mv: cannot stat 'a.txt': No such file or directory", "a.txt"),
    ("cat: notes.txt: No such file or directory", "notes.txt"),
    ("bash: line 1: cd: build: No such file or directory", "build"),
    ("Error: Cannot find module '/w/run.js'", "/w/run.js"),
    ("FileNotFoundError: [Errno 2] No such file or directory: 'a.txt' -> 'old/a.txt'", "a.txt"),
])
def test_the_missing_path_is_read_as_each_runtime_prints_it(output: str, path: str) -> None:
    assert missing(f"Traceback (most recent call last):\n{output}\n") == path


def test_other_failures_name_no_missing_path() -> None:
    assert missing("KeyError: 'phone'\n") is None
    assert missing("PermissionError: [Errno 13] Permission denied: 'a.txt'\n") is None


def test_a_guessed_name_is_answered_with_what_the_working_folder_holds(work: Path) -> None:
    said = hint("FileNotFoundError: [Errno 2] No such file or directory: "
                "'transactions.csv'\n", str(work))
    assert said == ("transactions.csv is not there. The working directory holds: "
                    "expenses.csv, notes/.")


def test_a_home_path_for_a_folder_that_is_here_is_told_its_relative_name(
        work: Path) -> None:
    said = hint("FileNotFoundError: [Errno 2] No such file or directory: "
                "'/nowhere/home/notes'\n", str(work))
    assert said == ("/nowhere/home/notes is not there, but notes is in the working "
                    "directory: name it by that relative path.")


def test_a_missing_file_in_a_named_folder_is_answered_with_that_folders_names(
        work: Path) -> None:
    said = hint("cat: notes/tuesday.md: No such file or directory\n", str(work))
    assert said == "notes/tuesday.md is not there. The folder notes holds: monday.md."


def test_a_script_run_that_no_code_wrote_is_told_that_blocks_are_not_saved(
        work: Path) -> None:
    said = hint(f"python3: can't open file '{work}/find_todos.py': [Errno 2] No such "
                "file or directory\n", str(work))
    assert said.startswith(f"{work}/find_todos.py is not there. The working directory")
    assert "never saved as a file" in said and "to have find_todos.py, write it" in said
    read = hint("FileNotFoundError: [Errno 2] No such file or directory: 'x.py'\n",
                str(work))
    assert "never saved" not in read  # read, not run: a data file it looked for


def test_a_folder_elsewhere_is_never_listed(work: Path, tmp_path_factory: pytest.TempPathFactory
                                            ) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "private.txt").write_text("p")
    said = hint(f"FileNotFoundError: [Errno 2] No such file or directory: "
                f"'{elsewhere}/plans.txt'\n", str(work))
    assert said == ""


def test_a_placeholder_path_that_is_nowhere_is_answered_with_the_working_folder(
        work: Path) -> None:
    said = hint("FileNotFoundError: [Errno 2] No such file or directory: "
                "'/no-such-root-folder/to/report.txt'\n", str(work))
    assert said.endswith("The working directory holds: expenses.csv, notes/.")


def test_many_names_are_cut_with_a_count(work: Path) -> None:
    for number in range(13):
        (work / f"f{number:02}.txt").write_text("x")
    said = hint("cat: a.txt: No such file or directory\n", str(work))
    assert said.endswith("f09.txt, f10.txt and 3 more.")  # of 15


def test_the_note_is_for_a_model_on_this_machine_and_its_rule_fires(work: Path) -> None:
    end = RunEnd("1", 1, "cat: a.txt: No such file or directory\n", 0.1)
    local = turn("show a.txt", work, lines=True)
    note = noted(end, local)
    assert note is not None and note.note.startswith("\na.txt is not there.")
    assert local.rules.fired == []  # a check only finds: its verdict is applied apart
    assert applies(local.rules, note)
    assert [(each.rule, each.action, each.detail) for each in local.rules.fired] == [
        ("run.missing", "annotate", "a.txt")]
    assert noted(end, turn("show a.txt", work)) is None  # hosted model
    assert noted(RunEnd("1", 0, "", 0.1), local) is None
    off = turn("show a.txt", work, lines=True, off="run")
    assert noted_hint(end, off) == "" and off.rules.fired == []
