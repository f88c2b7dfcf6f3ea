"""Controls as the tree reads them, named and found as a person means them: a drop-down's
entries folded into its value, a sentence beside a field not taken as its name, a switch
named by its label, an unnamed control found by the word the screen text calls it."""

from __future__ import annotations

from assistant.computer import finding, screen_text, tree
from assistant.computer.coords import Rect
from assistant.computer.tree import Control


def control(name: str, role: str, box: tuple[int, int, int, int], *states: str,
            value: str = "") -> Control:
    return Control(name, role, Rect(*box), frozenset({"enabled", *states}), "Page", value)


def test_a_closed_drop_downs_entries_become_its_value() -> None:
    combo = control("Topic", "combo box", (67, 308, 93, 20))
    entry = control("Gardening", "menu item", (67, 308, 93, 11), "selected")
    button = control("Subscribe", "push button", (22, 527, 82, 22))
    kept = tree._drop_downs([combo, entry, button])
    assert kept == [combo, button] and combo.value == "Gardening"
    assert screen_text.control_line(combo) == 'drop-down "Topic" = "Gardening"'


def test_a_sentence_above_an_editor_is_not_its_name_but_a_label_beside_a_switch_is() -> None:
    warning = control("Warning: you are using the root account. You may harm your system.",
                      "label", (10, 60, 600, 20))
    area = control("", "text", (10, 85, 800, 500), "editable", "multi line", value="Dear Ana")
    row = control("Row 1", "label", (30, 531, 40, 17))
    switch = control("", "toggle button", (214, 527, 50, 26))
    tree._field_names([warning, area, row, switch])
    assert area.name == "" and switch.name == "Row 1" and row.label
    assert screen_text.control_line(area) == 'text area = "Dear Ana"'
    assert finding.matches([area, switch], "Row 1", "tick box") == [switch]


def test_a_page_paragraph_is_text_not_a_field() -> None:
    paragraph = control("", "paragraph", (22, 233, 1026, 22))
    assert not paragraph.field
    assert control("", "paragraph", (0, 0, 9, 9), "editable").field  # a word processor's


def test_a_control_is_found_by_the_word_the_screen_text_calls_it_an_unnamed_one_first(
        ) -> None:
    spins = [control("Copies", "spin button", (61, 67, 34, 100), value="1"),
             control("", "spin button", (21, 67, 34, 100), value="50")]
    assert screen_text.control_line(spins[1]) == 'number field = "50"'
    assert finding.matches(spins, "number field", "field") == [spins[1], spins[0]]
    assert finding.matches(spins, "spin button", "field")[0] == spins[1]
    assert finding.matches(spins, "Copies", "field") == [spins[0]]
    assert finding.matches(spins[:1], "number field", "field") == [spins[0]]  # named too
    assert finding.matches(spins, "text area", "field") == []


def test_a_switch_with_no_name_and_no_label_is_said_and_found_by_its_role() -> None:
    switch = control("", "toggle button", (439, 501, 50, 26), "checked")
    assert screen_text.control_line(switch) == "toggle (ticked)"
    assert finding.matches([switch], "switch", "tick box") == [switch]


def test_a_name_written_with_a_role_word_finds_the_control_of_that_role() -> None:
    """As models write them: "number field label" (the one number field, named label),
    "Email field", "the OK button"; a role word with a name nothing has is a miss."""
    spin = control("label", "spin button", (126, 330, 80, 24), "editable", value="50")
    entry = control("label", "text", (13, 330, 100, 24), "editable", value="label")
    email = control("Email", "text", (13, 360, 100, 24), "editable")
    ok = control("OK", "push button", (300, 400, 60, 24))
    fields = [entry, spin, email]
    assert finding.matches(fields, "number field label", "field") == [spin]
    assert finding.matches(fields, "the number field", "field") == [spin]
    assert finding.matches(fields, "Email field", "field") == [email]
    assert finding.matches([ok], "the OK button", "button") == [ok]
    assert finding.matches(fields, "Phone field", "field") == []


def test_a_name_is_found_inside_a_longer_name_only_as_whole_words() -> None:
    bookmark = control("Bookmark this tab", "push button", (900, 40, 20, 20))
    save_as = control("Save As…", "push button", (10, 40, 60, 20))
    assert finding.matches([bookmark, save_as], "OK", "button") == []
    assert finding.matches([bookmark, save_as], "ok", "button") == []
    assert finding.matches([bookmark, save_as], "Save", "button") == [save_as]
    assert finding.matches([bookmark, save_as], "this tab", "button") == [bookmark]


def test_a_field_label_said_with_more_words_finds_the_one_field_all_of_whose_words_it_has(
        ) -> None:
    name = control("Name", "text", (10, 40, 200, 20))
    guests = control("Guests", "spin button", (10, 70, 200, 20))
    email = control("Email", "text", (10, 100, 200, 20))
    address = control("Address", "text", (10, 130, 200, 20))
    assert finding.matches([name, guests], "Your name:", "field") == [name]
    assert finding.matches([name, guests], "Number of guests", "field") == [guests]
    assert finding.matches([email, address], "Email address", "field") == []  # which?
    assert finding.matches([name, guests], "Your name:", "button") == []

