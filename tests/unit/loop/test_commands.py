"""Reading a spoken command as the verbs' code without the model: only when every part
of it names a control of the windows given exactly; anything else is the model's."""

from __future__ import annotations

import pytest

from assistant.computer.coords import Rect
from assistant.computer.tree import Control, Window
from assistant.loop.commands import read, said_button
from assistant.loop.said import unframed


def control(name: str, role: str, value: str = "") -> Control:
    return Control(name, role, Rect(0, 0, 10, 10), frozenset({"enabled"}), "", value)


EXPORT = Window("Export", "dialog", True, 1, [control("Export the report now?", "label"),
                                              control("No", "push button"),
                                              control("Yes", "push button")])
BACKUP = Window("Backup", "dialog", False, 2, [control("Photos", "check box"),
                                               control("Music", "check box"),
                                               control("Cancel", "push button"),
                                               control("OK", "push button")])
COLOUR = Window("Colour", "dialog", False, 3, [control("red", "table cell"),
                                               control("green", "table cell"),
                                               control("OK", "push button")])
FORM = Window("Sign in", "dialog", False, 4, [control("Your name:", "text"),
                                              control("Set the volume", "slider", "50")])
SIGNUP = Window("Sign up", "dialog", False, 5, [control("First name", "text"),
                                               control("Last name", "text"),
                                               control("Email", "text"),
                                               control("Cancel", "push button"),
                                               control("OK", "push button")])
CHOOSER = Window("Open a file", "file chooser", False, 6, [control("Name", "push button"),
                                                         control("Cancel", "push button"),
                                                         control("OK", "push button")])
SAVING = Window("Save minutes", "file chooser", False, 7, [control("Name:", "text"),
                                                          control("Cancel", "push button"),
                                                          control("OK", "push button")])
SCREEN = [EXPORT, BACKUP, COLOUR, FORM, SIGNUP, CHOOSER]


@pytest.mark.parametrize(("request_", "code"), [
    ("click Yes", 'computer.press("Yes")'),
    ("Click yes.", 'computer.press("Yes")'),  # as Whisper writes it
    ("Click, yes.", 'computer.press("Yes")'),
    ("The export dialog is waiting. Click yes.", 'computer.press("Yes")'),
    ("Tick, Photos, and Music.",
     'computer.tick("Photos", window="Backup")\ncomputer.tick("Music", window="Backup")'),
    ("please press the No button", 'computer.press("No")'),
    ("say no to the delete question", 'computer.press("No")'),
    ("Don't delete anything; say no to the delete question.", 'computer.press("No")'),
    ("Not now, click No", 'computer.press("No")'),
    ("press enter", 'computer.key("enter")'),
    ("click on OK in the Backup window", 'computer.press("OK", window="Backup")'),
    ("close the export dialog", 'computer.close("Export")'),
    ("Choose green in the colour dialog.",  # a dialog of one choice: answered
     'computer.choose("green", window="Colour")\ncomputer.press("OK", window="Colour")'),
    ("choose green in the colour dialog and confirm",
     'computer.choose("green", window="Colour")\ncomputer.press("OK", window="Colour")'),
    ("tick Photos and Music and confirm",
     'computer.tick("Photos", window="Backup")\ncomputer.tick("Music", window="Backup")\n'
     'computer.press("OK", window="Backup")'),
    ("tick Photos and Music and press OK",
     'computer.tick("Photos", window="Backup")\ncomputer.tick("Music", window="Backup")\n'
     'computer.press("OK", window="Backup")'),
    ('type "Ana Lopez" into your name',
     'computer.type("Ana Lopez", into="Your name:", window="Sign in")'),
    ("set the volume to 30", 'computer.type("30", into="Set the volume", window="Sign in")'),
    ("Fill in the sign-up form with first name Lin, last name Wu and email lin@example.net, "
     "and send it.",
     'computer.type("Lin", into="First name", window="Sign up")\n'
     'computer.type("Wu", into="Last name", window="Sign up")\n'
     'computer.type("lin@example.net", into="Email", window="Sign up")\n'
     'computer.press("OK", window="Sign up")'),
    ('fill the sign up dialog with the email "ana and bob@example.org" then submit it',
     'computer.type("ana and bob@example.org", into="Email", window="Sign up")\n'
     'computer.press("OK", window="Sign up")'),
    ("Open report.txt in the file dialog.",
     'computer.choose("report.txt", window="Open a file")\n'
     'computer.press("OK", window="Open a file")'),
])
def test_a_command_naming_controls_on_screen_is_read_as_the_verbs(request_: str,
                                                                 code: str) -> None:
    assert read(request_, SCREEN) == code


