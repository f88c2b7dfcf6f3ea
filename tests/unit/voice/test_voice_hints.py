"""The words a take is biased toward: the working folder's names, the screen's labels."""

from __future__ import annotations

import os
from pathlib import Path

from assistant.voice.hints import Hints, folder_words, prompt


def test_folder_words_are_the_newest_visible_names(tmp_path: Path) -> None:
    tmp_path = tmp_path / "work"
    tmp_path.mkdir()
    for age, name in enumerate(["kestrel_budget.ods", "photos", ".secret", "old.txt"]):
        path = tmp_path / name
        path.mkdir() if name == "photos" else path.write_text("x")
        os.utime(path, (1_000_000 - age * 1000, 1_000_000 - age * 1000))
    assert folder_words(tmp_path) == ["kestrel_budget.ods", "photos", "old.txt"]
    assert folder_words(tmp_path, limit=1) == ["kestrel_budget.ods"]
    assert folder_words(tmp_path / "missing") == []


def test_prompt_lists_each_name_once_within_its_limit() -> None:
    words = ["Reconcile", "GnuCash", "reconcile", "  Split   Transaction ", "42", "x", "%",
             "Balance Sheet"]
    assert prompt(words) == "Reconcile, GnuCash, Split Transaction, Balance Sheet"
    assert prompt(words, limit=22) == "Reconcile, GnuCash"
    assert prompt([]) == ""


def test_hints_without_the_screen_are_the_folder_names(tmp_path: Path) -> None:
    (tmp_path / "work" / "Zotero exports").mkdir(parents=True)
    hints = Hints(tmp_path / "work", screen=False)
    assert hints.wait(10)
    assert hints.text() == "Zotero exports"
