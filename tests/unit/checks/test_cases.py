"""Files a filter leaves out because their extension is in capitals: found from a real
folder's listing and a preview's effect."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.checks.cases import left_out, spellings
from assistant.events import Effect


def folder(root: Path, *names: str) -> str:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(name)
    return str(root)


@pytest.mark.parametrize("code, expected", [
    ("[f for f in os.listdir('.') if f.endswith('.pdf')]", {"pdf": {"pdf"}}),
    ("mv *.jpg *.PNG pics/", {"jpg": {"jpg"}, "png": {"PNG"}}),
    ("find . -name '*.csv' -exec cp {} backup/ \\;", {"csv": {"csv"}}),
    ("re.search(r'\\.log$', name)", {"log": {"log"}}),
    ("p.suffix in ('.jpg', '.JPG')", {"jpg": {"jpg", "JPG"}}),
    ("open('report.pdf', 'w')", {}),
    ("print('done.')", {}),
])
def test_the_extensions_a_filter_names_are_read_with_their_spelling(
        code: str, expected: dict[str, set[str]]) -> None:
    assert spellings(code) == expected


def test_a_lower_case_filter_leaves_out_the_capitalised_files_it_did_not_touch(
        tmp_path: Path) -> None:
    root = folder(tmp_path, "a.pdf", "Scan_001.PDF", "docs/old/Tax.Pdf", "notes.txt")
    code = ("for r, _, fs in os.walk('.'):\n    for f in fs:\n        if f.endswith('.pdf'):\n"
            "            shutil.move(os.path.join(r, f), 'd')")
    effect = Effect(moved=(("a.pdf", "d/a.pdf"),), exit_status=0)
    assert left_out(code, root, effect) == ["Scan_001.PDF", "docs/old/Tax.Pdf"]


def test_a_read_only_count_leaves_out_every_capitalised_file(tmp_path: Path) -> None:
    root = folder(tmp_path, "photos/a.jpg", "photos/2023/SUNSET.JPG")
    code = "sum(1 for r, d, fs in os.walk('photos') for f in fs if f.endswith('.jpg'))"
    assert left_out(code, root, Effect(exit_status=0, output="1\n")) == [
        "photos/2023/SUNSET.JPG"]


@pytest.mark.parametrize("code", [
    "[f for f in os.listdir('.') if f.lower().endswith('.pdf')]",
    "find . -iname '*.pdf'",
    "shopt -s nocaseglob; mv *.pdf d/",
    "re.search(r'\\.pdf$', name, re.I)",
    "ls *.[pP][dD][fF]",
    "files.filter(f => f.toLowerCase().endsWith('.pdf'))",
])
def test_code_that_folds_case_itself_is_trusted(tmp_path: Path, code: str) -> None:
    root = folder(tmp_path, "a.pdf", "Scan.PDF")
    assert left_out(code, root, Effect(exit_status=0)) == []


def test_files_the_preview_moved_deleted_or_copied_are_not_left_out(tmp_path: Path) -> None:
    root = folder(tmp_path, "One.PDF", "Two.PDF", "Three.PDF", "b.pdf")
    effect = Effect(moved=(("One.PDF", "d/One.PDF"),), deleted=("Two.PDF",),
                    created=("backup/Three.PDF",), exit_status=0)
    assert left_out("glob.glob('*.pdf')", root, effect) == []


def test_a_filter_in_the_files_own_spelling_or_with_no_such_file_finds_nothing(
        tmp_path: Path) -> None:
    root = folder(tmp_path, "Scan.PDF", "a.txt", "archive.tar.GZ")
    assert left_out("glob.glob('*.PDF')", root, Effect(exit_status=0)) == []
    assert left_out("glob.glob('*.csv')", root, Effect(exit_status=0)) == []
    assert left_out("print(open('a.txt').read())", root, Effect(exit_status=0)) == []
    assert left_out("glob.glob('*.gz')", root, Effect(exit_status=0)) == ["archive.tar.GZ"]


def test_a_filter_over_a_folder_elsewhere_leaves_nothing_out_here(tmp_path: Path) -> None:
    root = folder(tmp_path, "Scan.PDF", "sub/Tax.PDF")
    code = ("d = os.path.expanduser('~/Downloads')\n"
            "print([f for f in os.listdir(d) if f.endswith('.pdf')])")
    assert left_out(code, root, Effect(exit_status=0)) == []
    assert left_out("ls /srv/files/*.pdf", root, Effect(exit_status=0)) == []


def test_a_nested_file_is_within_reach_where_the_code_names_its_folder_or_goes_down(
        tmp_path: Path) -> None:
    root = folder(tmp_path, "photos/2023/SUNSET.JPG", "other/OLD.JPG", "TOP.JPG")
    named = "print([f for f in os.listdir('photos/2023') if f.endswith('.jpg')])"
    assert left_out(named, root, Effect(exit_status=0)) == ["TOP.JPG", "photos/2023/SUNSET.JPG"]
    top = "print([f for f in os.listdir('.') if f.endswith('.jpg')])"
    assert left_out(top, root, Effect(exit_status=0)) == ["TOP.JPG"]
    walks = "find . -name '*.jpg'"
    assert left_out(walks, root, Effect(exit_status=0)) == [
        "TOP.JPG", "other/OLD.JPG", "photos/2023/SUNSET.JPG"]
