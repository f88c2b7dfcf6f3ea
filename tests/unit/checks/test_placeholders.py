"""Paths in proposed code that are not the user's: placeholders (unless the user said them or
they are there), and the user's folder made absolute."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.checks.placeholders import ROOTED, TOLD, Misplaced, misplaced, placeholder


@pytest.mark.parametrize(("code", "held"), [
    ("directory = '/path/to/your/directory'", "/path/to/your/directory"),
    ("cd /path/to/dir && ls", "/path/to/dir"),
    ("ls ~/path/to/x", "~/path/to/x"),
    ("df = pd.read_csv('your_file.csv')", "your_file.csv"),
    ("mv a.txt /home/user/your-folder/", "/home/user/your-folder/"),
    ("folder = '<path to folder>'", "<path to folder>"),
])
def test_placeholder_paths_are_caught(code: str, held: str, tmp_path: Path) -> None:
    assert placeholder(code, "tidy the files here", tmp_path) == held


@pytest.mark.parametrize("code", [
    "os.listdir('.')", "open('data/your.csv')", "print('the path to glory')",
    "open('my/path/toys.txt')",
])
def test_real_paths_and_words_are_not(code: str, tmp_path: Path) -> None:
    assert placeholder(code, "tidy the files here", tmp_path) == ""


def test_a_name_the_user_said_or_that_is_there_is_not_a_placeholder(tmp_path: Path) -> None:
    code = "open('your_file.txt').read()"
    assert placeholder(code, "what is in your_file.txt?", tmp_path) == ""
    assert placeholder(code, "what is in my notes?", tmp_path) == "your_file.txt"
    (tmp_path / "your_file.txt").write_text("x")
    assert placeholder(code, "what is in my notes?", tmp_path) == ""


def test_the_users_folder_made_absolute_is_sent_to_the_relative_one(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    code = "import os\nfor name in os.listdir('/lib/'):\n    print(name)"
    request = "in which file under lib/ is the function parse_date defined?"
    told = ROOTED.format("/lib/", "lib/") + " For example: for name in os.listdir('lib/'):"
    assert misplaced(code, request, tmp_path) == Misplaced("/lib/", told, "lib/")
    assert misplaced(code, "which files are in /lib/ and lib/?", tmp_path) is None
    assert misplaced(code, "which libraries are installed?", tmp_path) is None
    assert misplaced("ls /usr/lib", request, tmp_path) is None
    assert misplaced("ls lib/", request, tmp_path) is None


def test_a_placeholder_is_told_first(tmp_path: Path) -> None:
    code = "ls /path/to/your/directory"
    told = TOLD.format("/path/to/your/directory") + " For example: ls ."
    assert misplaced(code, "list the files here", tmp_path) == Misplaced(
        "/path/to/your/directory", told, ".")
    named = "import pandas\nprint(pandas.read_csv('your_file.csv'))"
    assert misplaced(named, "sum the table", tmp_path) == Misplaced(
        "your_file.csv", TOLD.format("your_file.csv"), "")  # which file is meant: not known


def test_a_made_up_absolute_path_to_a_named_file_here_is_sent_to_it(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{}")
    code = "import json\nprint(json.load(open('/root/nowhere/config.json')))"
    request = "which port does the database use in config.json?"
    told = (ROOTED.format("/root/nowhere/config.json", "config.json")
            + " For example: print(json.load(open('config.json')))")
    assert misplaced(code, request, tmp_path) == Misplaced(
        "/root/nowhere/config.json", told, "config.json")
    hosts = "print(open('/etc/hosts').read())"
    (tmp_path / "hosts").write_text("")
    assert misplaced(hosts, "what is in hosts?", tmp_path) is None  # it is there
