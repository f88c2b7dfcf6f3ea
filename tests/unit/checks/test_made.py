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
    (tmp_path / "averages.csv").write_text("team,score\n")
    assert problems(f"read scores.csv; {AVERAGES}", tmp_path, ["other.txt"]) == []


def test_a_requested_file_no_run_wrote_is_named(tmp_path: Path) -> None:
    (tmp_path / "defaults.json").write_text('{"theme": "light"}')
    (tmp_path / "overrides.json").write_text('{"theme": "dark"}')
    request = "Combine defaults.json and overrides.json into settings.json"
    assert problems(request, tmp_path, []) == [
        "The request asks for settings.json, and no run wrote it: settings.json is not "
        "there. Write it in the working folder."]
    (tmp_path / "settings.json").write_text('{"theme": "dark"}')
    assert problems(request, tmp_path, ["settings.json"]) == []


def test_a_file_the_request_reads_is_never_asked_to_be_written(tmp_path: Path) -> None:
    request = "convert report.txt to report.md and delete report.txt"
    (tmp_path / "report.md").write_text("# report\n")
    assert problems(request, tmp_path, ["report.md"]) == []
    assert problems("does the config point to db.yml?", tmp_path, []) == []


def test_a_line_left_twice_where_each_once_was_asked_is_named(tmp_path: Path) -> None:
    request = "emails.txt has duplicates: clean it up so each one is in there only once"
    (tmp_path / "emails.txt").write_text("zoe@example.com\nadam@example.com \nadam@example.com")
    assert problems(request, tmp_path, ["emails.txt"], lines=True) == [
        'emails.txt holds <line untrusted="true">\nadam@example.com\n</line> 2 times (spaces '
        "around a line left out): the request asks for each only once."]
    assert problems(request, tmp_path, ["emails.txt"]) == [
        "emails.txt holds a line 2 times (spaces around a line left out): the request asks "
        "for each only once."]  # a hosted model is not sent the line
    (tmp_path / "emails.txt").write_text("zoe@example.com\nadam@example.com\n")
    assert problems(request, tmp_path, ["emails.txt"], lines=True) == []


def test_repeated_lines_are_not_judged_where_the_request_asks_for_no_uniqueness(
        tmp_path: Path) -> None:
    (tmp_path / "sorted.txt").write_text("ana\nana\nbo\n")
    assert problems("sort names.txt into sorted.txt", tmp_path, ["sorted.txt"],
                    lines=True) == []
