"""Reading a request over a form in front as the verbs' code that fills it: each value
by the word of its label it is said with, a date as the field writes dates, a number
beside its label, a box by its own words; the form's confirming button unless the
request only fills. Anything else (a negation, no value found, no form) is the
model's."""

from __future__ import annotations

import pytest

from assistant.computer.coords import Rect
from assistant.computer.tree import Control, Window
from assistant.loop.forms import read

EDITABLE = ("enabled", "editable")


def control(name: str, role: str, value: str = "", states: tuple[str, ...] = ("enabled",),
            label: bool = False) -> Control:
    return Control(name, role, Rect(0, 0, 10, 10), frozenset(states), "", value, label=label)


DENTIST = Window("Dentist", "frame", True, 1, [
    control("Patient name", "label", label=True), control("Patient name", "text", "", EDITABLE),
    control("Preferred date", "text", "2026-03-02", EDITABLE),
    control("Cancel", "push button"), control("OK", "push button")])
CONTACT = Window("New contact", "frame", True, 2, [
    control("Name", "text", "", EDITABLE), control("Email", "text", "", EDITABLE),
    control("Cancel", "push button"), control("OK", "push button")])
EXPORT = Window("Export photos", "frame", True, 3, [
    control("Long edge (px)", "spin button", "1024", EDITABLE),
    control("Remove location data", "check box"), control("Cancel", "push button"),
    control("OK", "push button")])


TICKET = Window("Help - Chromium", "frame", True, 4, [
    Control("Address and search bar", "entry", Rect(0, 0, 10, 10), frozenset(EDITABLE), "",
            "127.0.0.1/ticket", chrome=True),
    control("Subject", "entry", "", EDITABLE), control("Low", "radio button"),
    control("Normal", "radio button", "", ("enabled", "checked")),
    control("High", "radio button"), control("Send ticket", "push button")])


CONTACT_PAGE = Window("Contact - Chromium", "frame", True, 6, [
    Control("Address and search bar", "entry", Rect(0, 0, 10, 10), frozenset(EDITABLE), "",
            "127.0.0.1/contact", chrome=True),
    control("Your name", "entry", "", EDITABLE),
    control("Message", "entry", "", (*EDITABLE, "multi line")), control("Send", "push button")])
RENAME = Window("Rename", "dialog", True, 9, [
    control("New name for the file:", "text", "", EDITABLE), control("Cancel", "push button"),
    control("OK", "push button")])
SUPPORT_PAGE = Window("Support - Chromium", "frame", True, 8, [
    *CONTACT_PAGE.controls[:2], control("Email", "entry", "", EDITABLE),
    *CONTACT_PAGE.controls[2:]])
SUPPORT_FILLED = ('computer.fill({"Your name": "Maria Gomez", "Email": "maria@example.com", '
                  '"Message": "My order never arrived"}, window="Support - Chromium")\n'
                  'computer.press("Send", window="Support - Chromium")')


