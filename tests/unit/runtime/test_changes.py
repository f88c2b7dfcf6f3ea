"""What a run changed in the working folder, from listings before and after."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.runtime import changes
from assistant.runtime.changes import describe_changes, list_folder, written


def test_created_removed_and_modified_files_are_named(tmp_path: Path) -> None:
    (tmp_path / "a.log").write_text("x")
    (tmp_path / "keep.txt").write_text("1")
    (tmp_path / "same.txt").write_text("s")
    before = list_folder(str(tmp_path))
    (tmp_path / "old").mkdir()
    (tmp_path / "a.log").rename(tmp_path / "old" / "a.log")
    (tmp_path / "keep.txt").write_text("12")
    after = list_folder(str(tmp_path))
    assert describe_changes(before, after) == (
        "Files in the working directory: created old/, old/a.log; removed a.log; "
        "modified keep.txt."
    )
    assert describe_changes(after, list_folder(str(tmp_path))) == (
        "No files changed in the working directory."
    )
    assert written(before, after) == ["keep.txt", "old/a.log"]  # files, not the folder
    assert written(after, list_folder(str(tmp_path))) == []
    assert written(None, after) == []


def test_files_written_into_a_new_folder_of_an_empty_folder_are_seen(tmp_path: Path) -> None:
    before = list_folder(str(tmp_path))
    (tmp_path / "tiny-tool" / "src").mkdir(parents=True)
    (tmp_path / "tiny-tool" / "src" / "package.json").write_text("{}")
    after = list_folder(str(tmp_path))
    assert written(before, after) == ["tiny-tool/src/package.json"]
    assert describe_changes(before, after) == (
        "Files in the working directory: created tiny-tool/, tiny-tool/src/, "
        "tiny-tool/src/package.json.")


def test_long_lists_are_cut(tmp_path: Path) -> None:
    before = list_folder(str(tmp_path))
    for n in range(12):
        (tmp_path / f"f{n:02}.txt").write_text("")
    described = describe_changes(before, list_folder(str(tmp_path)))
    assert described.endswith("f07.txt and 4 more.")


def test_tool_folders_are_listed_but_not_entered(tmp_path: Path) -> None:
    before = list_folder(str(tmp_path))
    (tmp_path / "node_modules" / "pkg").mkdir(parents=True)
    (tmp_path / "node_modules" / "pkg" / "index.js").write_text("")
    described = describe_changes(before, list_folder(str(tmp_path)))
    assert described == "Files in the working directory: created node_modules/."


def test_a_big_folder_is_compared_only_as_deep_as_it_was_listed_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(changes, "MAX_ENTRIES", 10)
    deep = tmp_path / "deep"
    deep.mkdir()
    for n in range(12):
        (deep / f"{n}.txt").write_text("")
    before = list_folder(str(tmp_path))
    assert before is not None and before.depth == 1
    (deep / "new.txt").write_text("")
    (tmp_path / "top.txt").write_text("")
    after = list_folder(str(tmp_path))
    assert describe_changes(before, after) == "Files in the working directory: created top.txt."


def test_a_folder_too_big_for_its_first_level_is_not_described(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(changes, "MAX_ENTRIES", 3)
    for n in range(5):
        (tmp_path / f"{n}.txt").write_text("")
    assert list_folder(str(tmp_path)) is None
    assert describe_changes(None, list_folder(str(tmp_path))) == ""