@pytest.mark.parametrize("request_", [
    "click Maybe",  # no such button
    "click Ye",  # a part of a name is not the name
    "Don't say yes; say no",  # a negated verb: the model weighs it
    "say no, not Yes",  # a negated name
    "don't tick Photos and press OK",
    'never mind "Photos", press OK',  # a quoted name
    "what does the dialog say?",
    "tick Photos and back up my music",  # words left over
    'type "Ana" into Phone',  # no such field
    "open the file",
    "open report in the file dialog",  # no extension: not a file's name for sure
    "tick",  # nothing named
    "click",
    "fill in the sign-up form with the phone 555 1234",  # no such field
    "fill in the order form with first name Lin",  # no such window
])
def test_anything_else_is_the_models(request_: str) -> None:
    assert read(request_, SCREEN) is None


@pytest.mark.parametrize("request_", [
    "The save dialog is waiting. Save under the name minutes.txt.",
    "save it as minutes.txt",
    "Save the file as minutes.txt",
])
def test_a_name_to_save_under_goes_to_the_save_dialog_on_screen(request_: str) -> None:
    assert read(request_, [SAVING, EXPORT]) == \
        'computer.save("minutes.txt", window="Save minutes")'
    assert read(request_, SCREEN) is None  # no Save dialog: an editor's, or the model's


def test_accept_ticks_the_box_that_says_it_accepts_and_goes_on_or_presses_accept() -> None:
    licence = Window("Licence", "dialog", True, 8, [
        control("You may use this program as you like.", "text"),
        control("I have read and accept the terms", "check box"),
        control("Cancel", "push button"), control("OK", "push button")])
    assert read("Accept the licence shown on screen.", [licence, EXPORT]) == (
        'computer.tick("I have read and accept the terms")\ncomputer.press("OK")')
    setup = Window("Setup", "dialog", True, 9, [control("I Agree", "push button"),
                                                control("Cancel", "push button")])
    assert read("accept the agreement", [setup]) == 'computer.press("I Agree")'
    assert read("accept the terms", SCREEN) is None  # nothing on screen accepts


def test_a_clause_that_is_a_buttons_whole_name_presses_it() -> None:
    update = Window("Update", "dialog", True, 10, [
        control("Version 2.1 is out.", "label"), control("Remind me tomorrow", "push button"),
        control("Skip this version", "push button"), control("Install", "push button")])
    assert read("Remind me tomorrow.", [update]) == 'computer.press("Remind me tomorrow")'
    assert read("An update window popped up. The skip this version button, please",
                [update]) == 'computer.press("Skip this version")'
    assert read("remind me next week", [update]) is None


def test_the_one_button_a_request_says_over_a_dialog_of_buttons_is_pressed_whatever_else_it_says(
        ) -> None:
    """"Remind me tomorrow, I'm in a meeting" leaves words no control names: `read` gives
    it to the model, and `said_button` presses the one button said, unless the request
    negates anything, says two buttons, or the dialog has more than buttons to set."""
    update = Window("Update", "dialog", True, 10, [
        control("Version 2.1 is out.", "label"), control("Remind me tomorrow", "push button"),
        control("Install now", "push button"), control("OK", "push button")])
    request = "Remind me tomorrow about it, I'm in a meeting all morning"
    assert read(request, [update]) is None
    assert said_button(request, [update]) == 'computer.press("Remind me tomorrow")'
    assert said_button("ok, remind me tomorrow then", [update]) == \
        'computer.press("Remind me tomorrow")'  # OK is said in passing
    for other in ("Don't remind me tomorrow, install it", "install now or remind me tomorrow",
                  "later please"):
        assert said_button(other, [update]) is None, other
    assert said_button("remind me tomorrow", [Window("Update", "dialog", False, 10,
                                                     update.controls)]) is None  # not in front
    backup = Window("Backup", "dialog", True, 2, [*BACKUP.controls,
                                                  control("Back up now", "push button")])
    assert said_button("back up now, photos too", [backup]) is None  # boxes to set: the model's


