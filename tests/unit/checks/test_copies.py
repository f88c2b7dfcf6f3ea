"""Copies among a folder's files, and what an effect does to them: real files in a
temporary folder, effects as a preview writes them."""

from __future__ import annotations

from pathlib import Path

from assistant.checks.copies import Copies, copies
from assistant.events import Effect


def scans(folder: Path) -> None:
    (folder / "scans").mkdir()
    for name, content in {"a.pdf": "page A", "a-copy.pdf": "page A", "b.pdf": "page B",
                          "b (1).pdf": "page B", "c.pdf": "receipt C"}.items():
        (folder / "scans" / name).write_text(content)


def test_deleting_every_file_deletes_every_copy(tmp_path: Path) -> None:
    scans(tmp_path)
    everything = tuple(sorted(f"scans/{p.name}" for p in (tmp_path / "scans").iterdir()))
    assert copies(str(tmp_path), ("scans",), Effect(deleted=everything)) == Copies(
        gone=(("scans/a-copy.pdf", "scans/a.pdf"), ("scans/b (1).pdf", "scans/b.pdf")))


def test_a_dedupe_by_name_that_deletes_one_copy_leaves_the_others(tmp_path: Path) -> None:
    scans(tmp_path)
    assert copies(str(tmp_path), ("scans",), Effect(deleted=("scans/a-copy.pdf",))) == Copies(
        left=("scans/b (1).pdf", "scans/b.pdf"))


def test_one_of_each_kept_leaves_no_copies_and_loses_none(tmp_path: Path) -> None:
    scans(tmp_path)
    done = Effect(deleted=("scans/a-copy.pdf",), moved=(("scans/b (1).pdf", "dupes/b.pdf"),))
    assert copies(str(tmp_path), ("scans",), done) == Copies(left=("dupes/b.pdf", "scans/b.pdf"))
    done = Effect(deleted=("scans/a-copy.pdf", "scans/b (1).pdf"))
    assert copies(str(tmp_path), ("scans",), done) == Copies()


def test_a_deleted_folder_takes_its_files_and_other_folders_are_not_judged(
        tmp_path: Path) -> None:
    scans(tmp_path)
    (tmp_path / "keep").mkdir()
    (tmp_path / "keep" / "x.txt").write_text("same")
    (tmp_path / "keep" / "y.txt").write_text("same")
    assert copies(str(tmp_path), ("keep",), Effect(deleted=("keep/",))) == Copies(
        gone=(("keep/x.txt", "keep/y.txt"),))
    assert copies(str(tmp_path), ("scans",), Effect(deleted=("keep/",))).left == (
        "scans/a-copy.pdf", "scans/a.pdf")


def test_empty_and_hidden_files_are_no_ones_copies(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("")
    (tmp_path / "b.txt").write_text("")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x").write_text("same")
    (tmp_path / ".git" / "y").write_text("same")
    assert copies(str(tmp_path), (), Effect()) == Copies()
