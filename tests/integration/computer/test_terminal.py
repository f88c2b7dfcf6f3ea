"""The verbs on xterm, which publishes no accessibility tree, under openbox: text typed
into it by its title or where the focus is goes through the keyboard to its shell, and a
control asked for in it is a miss that says to type instead. The files its shell writes
prove what was typed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant import computer
from assistant.computer import aim, finding
from tests.support.desktop import Program, desktop
from tests.support.display import wait_until


@pytest.fixture(scope="module", autouse=True)
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop("xterm") as name:
        yield name


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Program]:
    """xterm titled "xterm" running a plain shell in `tmp_path`, in front."""
    with Program("xterm", "-T", "xterm", "-e", "sh", cwd=str(tmp_path),
                 env={"PS1": "$ "}) as program:
        wait_until(lambda: any(w["title"] == "xterm" for w in computer.windows.list()),
                   "openbox manages the xterm window", 10)
        computer.focus("xterm")
        yield program


def _holds(path: Path, text: str) -> bool:
    return path.exists() and path.read_text() == text


def test_type_into_the_terminal_by_its_title_runs_the_command(terminal: Program,
                                                              tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("")
    assert computer.type("ls > listing.txt\n", window="xterm") == \
        "Typed 'ls > listing.txt\\n' into the window 'xterm'."
    listing = tmp_path / "listing.txt"
    wait_until(lambda: listing.exists() and "notes.txt\n" in listing.read_text(),
               "the shell listed its folder in listing.txt", 10)


def test_type_where_the_focus_is_and_into_the_terminal_named_as_a_field(
        terminal: Program, tmp_path: Path) -> None:
    computer.type("echo first > a.txt\n")  # the terminal has the focus
    computer.type("echo second > b.txt\n", into="xterm")  # models name a window so too
    wait_until(lambda: _holds(tmp_path / "a.txt", "first\n")
               and _holds(tmp_path / "b.txt", "second\n"), "the shell wrote a.txt, b.txt", 10)


def test_a_control_asked_for_in_the_terminal_says_to_type_into_it(terminal: Program) -> None:
    with pytest.raises(finding.NotOnScreen) as caught:
        computer.press("OK", window="xterm")
    assert str(caught.value) == (
        "the window 'xterm' publishes no controls to name (no button can be found in it): "
        "type into it instead, computer.type('text', window='xterm'), or press its keys, "
        "computer.key('enter')")
    with pytest.raises(finding.NotOnScreen, match=r"^no field 'Command' on screen.* the "
                                                  r"window 'xterm' publishes no controls"):
        computer.type("ls", into="Command")
    assert terminal.running()


def test_the_approval_says_the_text_goes_into_the_terminal(terminal: Program) -> None:
    said = [each.sentence for each in aim.foresee(
        'computer.type("ls\\n", window="xterm")\ncomputer.type("pwd\\n")')]
    assert said == ["Types 'ls\\n' into the window 'xterm'",
                    "Types 'pwd\\n' into the window 'xterm'"]  # it has the focus


def test_the_screen_text_gives_a_dialog_over_the_terminal_its_own_words(
        tmp_path: Path, ocr_engine: str) -> None:
    with Program("xterm", "-T", "xterm", "-geometry", "200x60+0+0", "-e", "sh",
                 cwd=str(tmp_path), env={"PS1": "ready$ "}), \
            Program("zenity", "--question", "--title=Export",
                    "--text=Export the quarterly report now?") as asked:
        asked.focused("Export")
        screen = computer.screen()
    assert screen.startswith('Window "Export" (dialog, focused):\n')
    terminal = screen.split('Window "xterm" (publishes no controls', 1)[-1]
    assert "ready$" in terminal  # the terminal's own text, read off the screen
    assert "quarterly" not in terminal and '"Yes"' not in terminal  # the dialog's, not its
