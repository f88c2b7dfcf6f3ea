"""A file named in zenity's GTK file chooser, under openbox with the accessibility bus up:
the chooser that opens a file starts on its recent files, so the name is typed as its
location, the working folder's path; its own OK then opens it. What zenity prints (the
path chosen) proves what was done."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant import computer
from assistant.computer import aim, tree
from assistant.loop import commands
from tests.support.desktop import Program, desktop


@pytest.fixture(scope="module", autouse=True)
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop() as name:
        yield name


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working folder, with the files to open."""
    for name in ("report.txt", "notes.txt"):
        (tmp_path / name).write_text(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_file_chosen_by_name_is_typed_as_its_location_and_ok_opens_it(folder: Path) -> None:
    with Program("zenity", "--file-selection", "--title=Open a file",
                 cwd=str(folder)) as chooser:
        chooser.focused("Open a file")
        [said] = [each.sentence for each in aim.foresee('computer.choose("report.txt")')]
        assert said == "Types the location of 'report.txt' into the dialog 'Open a file'"
        assert computer.choose("report.txt") == (
            f"Typed {str(folder / 'report.txt')!r} into the location of the dialog "
            "'Open a file'; its buttons: Cancel, OK.")
        assert chooser.running()  # not opened unasked
        computer.press("OK")
        assert chooser.result() == (0, str(folder / "report.txt"))


def test_a_file_in_a_folder_with_a_space_in_its_name_is_read_and_opened(folder: Path) -> None:
    """"open trips/Holiday plan.txt" read without the model, as the chooser takes it."""
    (folder / "trips").mkdir()
    (folder / "trips" / "Holiday plan.txt").write_text("Lisbon")
    with Program("zenity", "--file-selection", "--title=Open a file",
                 cwd=str(folder)) as chooser:
        chooser.focused("Open a file")
        code = commands.read("open trips/Holiday plan.txt", tree.windows())
        assert code == 'computer.choose("trips/Holiday plan.txt")\ncomputer.press("OK")'
        exec(code, {"computer": computer})
        assert chooser.result() == (0, str(folder / "trips" / "Holiday plan.txt"))


def test_a_file_typed_into_a_field_the_chooser_lacks_is_its_location(folder: Path) -> None:
    with Program("zenity", "--file-selection", "--title=Open a file",
                 cwd=str(folder)) as chooser:
        chooser.focused("Open a file")
        computer.type("notes.txt", into="File name", window="Open a file")
        computer.press("OK", window="Open a file")
        assert chooser.result() == (0, str(folder / "notes.txt"))


def test_a_save_chooser_takes_the_name_in_its_name_field(folder: Path) -> None:
    with Program("zenity", "--file-selection", "--save", "--title=Save the list",
                 cwd=str(folder)) as chooser:
        chooser.focused("Save the list")
        computer.type("list.txt", into="File name")
        computer.press("OK")
        assert chooser.result() == (0, str(folder / "list.txt"))


def test_save_in_an_open_save_chooser_gives_it_the_name_and_presses_its_button(
        folder: Path) -> None:
    with Program("zenity", "--file-selection", "--save", "--title=Save minutes",
                 cwd=str(folder)) as chooser:
        chooser.focused("Save minutes")
        with pytest.raises(LookupError, match=r"^the dialog 'Save minutes' asks for "
                                                       r"the file's name: computer\.save"):
            computer.save("Save minutes", window="Save minutes")  # its title, said twice
        [said] = [each.sentence for each in aim.foresee(
            'computer.save("minutes.txt", window="Save minutes")')]
        assert said == "Gives the name 'minutes.txt' to the dialog 'Save minutes' and " \
            "presses its OK"  # zenity's Save dialog has no button called Save
        assert computer.save("minutes.txt", window="Save minutes") == (
            f"Gave {str(folder / 'minutes.txt')!r} to the dialog 'Save minutes' and "
            "pressed OK.")
        assert chooser.result() == (0, str(folder / "minutes.txt"))
