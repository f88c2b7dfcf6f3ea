"""The verbs on real dialogs nobody here wrote (zenity, yad), under openbox with the
accessibility bus up: each dialog's own exit status and output prove what was done."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from assistant import computer
from assistant.computer import aim, tree, verbs
from tests.support.desktop import Program, desktop


@pytest.fixture(scope="module", autouse=True)
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop() as name:
        yield name


def question(title: str = "Export", text: str = "Export the quarterly report now?") -> Program:
    return Program("zenity", "--question", f"--title={title}", f"--text={text}")


def test_press_a_button_by_name_answers_the_dialog() -> None:
    with question() as asked:
        asked.shown("Export")
        assert computer.press("Yes") == "Pressed Yes in the dialog 'Export'."
        assert asked.result() == (0, "")
    with question() as asked:
        asked.shown("Export")
        computer.press("No", window="Export")
        assert asked.result()[0] == 1


def test_a_button_behind_another_window_is_pressed_in_the_window_named() -> None:
    with question("Export") as behind, question("Rename", "Rename it?") as front:
        behind.shown("Export")
        front.shown("Rename")
        computer.press("Yes", window="Export")
        assert behind.result() == (0, "")
        assert front.running()


def test_a_miss_names_what_is_there() -> None:
    with question() as asked:
        asked.shown("Export")
        with pytest.raises(verbs.NotOnScreen) as caught:
            computer.press("Maybe", window="Export")
        assert str(caught.value) == "no button 'Maybe' in the dialog 'Export'; its buttons: No, Yes"
        with pytest.raises(verbs.NotOnScreen, match=r"no button 'Maybe' on screen; buttons in "
                                                    r"the dialog 'Export': No, Yes"):
            computer.press("Maybe")
        with pytest.raises(verbs.NotOnScreen, match="no window titled 'Import'; open windows: "
                                                    "'Export'"):
            computer.press("Maybe", window="Import")
        assert asked.running()
        # A title copied from an example: the one window with a Yes is meant.
        assert computer.press("Yes", window="Import") == "Pressed Yes in the dialog 'Export'."
        assert asked.result() == (0, "")
    with pytest.raises(verbs.NotOnScreen, match=r"^no button 'Yes' on screen: no windows are "
                                                r"open$"):
        computer.press("Yes")  # pressed already: its dialog is gone


def test_cancel_pressed_in_a_dialog_without_one_closes_it_choosing_nothing() -> None:
    photos = ["yad", "--title=Delete photos", "--text=Delete the 4 selected photos?",
              "--button=Move to Trash:10", "--button=Delete permanently:20"]
    with Program(*photos) as asked:
        asked.shown("Delete photos")
        [said] = aim.foresee('computer.press("Cancel", window="Delete photos")')
        assert said.sentence == ("Closes the window 'Delete photos', which has no Cancel "
                                 "button, choosing nothing")
        assert computer.press("Cancel", window="Delete photos") == (
            "Closed the window 'Delete photos': it has no Cancel button, and closing it "
            "chooses nothing.")
        assert asked.result() == (252, "")  # yad's status for a window closed unanswered


def test_a_miss_of_a_kind_no_window_shows_names_what_the_dialog_has_instead() -> None:
    with Program("zenity", "--entry", "--title=Rename", "--text=New name for the file:") \
            as asked:
        asked.shown("Rename")
        with pytest.raises(verbs.NotOnScreen) as caught:
            computer.choose("Dark")  # the guide's example, copied
        assert str(caught.value) == (
            "no item 'Dark' on screen; no window shows any items; the dialog 'Rename' has: "
            "fields New name for the file:; buttons Cancel, OK")
        assert asked.running()


def test_a_check_box_chosen_by_its_name_is_ticked(tmp_path) -> None:
    licence = tmp_path / "licence.txt"
    licence.write_text("No warranty.\n")
    with Program("zenity", "--text-info", "--title=Licence", f"--filename={licence}",
                 "--checkbox=I accept the terms") as asked:
        asked.shown("Licence")
        [said] = [a.sentence for a in aim.foresee('computer.choose("I accept the terms")')]
        assert said == "Ticks I accept the terms in the dialog 'Licence'"
        assert computer.choose("I accept the terms") == \
            "Ticked I accept the terms in the dialog 'Licence'."
        computer.press("OK")  # enabled by the tick
        assert asked.result()[0] == 0


def test_tick_and_untick_rows_of_a_check_list() -> None:
    with Program("zenity", "--list", "--checklist", "--title=Backup", "--text=What to back up",
                 "--column=Do", "--column=Folder", "FALSE", "Photos", "FALSE", "Music",
                 "TRUE", "Documents") as listed:
        listed.shown("Backup")
        assert computer.tick("Photos", "Music") == (
            "Ticked Photos in the dialog 'Backup'. Ticked Music in the dialog 'Backup'.")
        assert computer.tick("Photos") == "Photos in the dialog 'Backup' was already ticked."
        computer.untick("Documents")
        computer.press("OK")
        assert listed.result() == (0, "Photos|Music")


def test_a_check_list_row_of_many_columns_is_one_line_with_its_tick_box() -> None:
    with Program("yad", "--list", "--checklist", "--title=Invoices", "--width=520", "--column=Paid",
                 "--column=Invoice", "--column=Supplier", "--column=Amount",
                 "FALSE", "INV-1041", "Harbor Supply", "120.00",
                 "FALSE", "INV-1042", "Northwind Paper", "86.50") as listed:
        listed.shown("Invoices")
        lines = computer.screen().splitlines()
        assert '  row "INV-1041" [ ]: Harbor Supply, 120.00' in lines
        assert '  row "INV-1042" [ ]: Northwind Paper, 86.50' in lines
        computer.tick("INV-1042")
        assert '  row "INV-1042" [x]: Northwind Paper, 86.50' in computer.screen().splitlines()
        computer.press("OK")
        assert listed.result() == (0, "TRUE|INV-1042|Northwind Paper|86.50|")


def test_choose_a_row_of_a_radio_list_and_an_entry_of_a_drop_down() -> None:
    with Program("zenity", "--list", "--radiolist", "--title=Theme", "--text=Pick a theme",
                 "--column=Pick", "--column=Theme", "TRUE", "Light", "FALSE", "Dark") as theme:
        theme.shown("Theme")
        assert computer.choose("Dark") == "Chose Dark in the dialog 'Theme'."
        computer.press("OK")
        assert theme.result() == (0, "Dark")
    with Program("yad", "--form", "--title=Order", "--field=Size:CB", "Small!Medium!Large",
                 "--field=Gift wrap:CHK", "FALSE") as order:
        order.shown("Order")
        assert computer.choose("Large") == "Chose Large in the window 'Order'."
        computer.tick("Gift wrap")
        computer.press("OK")
        assert order.result() == (0, "Large|TRUE|")


def test_a_drop_down_is_named_by_its_label_and_shows_its_entry_as_its_value() -> None:
    """GTK names a drop-down by the entry it shows; the screen names it by its label, as
    a person does, and a form's mapping chooses its entry by that label."""
    with Program("yad", "--form", "--title=Dentist", "--field=Patient name",
                 "--field=Visit type:CB", "", "Check-up!Cleaning!Filling") as form:
        form.shown("Dentist")
        assert '  drop-down "Visit type" = "Check-up"' in computer.screen().splitlines()
        said = computer.fill({"Patient name": "Omar Haddad", "Visit type": "Cleaning"})
        assert said.endswith("Chose Cleaning in 'Visit type' in the window 'Dentist'.")
        assert '  drop-down "Visit type" = "Cleaning"' in computer.read("Dentist").splitlines()
        computer.press("OK")
        assert form.result() == (0, "Omar Haddad|Cleaning|")


