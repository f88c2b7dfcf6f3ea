"""The verbs on gtk3-widget-factory (gtk-3-examples), a GTK program with pages, tabs,
switches and number fields, under openbox with the accessibility bus up. Its window has
a header bar and no name in its tree: it is found by the title the window manager shows.
The widgets' own states, read back from the tree, prove what was done."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from assistant import computer
from assistant.computer import a11y, after, aim, finding, tree
from assistant.computer.tree import Control
from tests.support.desktop import Program, desktop
from tests.support.display import wait_until

TITLE = "gtk3-widget-factory"


@pytest.fixture(scope="module", autouse=True)
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop(TITLE) as name:
        yield name


@pytest.fixture
def factory() -> Iterator[Program]:
    with Program(TITLE) as program:
        program.shown(TITLE)
        yield program


def _control(name: str, role: str) -> Control | None:
    window = tree.window(TITLE)
    assert window is not None and window.title == TITLE
    return next((c for c in window.controls if c.name == name and c.role == role), None)


def _checked(name: str, role: str) -> bool:
    control = _control(name, role)
    return control is not None and control.checked


def test_pages_and_tabs_are_chosen_by_name(factory: Program) -> None:
    assert computer.choose("Page 3") == f"Chose Page 3 in the window {TITLE!r}."
    wait_until(lambda: _checked("Page 3", "radio button"), "Page 3 shown", 5)
    computer.choose("Page 4")  # a tab of the notebook on that page
    wait_until(lambda: "selected" in getattr(_control("Page 4", "page tab"), "states", ()),
               "the tab Page 4 selected", 5)


def test_a_tab_pressed_as_a_button_is_brought_up_and_the_screen_after_shows_it_selected(
        factory: Program) -> None:
    computer.choose("Page 3")
    wait_until(lambda: _control("Page 4", "page tab"), "the notebook's tabs shown", 5)
    code = f'computer.press("Page 4", window="{TITLE}")'
    aims, then = aim.foresee(code), after.before()
    assert [fact.sentence for fact in after.after(aims, then, settle_s=0)] == [
        f"the tab 'Page 4' is not selected in the window {TITLE!r}"]
    assert computer.press("Page 4", window=TITLE) == f"Pressed Page 4 in the window {TITLE!r}."
    wait_until(lambda: "selected" in getattr(_control("Page 4", "page tab"), "states", ()),
               "the tab Page 4 selected", 5)
    assert [(fact.sentence, fact.undone) for fact in after.after(aims, then)] == [
        (f"the tab 'Page 4' is now selected in the window {TITLE!r}", False)]


def test_a_press_of_a_name_as_the_screen_writes_it_takes_that_control_over_one_in_other_case(
        factory: Program) -> None:
    """The screen text shows the page switcher's radio "Page 2"; the notebooks below
    have tabs "page 2" that press() finds first as buttons."""
    assert _control("page 2", "page tab") is not None
    assert computer.press("Page 2") == f"Pressed Page 2 in the window {TITLE!r}."
    wait_until(lambda: _checked("Page 2", "radio button"), "Page 2 shown", 5)


def test_spoken_tabs_pages_and_the_number_box_are_read_as_the_verbs_on_the_real_window(
        factory: Program) -> None:
    from assistant.loop import commands

    windows = tree.windows()
    assert [commands.read(said, windows) for said in (
        "switch to the third tab", "Go to tab page 3 in the notebook.",
        "Show Page 2 of the window.", "Set the spin button to 75.")] == [
        'computer.press("page 3")', 'computer.press("page 3")', 'computer.choose("Page 2")',
        'computer.type("75", into="spin")']
    computer.press("page 3")  # the first notebook's tab; the page switcher stays
    wait_until(lambda: "selected" in getattr(_control("page 3", "page tab"), "states", ()),
               "the first notebook's tab page 3 selected", 5)
    assert _checked("Page 1", "radio button")
    computer.press("page 1")  # as it was: a factory started next may be this one again
    computer.type("75", into="spin")
    wait_until(lambda: [c.value for c in tree.windows(TITLE)[0].controls
                        if c.role == "spin button" and c.enabled] == ["75"],
               "the enabled number field holds 75", 5)


def test_a_switch_without_a_name_is_ticked_by_the_label_beside_it(factory: Program) -> None:
    computer.choose("Page 2")
    wait_until(lambda: _control("Row 1", "toggle button"), "the switch of Row 1 shown", 5)
    assert not _checked("Row 1", "toggle button")
    assert computer.tick("Row 1") == f"Ticked Row 1 in the window {TITLE!r}."
    wait_until(lambda: _checked("Row 1", "toggle button"), "the switch of Row 1 on", 5)
    assert '  toggle "Row 1" (ticked)' in computer.read(TITLE).splitlines()  # by its label
    computer.untick("Row 1")
    wait_until(lambda: not _checked("Row 1", "toggle button"), "the switch of Row 1 off", 5)


def test_a_number_field_is_set_by_typing_into_it(factory: Program) -> None:
    computer.choose("Page 2")
    wait_until(lambda: _control("", "spin button"), "the number field shown", 5)
    fields = [line for line in computer.read(TITLE).splitlines() if "number field" in line]
    assert fields[0].startswith('  number field = "50"')  # no name, no label: its role
    assert computer.type("42", into="number field") == \
        f"Typed '42' into the number field in the window {TITLE!r}."
    spin = _control("", "spin button")
    assert spin is not None
    assert a11y._atspi().Value.get_current_value(spin.ref) == 42.0  # the widget's value


def test_a_number_field_named_with_its_role_word_and_label_is_set(factory: Program) -> None:
    """Page 1's number fields are named by the label beside them, "label"; a model writes
    the role word before it."""
    wait_until(lambda: _control("label", "spin button"), "page 1's number fields shown", 5)
    assert computer.type("75", into="number field label") == \
        f"Typed '75' into 'label' in the window {TITLE!r}."
    spin = _control("label", "spin button")
    assert spin is not None
    assert a11y._atspi().Value.get_current_value(spin.ref) == 75.0


def test_a_miss_names_the_switches_and_tabs_there(factory: Program) -> None:
    computer.choose("Page 2")
    wait_until(lambda: _control("Row 1", "toggle button"), "the switch of Row 1 shown", 5)
    with pytest.raises(finding.NotOnScreen) as caught:
        computer.tick("Row 9", window=TITLE)
    assert str(caught.value).startswith(f"no tick box 'Row 9' in the window {TITLE!r}; "
                                        "its tick boxes: ")
    assert "Row 1" in str(caught.value)


def test_a_press_of_ok_in_a_program_window_without_one_says_to_leave_it_out(
        factory: Program) -> None:
    """A small model copies the guide's "choose Dark and press OK" into a program's
    window, which takes a choice at once."""
    computer.choose("Page 2")
    with pytest.raises(finding.NotOnScreen) as caught:
        computer.press("OK", window=TITLE)
    assert str(caught.value).startswith(
        f"no button 'OK' in the window {TITLE!r} (it has no button to confirm with: what is "
        f"set in the window {TITLE!r} takes effect at once, so leave the press of 'OK' out)")


def test_the_approval_and_the_screen_after_name_the_switch_and_the_number_field(
        factory: Program) -> None:
    computer.choose("Page 2")
    wait_until(lambda: _control("Row 1", "toggle button"), "the switch of Row 1 shown", 5)
    code = 'computer.tick("Row 1")\ncomputer.type("7", into="number field")'
    aims, then = aim.foresee(code), after.before()
    assert [each.sentence for each in aims] == [
        f"Ticks Row 1 in the window {TITLE!r}",
        f"Types '7' into the number field in {TITLE!r}"]
    computer.tick("Row 1")
    computer.type("7", into="number field")
    assert [fact.sentence for fact in after.after(aims, then)] == [
        f"'Row 1' is ticked in the window {TITLE!r}",
        f"the number field in the window {TITLE!r} holds '7'"]
