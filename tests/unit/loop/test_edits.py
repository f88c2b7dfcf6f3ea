"""Reading a spoken edit of the one editor on screen as the editing verbs' code without
the model: only when every clause of it reads as an edit, and a word to replace is in the
editor's text; anything else is the model's."""

from __future__ import annotations

import pytest

from assistant.computer.coords import Rect
from assistant.computer.tree import Control, Window
from assistant.loop.edits import read


def area(text: str) -> Control:
    return Control("", "text", Rect(0, 0, 800, 500),
                   frozenset({"enabled", "editable", "multi line"}), "", text)


LETTER = Window("letter.txt - Mousepad", "frame", True, 1,
                [area("Dear Bob,\nSee you on Monday at noon.\nAnna\n")])
NOTE = Window("*note.txt - Mousepad", "frame", True, 2, [area("")])
DIALOG = Window("Export", "dialog", False, 3,
                [Control("Yes", "push button", Rect(0, 0, 10, 10), frozenset({"enabled"}),
                         "", "")])


@pytest.mark.parametrize(("request_", "windows", "code"), [
    ("In the letter open in Mousepad, change Monday to Friday and save the file.", [LETTER],
     'computer.replace("Monday", "Friday", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ('Type "buy milk" into the empty note open in Mousepad and save it.', [NOTE, DIALOG],
     'computer.type("buy milk", window="note.txt - Mousepad")\n'
     'computer.save(window="note.txt - Mousepad")'),
    ('Add "PS: bring the slides" as a new last line of the letter, then save.', [LETTER],
     'computer.type("PS: bring the slides\\n", window="letter.txt - Mousepad", at="end")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("save it", [LETTER], 'computer.save(window="letter.txt - Mousepad")'),
    ('write "Regards" in it', [LETTER],
     'computer.type("Regards", window="letter.txt - Mousepad", at="end")'),
    ("Replace the word noon with \"one o'clock\" and save it as moved.txt", [LETTER],
     'computer.replace("noon", "one o\'clock", window="letter.txt - Mousepad")\n'
     'computer.save_as("moved.txt", window="letter.txt - Mousepad")'),
    ('Type "hi" into the note and save the note in Mousepad under the new name hi.txt',
     [NOTE], 'computer.type("hi", window="note.txt - Mousepad")\n'
             'computer.save_as("hi.txt", window="note.txt - Mousepad")'),
    ("The editor has my shopping list open. Put eggs on the end of the list and save it, "
     "please.", [LETTER],
     'computer.type("eggs\\n", window="letter.txt - Mousepad", at="end")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("add a line saying call Bob at the bottom", [NOTE],
     'computer.type("call Bob\\n", window="note.txt - Mousepad", at="end")'),
    ("Put passport at the very top of my list in Mousepad. Save it when you're done.",
     [LETTER], 'computer.type("passport\\n", window="letter.txt - Mousepad", at="start")\n'
               'computer.save(window="letter.txt - Mousepad")'),
    ('add "To do" as the first line of the letter', [LETTER],
     'computer.type("To do\\n", window="letter.txt - Mousepad", at="start")'),
    ("Delete the line that says see you and save it.", [LETTER],
     'computer.replace("See you on Monday at noon.", "", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ('remove the line with "Anna" from the letter', [LETTER],
     'computer.replace("Anna", "", window="letter.txt - Mousepad")'),
    ("My week plan is open in Mousepad. Change Monday to Thursday on every line where it "
     "appears and save the file.", [LETTER],
     'computer.replace("Monday", "Thursday", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ('Could you open a new document in Mousepad, write "first draft" in it and save it as '
     'draft.txt next to my notes?', [LETTER],
     'computer.focus("letter.txt - Mousepad")\ncomputer.key("ctrl+n")\n'
     'computer.type("first draft")\ncomputer.save_as("draft.txt")'),
    ("Replace Monday with Friday in the letter and save it.", [LETTER],
     'computer.replace("Monday", "Friday", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("Change the name Bob to Robert in the letter open in Mousepad", [LETTER],
     'computer.replace("Bob", "Robert", window="letter.txt - Mousepad")'),
    ("Replace Dear Bob with Dear Robert and save", [LETTER],
     'computer.replace("Dear Bob", "Dear Robert", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("swap Monday for Friday", [LETTER],
     'computer.replace("Monday", "Friday", window="letter.txt - Mousepad")'),
    ("Type 'P.S. bring snacks' at the end of the letter and save.", [LETTER],
     'computer.type("P.S. bring snacks\\n", window="letter.txt - Mousepad", at="end")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("Add a line 'See you' to the end of the letter in Mousepad", [LETTER],
     'computer.type("See you\\n", window="letter.txt - Mousepad", at="end")'),
    ('write the line "Regards" at the end', [LETTER],
     'computer.type("Regards\\n", window="letter.txt - Mousepad", at="end")'),
    ("Write the text 'buy milk' in the note and save it.", [NOTE],
     'computer.type("buy milk", window="note.txt - Mousepad")\n'
     'computer.save(window="note.txt - Mousepad")'),
    ("Put passport at the very top of my list in Mousepad, I nearly forgot it last time. "
     "Save it when you're done.", [LETTER],
     'computer.type("passport\\n", window="letter.txt - Mousepad", at="start")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("theres a typo in the letter i have open, monday should be Friday. can you fix it and "
     "save", [LETTER],
     'computer.replace("monday", "Friday", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("Create a new file in Mousepad with the text 'hello world' and save it as hello.txt",
     [LETTER], 'computer.focus("letter.txt - Mousepad")\ncomputer.key("ctrl+n")\n'
               'computer.type("hello world")\ncomputer.save_as("hello.txt")'),
    ("Write 'hello world' in a new Mousepad document and save it as hello.txt", [LETTER],
     'computer.focus("letter.txt - Mousepad")\ncomputer.key("ctrl+n")\n'
     'computer.type("hello world")\ncomputer.save_as("hello.txt")'),
    ("Write a memo saying 'Team lunch' in the note, then press Ctrl+S", [NOTE],
     'computer.type("Team lunch", window="note.txt - Mousepad")\n'
     'computer.save(window="note.txt - Mousepad")'),
    ("In the note, type: 'Team lunch'. Then save it.", [NOTE],
     'computer.type("Team lunch", window="note.txt - Mousepad")\n'
     'computer.save(window="note.txt - Mousepad")'),
    ("Delete the last line of the letter and save it.", [LETTER],
     'computer.replace("Anna", "", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("remove the second line", [LETTER],
     'computer.replace("See you on Monday at noon.", "", window="letter.txt - Mousepad")'),
    ("remove the Monday line from the letter", [LETTER],
     'computer.replace("See you on Monday at noon.", "", window="letter.txt - Mousepad")'),
    ("Remove Anna from the letter and save it", [LETTER],
     'computer.replace("Anna", "", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("Would you mind changing Bob to Robert in both places and saving it?", [LETTER],
     'computer.replace("Bob", "Robert", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("uh, replace all occurrences of noon with one and hit save pls", [LETTER],
     'computer.replace("noon", "one", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("find and replace Monday -> Friday, save", [LETTER],
     'computer.replace("Monday", "Friday", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("use Robert instead of Bob throughout the letter", [LETTER],
     'computer.replace("Bob", "Robert", window="letter.txt - Mousepad")'),
    ("update the letter so it says Friday instead of Monday, then save afterwards", [LETTER],
     'computer.replace("Monday", "Friday", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("rename Bob to Robert all through the letters", [LETTER],
     'computer.replace("Bob", "Robert", window="letter.txt - Mousepad")'),
    ("take 'Anna' out of the letter and save that", [LETTER],
     'computer.replace("Anna", "", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("remove the Anna entry", [LETTER],
     'computer.replace("Anna", "", window="letter.txt - Mousepad")'),
    ("write Lunch at one in the note and save", [NOTE],
     'computer.type("Lunch at one", window="note.txt - Mousepad")\n'
     'computer.save(window="note.txt - Mousepad")'),
    ("fill the empty note with the line 'Lunch at one'", [NOTE],
     'computer.type("Lunch at one", window="note.txt - Mousepad")'),
    ("put exactly 'Lunch at one' in note.txt", [NOTE],
     'computer.type("Lunch at one", window="note.txt - Mousepad")'),
    ("I'm in a hurry: rename Bob to Robert and hit save.", [LETTER],
     'computer.replace("Bob", "Robert", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("make a new note saying 'Lunch' and save it as lunch.txt in the current folder",
     [LETTER], 'computer.focus("letter.txt - Mousepad")\ncomputer.key("ctrl+n")\n'
               'computer.type("Lunch")\ncomputer.save_as("lunch.txt")'),
    ("change every 'Bob' in the letter to 'Robert', then save", [LETTER],
     'computer.replace("Bob", "Robert", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("He prefers his full name, so replace both occurrences of Bob with Robert in "
     "letter.txt and save.", [LETTER],
     'computer.replace("Bob", "Robert", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("can you make me a fresh doc that says 'Lunch' and save it here as lunch.txt?",
     [LETTER], 'computer.focus("letter.txt - Mousepad")\ncomputer.key("ctrl+n")\n'
               'computer.type("Lunch")\ncomputer.save_as("lunch.txt")'),
    ("Delete line 2 and save", [LETTER],
     'computer.replace("See you on Monday at noon.", "", window="letter.txt - Mousepad")\n'
     'computer.save(window="letter.txt - Mousepad")'),
    ("Would you mind deleting the middle line, 'See you on Monday at noon.', and saving?",
     [LETTER], 'computer.replace("See you on Monday at noon.", "", window="letter.txt - '
               'Mousepad")\ncomputer.save(window="letter.txt - Mousepad")'),
    ("cross off Anna", [LETTER], 'computer.replace("Anna", "", window="letter.txt - Mousepad")'),
    ("get rid of the line that mentions Monday", [LETTER],
     'computer.replace("See you on Monday at noon.", "", window="letter.txt - Mousepad")'),
])
def test_an_edit_of_the_one_editor_is_read_as_the_editing_verbs(
        request_: str, windows: list[Window], code: str) -> None:
    assert read(request_, windows) == code


@pytest.mark.parametrize(("request_", "windows"), [
    ("change Tuesday to Friday", [LETTER]),  # not in the text
    ("don't change Monday to Friday", [LETTER]),  # a negation
    ("change Monday to Friday", [LETTER, NOTE]),  # which editor?
    ("change Monday to Friday", [DIALOG]),  # no editor
    ("change Monday to Friday and email it to Bob", [LETTER]),  # a clause of other words
    ('type "Ana" into the Name field', [LETTER]),  # a field, not the editor
    ("save it as my letter", [LETTER]),  # not a file's name
    ("Open a new document in Mousepad and email it to Bob", [LETTER]),
    ("delete the line with an o", [LETTER]),  # more than one line has it
    ("delete the line about the party", [LETTER]),  # no line has it
    ("put the whole of my long shopping list for the week on the end", [LETTER]),  # words
    ("it should say Friday", [LETTER]),  # which word is "it"?
    ("fix it", [LETTER]),  # no edit said
    ("delete the fifth line", [LETTER]),  # it has three
    ("remove Bob from the letter", [LETTER]),  # no line is just that: a word, or the line?
    ("open a new document in the calendar with the text 'hi'", [LETTER]),  # not the editor
    ("change Monday to Friday, I want it mailed to Bob too", [LETTER]),  # an aside that asks
    ("replace Monday with Friday in the calendar", [LETTER]),  # not the editor
    ("I don't think it's right: change Monday to Friday", [LETTER]),  # a negation
    ("put 75 in the number box on this page", [Window("Factory", "frame", True, 4, [
        area("Lorem ipsum"), Control("", "spin button", Rect(0, 0, 10, 10),
                                     frozenset({"enabled", "editable"}), "", "50")])]),
    # a window with other fields than its text area is no editor
    ("write a note in the letter", [LETTER]),  # a description of a text, not the text
    ("write the date in the letter", [LETTER]),
    ("put Robert in place of Bob in the letter", [LETTER]),  # more than the editor's name
    ("use Robert instead of Bob in the calendar", [LETTER]),  # not the editor
    ("cross off Monday", [LETTER]),  # no line is these words whole
    ("delete the middle line", [Window("list.txt - Mousepad", "frame", True, 5,
                                       [area("milk\neggs\n")])]),  # two lines: no middle
])
def test_anything_else_is_the_models(request_: str, windows: list[Window]) -> None:
    assert read(request_, windows) is None
