"""Which file an editor's title names, and whether it holds unsaved changes."""

from __future__ import annotations

from pathlib import Path

from assistant.computer.reloading import names, unsaved


def test_a_title_with_a_whole_path_names_that_file_and_no_other_of_its_name() -> None:
    title = "/home/ana/work/guests.txt - Mousepad"
    assert names(title, Path("/home/ana/work/guests.txt"))
    assert not names(title, Path("/home/ana/old/guests.txt"))


def test_a_title_with_the_name_alone_names_the_file_in_any_folder() -> None:
    assert names("*guests.txt (~/work) - gedit", Path("/home/ana/work/guests.txt"))
    assert not names("guests.txt.bak - Mousepad", Path("/home/ana/guests.txt"))
    assert not names("Export", Path("/home/ana/guests.txt"))


def test_a_title_marked_with_a_star_holds_unsaved_changes() -> None:
    assert unsaved("*guests.txt - Mousepad")
    assert not unsaved("guests.txt - Mousepad")