@pytest.mark.parametrize(("request_", "window", "code"), [
    ("Book me in on the 14th of March please, the name's Omar Haddad.", DENTIST,
     'computer.fill({"Patient name": "Omar Haddad", "Preferred date": "2026-03-14"}, '
     'window="Dentist")\ncomputer.press("OK", window="Dentist")'),
    ("Enter Ada Lovelace as the name and ada@example.org as the email, then press OK",
     CONTACT, 'computer.fill({"Name": "Ada Lovelace", "Email": "ada@example.org"}, '
              'window="New contact")\ncomputer.press("OK", window="New contact")'),
    ("please put Ada in the name box", CONTACT,
     'computer.fill({"Name": "Ada"}, window="New contact")'),  # only filled: not confirmed
    ("Name: Ada Lovelace, Email: 'ada@example.org'. Save it.", CONTACT,
     'computer.fill({"Name": "Ada Lovelace", "Email": "ada@example.org"}, '
     'window="New contact")\ncomputer.press("OK", window="New contact")'),
    ("I need them 2048 pixels on the long side, and strip the location data out. Go.",
     EXPORT, 'computer.fill({"Long edge (px)": "2048"}, window="Export photos")\n'
             'computer.tick("Remove location data", window="Export photos")\n'
             'computer.press("OK", window="Export photos")'),
    ("file a ticket: it's a billing issue, high priority, and the subject should be "
     "'Charged twice in March'", TICKET,
     'computer.fill({"Subject": "Charged twice in March"}, window="Help - Chromium")\n'
     'computer.choose("High", window="Help - Chromium")\n'
     'computer.press("Send ticket", window="Help - Chromium")'),  # a page's one button
    ("Use the contact page to tell them the lamp arrived broken. I'm Jo Park.", CONTACT_PAGE,
     'computer.fill({"Your name": "Jo Park", "Message": "The lamp arrived broken"}, '
     'window="Contact - Chromium")\ncomputer.press("Send", window="Contact - Chromium")'),
    ("Fill in the repair request: Flat 12, phone 07700 900123.", Window("Repair", "dialog",
                                                                       True, 7, [
         control("Flat number", "text", "", EDITABLE), control("Phone", "text", "", EDITABLE),
         control("OK", "push button")]),
     'computer.fill({"Flat number": "12", "Phone": "07700 900123"}, window="Repair")'),
    ("my message is, the lamp arrived broken. I'm Jo Park.", CONTACT_PAGE,
     'computer.fill({"Your name": "Jo Park", "Message": "The lamp arrived broken"}, '
     'window="Contact - Chromium")\ncomputer.press("Send", window="Contact - Chromium")'),
    ("Deliver it on the 2nd of June 2027 please", Window("Delivery", "dialog", True, 5, [
        control("", "calendar"), control("Cancel", "push button"), control("OK", "push button")]),
     'computer.choose("the 2nd of June 2027", window="Delivery")\n'
     'computer.press("OK", window="Delivery")'),  # a calendar: its day, as said
    ("Send support a note from Maria Gomez, maria@example.com: 'My order never arrived'.",
     SUPPORT_PAGE, SUPPORT_FILLED),  # each value by its kind, and a "never" quoted
    ("fill in the form as Maria Gomez with maria@example.com and send 'My order never "
     "arrived'", SUPPORT_PAGE, SUPPORT_FILLED),
    ("The file name says Untitled. Change it to budget.", Window("Save", "dialog", True, 5, [
        control("File name", "text", "Untitled", EDITABLE), control("OK", "push button")]),
     'computer.fill({"File name": "budget"}, window="Save")\n'
     'computer.press("OK", window="Save")'),  # what it shows now is no value; "it" is it
    ("The rename box is asking for a new name. Give it report-final.", RENAME,
     'computer.fill({"New name for the file:": "report-final"}, window="Rename")\n'
     'computer.press("OK", window="Rename")'),  # the one field, said of "it"
])
def test_values_said_beside_their_labels_or_known_by_kind_fill_the_form_in_front(
        request_: str, window: Window, code: str) -> None:
    assert read(request_, [window]) == code


@pytest.mark.parametrize(("request_", "window"), [
    ("Book me in, but not on the 14th", DENTIST),  # a negation: the model's
    ("book me in please", DENTIST),  # no value said
    ("put Ada in the name box", Window("New contact", "frame", False, 2,
                                       CONTACT.controls)),  # not in front
    ("the name is Ada", Window("Notes - Editor", "frame", True, 4, [
        control("File", "menu"), *CONTACT.controls])),  # a program's window, not a form
    ("put the name field in", CONTACT),  # no value beside the label
    ("Send it, my email is ada@example.org", CONTACT),  # a send, and the name left empty
    ("Send a message saying 'Where is my order?'", CONTACT_PAGE),  # the same
    ("I'm Jo Park. Send them the message: the lamp arrived broken.", Window(
        "Contact - Chromium", "frame", True, 6, [*CONTACT_PAGE.controls,
                                                 control("", "entry", "", EDITABLE)])),
    # a field without a name left empty
    ("The file name says Untitled.", Window("Save", "dialog", True, 5, [
        control("File name", "text", "Untitled", EDITABLE), control("OK", "push button")])),
    # what the field shows now, said after a word of its label: no value for it
    ("Give it a good name", RENAME),  # a description of a value, not one
    ("Send it with the name 'Maria Gomez', maria@example.com", SUPPORT_PAGE),
    # the one quoted text is the name's: the message stays empty
    ("My order never arrived, send it as Maria Gomez, maria@example.com", SUPPORT_PAGE),
    # a negation said, not quoted
])
def test_anything_else_is_the_models(request_: str, window: Window) -> None:
    assert read(request_, [window]) is None