def test_a_choice_answers_a_dialog_of_one_choice_but_not_one_with_a_field_to_fill() -> None:
    """A list and OK: the row chosen, then OK. A field beside the list is still to be
    filled, so the dialog is left waiting."""
    trip = Window("Trip", "dialog", True, 8, [
        control("Tent", "table cell"), control("Hut", "table cell"),
        Control("Guests", "text", Rect(0, 0, 10, 10), frozenset({"enabled", "editable"}), ""),
        control("OK", "push button")])
    assert read("choose Hut", [trip]) == 'computer.choose("Hut")'
    assert read("choose green", [COLOUR]) == 'computer.choose("green")\ncomputer.press("OK")'


@pytest.mark.parametrize("request_", [
    "In the file chooser, pick report.txt and open it.", "Select report.txt and click OK.",
    "Choose the file report.txt in the open dialog", "Open the file called report.txt",
    "The file picker is waiting. Open report.txt from it.", "Pick report.txt",
    "Could you please select report.txt in this dialog and open it?",
    "I'm in a hurry, just open the report.txt file."])
def test_a_file_named_in_a_file_chooser_is_opened_however_it_is_said(request_: str) -> None:
    """The chooser named by its kind, the file by "the file called", chosen or picked,
    and an "open it" or "click OK" after the open is the open itself, not a second press."""
    assert read(request_, [CHOOSER, EXPORT]) == \
        'computer.choose("report.txt")\ncomputer.press("OK")'


def test_a_file_whose_name_has_spaces_or_a_folder_is_opened_in_the_chooser() -> None:
    assert read("open 'Holiday plan.txt'", [CHOOSER]) == \
        'computer.choose("Holiday plan.txt")\ncomputer.press("OK")'
    assert read("open notes/todo.txt in the file dialog", [CHOOSER]) == \
        'computer.choose("notes/todo.txt")\ncomputer.press("OK")'



def test_a_field_named_by_its_role_word_and_a_switch_said_on_are_read() -> None:
    """"the number box" is the one enabled number field (a disabled one beside it is no
    choice), as the verb will find it; "turn ... on" ticks."""
    factory = Window("Factory", "frame", True, 9, [
        Control("label", "spin button", Rect(0, 0, 10, 10),
                frozenset({"enabled", "editable"}), "", "50"),
        Control("label", "spin button", Rect(0, 0, 10, 10), frozenset({"editable"}), ""),
        control("Record", "toggle button")])
    assert read("Set the number box to 75", [factory]) == 'computer.type("75", into="number")'
    assert read("change the number box from 50 to 75", [factory]) == \
        'computer.type("75", into="number")'
    assert read("turn the Record button on", [factory]) == 'computer.tick("Record")'
    assert read("switch off Record", [factory]) == 'computer.untick("Record")'


def test_a_page_is_gone_to_by_its_number_and_a_tab_said_as_one_is_the_tabs() -> None:
    factory = Window("Factory", "frame", True, 9, [
        control("Page 3", "radio button"), control("page 3", "page tab")])
    assert read("go to the third page", [factory]) == 'computer.choose("Page 3")'
    assert read("open the tab page 3", [factory]) == 'computer.press("page 3")'


def test_a_tab_by_its_place_a_page_in_a_part_of_the_window_and_a_number_box_by_a_word(
        ) -> None:
    factory = Window("Factory", "frame", True, 9, [
        control("Page 1", "radio button"), control("Page 2", "radio button"),
        control("tab one", "page tab"), control("tab two", "page tab"),
        control("tab three", "page tab"), control("tab one", "page tab"),
        control("", "spin button", "50")])
    assert read("switch to the third tab", [factory]) == 'computer.press("tab three")'
    assert read("select the last tab of the notebook", [factory]) == \
        'computer.press("tab three")'
    assert read("select the fourth tab", [factory]) is None  # its row has three
    assert read("Show Page 2 at the top of the window", [factory]) == \
        'computer.choose("Page 2")'
    assert read("Show Page 2 in the printer", [factory]) is None  # no such part
    assert read("uh, set the spin button to 75 pls", [factory]) == \
        'computer.type("75", into="spin")'