def test_fill_a_form_and_type_into_a_field_by_its_label() -> None:
    with Program("zenity", "--forms", "--title=Sign in", "--text=Who are you",
                 "--add-entry=Your name:", "--add-password=Password:") as form:
        form.shown("Sign in")
        said = computer.fill({"Your name:": "Ana Lopez", "Password:": "s3cret"})
        assert said == ("Typed 'Ana Lopez' into 'Your name:' in the dialog 'Sign in'. "
                        "Typed 6 characters into 'Password:' in the dialog 'Sign in'.")
        computer.press("OK")
        assert form.result() == (0, "Ana Lopez|s3cret")
    with Program("zenity", "--entry", "--title=Rename", "--text=New name:",
                 "--entry-text=old.txt") as entry:
        entry.shown("Rename")
        computer.type("new.txt", into="New name")
        computer.press("enter")  # no button is named so: the key
        assert entry.result() == (0, "new.txt")


def test_set_and_get_a_field_and_a_drop_down_by_label_as_models_write_them() -> None:
    with Program("yad", "--form", "--title=Dentist", "--field=Patient name",
                 "--field=Visit type:CB", "Ann", "Check-up!Cleaning") as form:
        form.shown("Dentist")
        assert computer.get("Patient name") == "Ann"
        assert computer.set("Patient name", "Omar Haddad") == \
            "Set 'Patient name' in the window 'Dentist' to 'Omar Haddad'."
        assert computer.set("Visit type", "Cleaning") == \
            "Chose Cleaning in 'Visit type' in the window 'Dentist'."
        assert computer.get("Visit type") == "Cleaning"
        computer.press("OK")
        assert form.result() == (0, "Omar Haddad|Cleaning|")


