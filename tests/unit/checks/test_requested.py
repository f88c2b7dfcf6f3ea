"""What a request names: files, and the columns or keys a written file must have."""

from __future__ import annotations

import pytest

from assistant.checks.requested import (
    Request,
    field_names,
    named_files,
    named_folders,
    scripts_to_run,
)


def test_named_files_are_relative_paths_with_file_extensions() -> None:
    request = ("convert inventory.csv to data/inventory.json, not /etc/hosts.txt or "
               "~/x.txt; see example.com and version 2.0")
    assert named_files(request) == ["inventory.csv", "data/inventory.json"]


@pytest.mark.parametrize(("request_text", "expected"), [
    ('Please rename "meeting notes.txt" to notes-2024.txt',
     ["meeting notes.txt", "notes-2024.txt"]),
    ("open \u201cQ1 sales.csv\u201d and `old list.md`", ["Q1 sales.csv", "old list.md"]),
    ("copy 'my notes/to do.txt' here", ["my notes/to do.txt"]),
    ("read Ana's notes.txt", ["notes.txt"]),
    ('say "hi" to notes.txt and "bye"', ["notes.txt"]),
])
def test_a_quoted_file_name_keeps_its_spaces(request_text: str, expected: list[str]) -> None:
    assert named_files(request_text) == expected


@pytest.mark.parametrize(("request_text", "expected"), [
    ("write it to averages.csv with the columns team,average", ("column", ["team", "average"])),
    ("an object with keys name and count for each user", ("key", ["name", "count"])),
    ("add a column total to orders.csv", ("column", ["total"])),
    ('records with the keys "id", "title" and `done`', ("key", ["id", "title", "done"])),
    ("a field called e-mail, sorted", ("field", ["e-mail"])),
])
def test_field_names_are_the_users_names(request_text: str,
                                         expected: tuple[str, list[str]]) -> None:
    assert field_names(request_text) == expected


@pytest.mark.parametrize("request_text", [
    'count the files by extension as an object like {"txt": 2}',
    "sort the rows by the key column",
    "sum the third column of data.csv",
])
def test_no_field_names_where_the_request_gives_none(request_text: str) -> None:
    assert field_names(request_text) == ("", [])


def test_named_folders_are_the_folders_a_request_names() -> None:
    assert named_folders("which file in the data folder is the largest?") == ["data"]
    assert named_folders("in which file under lib/ is parse_date defined? see lib/") == ["lib"]
    assert named_folders("copy a.txt to backup/ and b.txt to out/x.txt") == ["backup"]
    assert named_folders("move the .log files here into a new folder") == []


def test_scripts_to_run_are_the_scripts_a_request_asks_to_run() -> None:
    assert scripts_to_run("write sum.js that sums numbers.txt, run it, and tell me") == ["sum.js"]
    assert scripts_to_run("write clean.sh and hello.py; execute both") == ["clean.sh", "hello.py"]
    assert scripts_to_run("write sum.js that sums numbers.txt") == []


def test_a_request_is_parsed_once_into_what_it_names_and_asks_for() -> None:
    asks = Request.parse("How many rows does data/orders.csv have? Write the count to "
                         "count.txt and run check.py", "en")
    assert asks.files == ("data/orders.csv", "count.txt", "check.py")
    assert asks.scripts == ("check.py",) and asks.figure == "How many"
    assert asks.makes and not asks.changes and asks.about_machine and asks.language == "en"
    change = Request.parse("rename the .jpeg files here to .jpg, keeping the column name")
    assert change.changes and change.here and not change.figure
    assert (change.field_kind, change.fields) == ("column", ("name",))
    assert Request.parse("move the pdf files into docs").changes
    # in French the names are still read by their shape; what it asks for is not
    french = Request.parse("Combien de lignes contient notes.txt dans le dossier data/ ?", "fr")
    assert french.files == ("notes.txt",) and french.folders == ("data",)
    assert not french.figure and not french.makes


@pytest.mark.parametrize("request_text", [
    "click Yes", "Use the newsletter page in the browser to unsubscribe me.",
    "An update window just popped up. I don't want this version, so skip it.",
    "Rename the file to report-final in the rename box",
])
def test_a_request_to_do_something_to_a_window_reads_as_on_screen(request_text: str) -> None:
    assert Request.parse(request_text).on_screen


@pytest.mark.parametrize("request_text", [
    "what does the Build window say?", "which item is highlighted in the list?",
])
def test_a_question_about_the_screen_is_not_a_request_to_act_on_it(request_text: str) -> None:
    assert not Request.parse(request_text).on_screen