@pytest.mark.parametrize(("request_", "into"), [
    ("change the number in the spin box from 50 to 75", "spin"),
    ("bump the spin button up to 75", "spin"), ("raise the spinner from 50 up to 75", "spinner"),
    ("enter 75 in the spin button", "spin"), ("just put 75 in that number box", "number"),
    ("Could you please set the numeric field on Page 2 of the Widget Factory to 75?",
     "numeric")])  # where said by the window's title and a control's name
def test_a_number_set_by_other_verbs_or_said_of_the_fields_value_goes_into_it(
        request_: str, into: str) -> None:
    """A number needs no quotes, a field is raised or bumped to it, and "the number in
    the spin box" is the spin box's."""
    factory = Window("gtk3-widget-factory", "frame", True, 9, [
        control("Page 2", "radio button"), control("", "spin button", "50")])
    assert read(request_, [factory]) == f'computer.type("75", into="{into}")'


def test_a_clause_that_only_says_why_is_set_aside_and_one_that_asks_is_not() -> None:
    assert read("Click yes, it's out of date anyway", [EXPORT]) == 'computer.press("Yes")'
    assert read("Click yes. I’m sure.", [EXPORT]) == 'computer.press("Yes")'
    assert read("Click yes, I want it mailed to Bob too", [EXPORT]) is None


def test_a_request_not_to_do_something_presses_the_button_that_says_so() -> None:
    """"Don't save that! Just close it" over a close prompt: its Don't Save, which closes
    it; no such button on screen, and the request is the model's."""
    prompt = Window("Save Changes", "dialog", True, 12, [
        control("Do you want to save the changes before closing?", "label"),
        control("Cancel", "push button"), control("Don't Save", "push button"),
        control("Save", "push button")])
    assert read("Don't save that! Just close it.", [prompt]) == 'computer.press("Don\'t Save")'
    assert read("close it without saving", [prompt]) == 'computer.press("Don\'t Save")'
    assert read("Don't save. Close the save changes dialog.", [prompt]) == \
        'computer.press("Don\'t Save")'
    assert read("Don't save that! Just close it.", [EXPORT]) == 'computer.close("Export")'
    assert read("Don't cancel. Close it.", [prompt]) is None


def test_a_window_is_named_by_whole_words_of_its_title_or_as_it() -> None:
    edits = Window("Unsaved edits", "dialog", False, 11, [control("Cancel", "push button")])
    assert read("close it", [EXPORT, edits]) == 'computer.close("Export")'  # the one in
    assert read("close the edits dialog", [edits]) == 'computer.close("Unsaved edits")'  # front


def test_a_close_said_without_doing_something_closes_when_no_button_says_so() -> None:
    """yad's close is its own answer (252): "get rid of that dialog without deleting
    anything" over Move to Trash and Delete permanently."""
    photos = Window("Delete photos", "dialog", True, 13, [
        control("Delete the 4 selected photos?", "label"),
        control("Move to Trash", "push button"), control("Delete permanently", "push button")])
    request = ("I don't want to delete those photos. Get rid of that dialog without "
               "deleting anything.")
    assert read(request, [photos]) == 'computer.close("Delete photos")'
    assert read("close it without pressing Delete permanently", [photos]) is None  # a name


def test_nothing_on_screen_reads_nothing() -> None:
    assert read("click Yes", []) is None


@pytest.mark.parametrize(("request_", "said"), [
    ("The export dialog is waiting. Click yes.", "Click yes."),
    ("Mousepad has my shopping list open. Add eggs at the bottom and save it.",
     "Add eggs at the bottom and save it."),
    ("A question is up: say no to it", "say no to it"),
    ("Click yes.", "Click yes."),
    ("Press OK. Then close the window.", "Press OK. Then close the window."),  # both commands
    ("I don't want the export. Say no.", "I don't want the export. Say no."),  # a negation
    ("The answer is yes.", "The answer is yes."),  # the last sentence stays
])
def test_sentences_that_only_say_what_is_on_screen_are_set_aside(request_: str,
                                                                 said: str) -> None:
    assert unframed(request_) == said
