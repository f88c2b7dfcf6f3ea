"""Placeholder paths in proposed code: caught, unless the user said them or they are there."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.llm.placeholders import placeholder


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