def test_fill_ticks_a_check_box_named_with_true_and_types_the_rest() -> None:
    with Program("yad", "--form", "--title=Newsletter", "--field=Email",
                 "--field=Send me news:CHK", "", "FALSE") as form:
        form.shown("Newsletter")
        code = 'computer.fill({"Email": "sam@example.com", "Send me news": True})'
        assert [a.sentence for a in aim.foresee(code)] == [
            "Types 'sam@example.com' into 'Email' in 'Newsletter'",
            "Ticks Send me news in the window 'Newsletter'"]
        said = computer.fill({"Email": "sam@example.com", "Send me news": True})
        assert said == ("Typed 'sam@example.com' into 'Email' in the window 'Newsletter'. "
                        "Ticked Send me news in the window 'Newsletter'.")
        with pytest.raises(verbs.NotOnScreen, match="'Send me news' in the window 'Newsletter' is "
                           r"a check box, not a field: tick\('Send me news'\)"):
            computer.type("yes", into="Send me news")  # never into the form's one field
        computer.press("OK")
        assert form.result() == (0, "sam@example.com|TRUE|")


def test_a_slider_is_set_by_typing_a_number_into_it_by_its_label_or_its_window() -> None:
    with Program("zenity", "--scale", "--title=Volume", "--text=Set the volume",
                 "--value=50") as scale:
        scale.shown("Volume")
        assert '  slider "Set the volume" = "50" (focused)' in \
            computer.read("Volume").splitlines()  # named by its label, not by its value
        assert computer.type("30", into="Set the volume") == \
            "Typed '30' into 'Set the volume' in the dialog 'Volume'."
        with pytest.raises(ValueError, match="goes from 0 to 100, not 150"):
            computer.type("150", into="slider")
        computer.press("OK")
        assert scale.result() == (0, "30")
    with Program("yad", "--scale", "--title=Brightness", "--value=20") as scale:
        scale.shown("Brightness")
        computer.type("75", window="Brightness")  # the dialog's one field
        computer.press("OK")
        assert scale.result() == (0, "75")


def test_type_into_the_window_titled_and_where_the_focus_is() -> None:
    with Program("yad", "--text-info", "--editable", "--title=Memo.txt") as memo, \
            question("Export", "Later?") as other:
        memo.shown("Memo.txt")
        other.shown("Export")
        assert computer.type("Dear Ana,", into="Memo.txt") == \
            "Typed 'Dear Ana,' into the window 'Memo.txt'."  # a window, not a field
        computer.write(" see you")  # where the focus now is
        computer.press("OK", window="Memo.txt")
        assert memo.result() == (0, "Dear Ana, see you")
        assert other.running()


def test_close_and_focus_a_window_by_title() -> None:
    with question("Export") as first, question("Rename", "Rename it?") as second:
        first.shown("Export")
        second.shown("Rename")
        assert computer.focus("Export") == "'Export' is in front."
        assert computer.windows.active()["title"] == "Export"
        assert computer.close("Rename") == "Closed the window 'Rename'."
        assert second.result()[0] == 1  # closed, not answered
        assert first.running()


def test_read_a_window_and_the_screen_as_text() -> None:
    with Program("zenity", "--list", "--checklist", "--title=Backup", "--text=What to back up",
                 "--column=Do", "--column=Folder", "FALSE", "Photos", "TRUE", "Music") as a, \
            Program("yad", "--text-info", "--title=Build", "--filename=/etc/hostname") as b, \
            question() as c:
        a.shown("Backup")
        b.shown("Build")
        c.shown("Export")
        computer.focus("Export")
        screen = computer.screen()
        assert screen.startswith('Window "Export" (dialog, focused):\n'
                                 '  icon "Question"\n'
                                 "  text: Export the quarterly report now?\n"
                                 '  button "No"\n'
                                 '  button "Yes" (focused)\n')
        assert '  row "Photos" [ ]\n  row "Music" [x]\n' in screen
        assert screen.endswith('Other windows: "Build"')
        assert "x=" not in screen and "box" not in screen  # no pixel coordinates
        assert computer.read("Backup").startswith('Window "Backup" (dialog):\n')
        with open("/etc/hostname") as hostname:
            assert hostname.read().strip() in computer.read("Build")


