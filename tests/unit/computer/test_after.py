"""What the screen shows after a run, told from the windows read again: each call held to
them, and the windows opened, closed or renamed (the windows here are data as tree.py
reads them; tests/integration/computer/test_after.py reads real ones)."""

from __future__ import annotations

from assistant.computer.after import Fact, Shown, facts_of
from assistant.computer.aim import Aim
from assistant.computer.coords import Rect
from assistant.computer.tree import Control, Window

BOX = Rect(0, 0, 10, 10)


def window(title: str, *controls: Control, role: str = "frame", pid: int = 7) -> Window:
    return Window(title, role, True, pid, list(controls), BOX)


def test_an_editor_saved_is_said_renamed_not_gone_and_new() -> None:
    then = [Shown("*Memo.txt - Mousepad", "the window '*Memo.txt - Mousepad'", 7)]
    key = Aim("Presses the keys Ctrl+S", window="*Memo.txt - Mousepad", verb="key")
    facts = facts_of([key], then, [window("Memo.txt - Mousepad")])
    assert facts == [Fact("the window '*Memo.txt - Mousepad' is now titled "
                          "'Memo.txt - Mousepad'")]


def test_a_press_in_a_dialog_that_stays_says_it_open_and_one_that_went_gone() -> None:
    then = [Shown("Export", "the dialog 'Export'", 7), Shown("Theme", "the dialog 'Theme'", 8)]
    presses = [Aim("Presses Apply", window="Export", verb="press", target="Apply"),
               Aim("Presses OK", window="Theme", verb="press", target="OK")]
    assert facts_of(presses, then, [window("Export", role="dialog")]) == [
        Fact("the dialog 'Export' is still open"),
        Fact("the dialog 'Theme' is gone", change="gone")]


def test_a_press_in_a_programs_own_window_says_nothing_of_it_staying_open() -> None:
    """A program's window (it has menus) is open as it should be: "still open" is a
    dialog's, and told it of a program's window a small model pressed its Close."""
    then = [Shown("notes.txt - Mousepad", "the window 'notes.txt - Mousepad'", 7)]
    menu = Control("File", "menu", BOX, frozenset({"enabled"}), "notes.txt - Mousepad")
    bold = Control("Bold", "push button", BOX, frozenset({"enabled"}), "notes.txt - Mousepad")
    press = Aim("Presses Bold", window="notes.txt - Mousepad", verb="press", target="Bold")
    assert facts_of([press], then, [window("notes.txt - Mousepad", menu, bold)]) == []
    assert facts_of([press], then, [window("notes.txt - Mousepad", bold)]) == [
        Fact("the window 'notes.txt - Mousepad' is still open")]  # buttons alone: yad's


def test_a_box_left_unticked_is_undone_and_a_new_dialog_is_said_open() -> None:
    then = [Shown("Backup", "the dialog 'Backup'", 7)]
    photos = Control("Photos", "check box", BOX, frozenset({"enabled"}), "Backup")
    tick = Aim("Ticks Photos", window="Backup", verb="tick", target="Photos")
    now = [window("Backup", photos, role="dialog"),
           window("Are you sure?", role="alert", pid=8)]
    assert facts_of([tick], then, now) == [
        Fact("'Photos' is not ticked in the dialog 'Backup'", undone=True),
        Fact("the dialog 'Are you sure?' is open", change="open")]


def test_a_password_field_is_held_to_the_length_typed_as_it_shows_only_bullets() -> None:
    then = [Shown("Sign in", "the dialog 'Sign in'", 7)]
    typed = Aim("Types 6 characters", window="Sign in", verb="type", target="Password:",
                value="s3cret")
    for shown, undone in (("●●●●●●", False), ("", True)):
        field = Control("Password:", "password text", BOX, frozenset({"enabled"}), "Sign in",
                        shown)
        [fact] = facts_of([typed], then, [window("Sign in", field, role="dialog")])
        assert fact.undone is undone and "s3cret" not in fact.sentence
