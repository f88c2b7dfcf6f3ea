"""Files a run wrote, held against the request: real files in a temporary folder."""

from __future__ import annotations

import json
from pathlib import Path

from assistant.checks.made import problems

AVERAGES = "compute the average score per team and write averages.csv with the columns team,average"


def test_an_empty_requested_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "todo.txt").write_text("\n")
    found = problems("collect the TODO lines into todo.txt", tmp_path, ["todo.txt"])
    assert found == ["todo.txt is empty: nothing was written into it. Check what your code "
                     "matched or selected against the files it read."]


def test_an_empty_file_quotes_where_the_searched_word_is_for_a_local_model(
        tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1  # TODO: add retries\n")
    (tmp_path / "todo.txt").write_text("")
    request = "collect every line containing TODO from the .py files into todo.txt"
    assert problems(request, tmp_path, ["todo.txt"], lines=True) == [
        'todo.txt is empty: nothing was written into it. Yet TODO is in a.py, line 1: '
        '<line untrusted="true">\nx = 1  # TODO: add retries\n</line>. Check what your '
        "code matched or selected against the files it read."]
    assert "a.py" not in problems(request, tmp_path, ["todo.txt"])[0]  # not for a hosted one


def test_a_table_without_the_users_column_names_is_named(tmp_path: Path) -> None:
    (tmp_path / "averages.csv").write_text("team,score\nblue,9.0\n")
    assert problems(AVERAGES, tmp_path, ["averages.csv"]) == [
        "averages.csv has no column average: the request asks for the columns team, "
        "average, by those names."]
    (tmp_path / "averages.csv").write_text('"team","average"\nblue,9.0\n')
    assert problems(AVERAGES, tmp_path, ["averages.csv"]) == []


def test_json_keys_are_checked_at_any_depth(tmp_path: Path) -> None:
    request = "write users.json as a list of objects with keys name and email"
    (tmp_path / "users.json").write_text(json.dumps([{"name": "a", "mail": "x"}], indent=2))
    assert problems(request, tmp_path, ["users.json"]) == [
        "users.json has no key email: the request asks for the keys name, email, by those "
        "names."]
    (tmp_path / "users.json").write_text(json.dumps({"users": [{"name": "a", "email": "x"}]}))
    assert problems(request, tmp_path, ["users.json"]) == []


def test_the_requested_file_written_into_another_folder_is_named(tmp_path: Path) -> None:
    (tmp_path / "tiny-tool").mkdir()
    (tmp_path / "tiny-tool" / "package.json").write_text('{"name": "tiny-tool"}')
    request = "create a package.json for a Node.js project named tiny-tool"
    assert problems(request, tmp_path, ["tiny-tool/package.json"]) == [
        "The request asks for package.json in the working folder, but the run wrote "
        "tiny-tool/package.json: write package.json itself."]
    (tmp_path / "package.json").write_text('{"name": "tiny-tool"}')
    assert problems(request, tmp_path, ["tiny-tool/package.json"]) == []


def test_files_the_run_did_not_write_are_not_judged(tmp_path: Path) -> None:
    (tmp_path / "scores.csv").write_text("")
    assert problems(f"read scores.csv; {AVERAGES}", tmp_path, ["other.txt"]) == []