def test_a_long_window_is_cut_to_the_budget_and_read_whole_by_its_title() -> None:
    from assistant.computer import screen_text

    rows = [each for n in range(60) for each in ("FALSE", f"Folder number {n} of the archive")]
    with Program("zenity", "--list", "--checklist", "--title=Archive", "--height=780",
                 "--text=What to keep", "--column=Keep", "--column=Folder", *rows) as big:
        big.shown("Archive")
        screen = computer.screen()
        whole = computer.read("Archive")
    assert len(screen) <= screen_text.BUDGET_CHARS + 200  # the heading and the last line
    assert screen.splitlines()[-1].endswith("more lines: computer.read('Archive')")
    kept = screen.splitlines()[1:-1]
    assert len(kept) > 10 and whole.splitlines()[1:len(kept) + 1] == kept  # the first ones
    assert len(whole.splitlines()) > len(kept) + 20 and "more lines" not in whole


def test_the_forms_models_write_anyway_work() -> None:
    with question() as asked:
        asked.shown("Export")
        yes = next(c for c in tree.window("Export").controls if c.name == "Yes")
        x, y = yes.center()  # the primary monitor, shown at its size: view = physical
        computer.mouse.click(x=x, y=y)  # pyautogui's keywords
        assert asked.result() == (0, "")
    with Program("zenity", "--entry", "--title=Rename", "--text=New name:") as entry:
        entry.shown("Rename")
        computer.keyboard.typewrite("a.txt", interval=0.05)
        computer.hotkey("ctrl+a")
        computer.typewrite("b.txt")
        computer.keyboard.press("Return")
        assert entry.result() == (0, "b.txt")


def test_a_disabled_button_is_refused_with_the_reason(tmp_path) -> None:
    from tests.support.gtk_app import GtkApp

    with GtkApp(tmp_path / "events.jsonl", x=100, y=100) as app:
        start = app.mark()
        with pytest.raises(LookupError, match="push button 'Delete' in the window 'Widgets' "
                                              r"is disabled \(greyed out\): do what enables "
                                              r"it first \(unticked there: 'Remember me'; "
                                              r"empty fields there: 'Customer', 'Notes'\)"):
            computer.press("Delete", window="Widgets")
        computer.tick("Remember me", window="Widgets")
        assert app.wait_for(lambda r: r["event"] == "toggled", after=start)["active"] is True
        assert not [r for r in app.records()[start:] if r["event"] == "clicked"]


def test_what_a_snippet_will_do_is_said_from_the_screen_before_it_runs() -> None:
    from assistant.computer import aim

    with Program("zenity", "--list", "--checklist", "--title=Backup", "--text=What to back up",
                 "--column=Do", "--column=Folder", "FALSE", "Photos", "TRUE", "Music") as a, \
            Program("zenity", "--forms", "--title=Sign in", "--text=Who",
                    "--add-entry=Your name:", "--add-password=Password:") as b:
        a.shown("Backup")
        b.shown("Sign in")
        code = ('computer.tick("Photos", "Music", window="Backup")\n'
                'computer.fill({"Your name:": "Ana", "Password:": "s3cret"})\n'
                'computer.press("Maybe")\ncomputer.key("ctrl+s")\ncomputer.close("Backup")\n'
                "computer.press(name)\n")
        said = [each.sentence for each in aim.foresee(code)]
        assert said[:4] == ["Ticks Photos in the dialog 'Backup'",
                            "Leaves ticked Music in the dialog 'Backup'",
                            "Types 'Ana' into 'Your name:' in 'Sign in'",
                            "Types 6 characters into 'Password:' in 'Sign in'"]
        assert said[4].startswith("Would press 'Maybe', which is not on screen now (no button "
                                  "'Maybe' on screen; buttons in the dialog ")
        assert "'Sign in': Cancel, OK" in said[4] and "'Backup': Cancel, OK" in said[4]
        assert said[5].startswith("Presses the keys Ctrl+S in the dialog ")
        assert said[6:] == ["Closes the dialog 'Backup'",
                            "Presses a control named only when the code runs"]
        assert a.running() and b.running()  # nothing was done


def test_a_label_no_field_has_misses_where_the_window_has_more_than_one_field() -> None:
    with Program("yad", "--form", "--title=Contact", "--field=Name", "--field=Email") as form:
        form.shown("Contact")
        with pytest.raises(verbs.NotOnScreen, match="no field 'Phone number'"):
            computer.type("555", into="Phone number")
        computer.type("Ada", into="Your name:")  # Name: the one field whose words it says
        with pytest.raises(verbs.NotOnScreen, match="no button 'File' on screen; buttons in "):
            computer.press("File")
        assert form.running()
        computer.press("OK")
        assert form.result()[1].startswith("Ada|")
