"""The words a take is biased toward: the working folder's names, the screen's labels."""

from __future__ import annotations

import os
from pathlib import Path

from assistant.computer.coords import Rect
from assistant.computer.tree import Control, Window
from assistant.voice.hints import Hints, control_words, folder_words, prompt


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
    assert prompt(words) == "Reconcile, GnuCash, Split Transaction, Balance Sheet."
    assert prompt(words, limit=22) == "Reconcile, GnuCash."
    assert prompt(words, limit=20) == "Reconcile, GnuCash."  # 19 characters
    assert prompt(words, limit=19) == "Reconcile."
    assert prompt([]) == ""


def test_hints_without_the_screen_are_the_folder_names(tmp_path: Path) -> None:
    (tmp_path / "work" / "Zotero exports").mkdir(parents=True)
    hints = Hints(tmp_path / "work", screen=False)
    assert hints.wait(10)
    assert hints.text() == "Zotero exports."


def control(name: str, role: str, **kw: bool) -> Control:
    return Control(name, role, Rect(0, 0, 10, 10), frozenset(), "", **kw)


def test_control_words_name_what_the_focused_window_and_dialogs_let_a_person_act_on() -> None:
    backup = Window("Back up", "dialog", False, 1, [
        control("Choose what to keep", "label"), control("Darktable", "table cell"),
        control("Darktable", "table cell", toggle=True), control("OK", "push button")])
    editor = Window("Memo.txt - Mousepad", "frame", True, 2, [
        control("File", "menu item"), control("Saved at noon", "label"),
        control("Search:", "label", label=True), control("Search:", "entry")])
    behind = Window("Kdenlive", "frame", False, 3, [control("Render", "push button")])
    panel = Window("assistant: thinking", "frame", False, 4, [control("Run", "push button")])
    assert control_words([editor, backup, panel, behind]) == [
        "Tick", "Untick", "Memo.txt - Mousepad", "File", "Search:", "Search:",
        "Back up", "Darktable", "Darktable", "OK", "Kdenlive"]
    assert control_words([editor, behind])[0] == "Memo.txt - Mousepad"  # no tick box shown
