"""The verbs on Debian's Mousepad editor, under openbox with the accessibility bus up:
typing into the window named by its file, saving with its keys and through GTK's Save As
file chooser by the Name field's label. The file on disk proves what was done."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant import Assistant, computer
from assistant.computer.aim import foresee
from assistant.computer.finding import NotOnScreen
from assistant.events import Proposal, RuleFired, RunEnd
from assistant.loop.screen import front_example, speaks_of_text
from tests.support.desktop import Program, desktop
from tests.support.display import wait_until
from tests.support.llm_server import LLMServer, text, tool_call
from tests.support.loop import on_desktop


@pytest.fixture(scope="module", autouse=True)
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop("mousepad") as name:
        yield name


def _holds(path: Path, text: str) -> bool:
    return path.exists() and path.read_text() == text


def test_typing_into_the_editor_by_file_name_and_ctrl_s_saves_the_file(tmp_path: Path) -> None:
    memo = tmp_path / "memo.txt"
    memo.write_text("first line\n")
    with Program("mousepad", str(memo)) as editor:
        title = editor.titled("memo.txt")
        assert computer.type("Dear Ana,\n", window="memo.txt") == \
            f"Typed 'Dear Ana,\\n' into the window {title!r}."
        changed = editor.titled("*")  # Mousepad marks unsaved changes in its title
        screen = computer.screen()
        assert screen.startswith(f'Window "{changed}" (focused):\n')
        assert '  text area = "Dear Ana, first line" (focused)' in screen.splitlines()
        assert memo.read_text() == "first line\n"  # typed, not yet saved
        computer.key("ctrl+s")
        wait_until(lambda: _holds(memo, "Dear Ana,\nfirst line\n"), "memo.txt saved", 10)
        wait_until(lambda: not computer.windows.active()["title"].startswith("*"),
                   "the '*' of unsaved changes gone from the title", 5)


def test_save_as_by_name_through_the_file_chooser_in_one_go(tmp_path: Path) -> None:
    memo = tmp_path / "memo.txt"
    memo.write_text("first line\n")
    with Program("mousepad", str(memo)) as editor:
        editor.titled("memo.txt")
        computer.type("Dear Ana,\n", window="memo.txt")
        computer.key("ctrl+shift+s")  # the calls a model writes in one run, no waits:
        computer.type("final.txt", into="Name")  # the chooser is waited for
        computer.press("Save")
        final = tmp_path / "final.txt"
        wait_until(lambda: _holds(final, "Dear Ana,\nfirst line\n"), "final.txt saved", 10)
        assert memo.read_text() == "first line\n"  # the old file as it was
        assert "final.txt - Mousepad" in editor.titled("final.txt")


def test_a_new_document_is_saved_by_name_with_ctrl_s(tmp_path: Path) -> None:
    with Program("mousepad", cwd=str(tmp_path)) as editor:
        editor.titled("Untitled")
        computer.type("Shopping: milk, eggs", window="Untitled")
        computer.key("ctrl+s")  # a new document: the Save As dialog, Save greyed out
        computer.type("list.txt", into="Name")  # enables Save, as typing does
        assert computer.press("Save") == "Pressed Save in the dialog 'Save As'."
        wait_until(lambda: _holds(tmp_path / "list.txt", "Shopping: milk, eggs"),
                   "list.txt saved in the folder Mousepad started in", 10)


def test_the_file_chooser_shows_its_name_field_by_its_label(tmp_path: Path) -> None:
    memo = tmp_path / "memo.txt"
    memo.write_text("first line\n")
    with Program("mousepad", str(memo)) as editor:
        editor.titled("memo.txt")
        computer.type("Dear Ana,\n", window="memo.txt")
        computer.key("ctrl+shift+s")
        Program.shown(editor, "Save As")
        chooser = computer.read("Save As")
        assert chooser.startswith('Window "Save As" (file chooser, focused):\n')
        assert '  field "Name:" = "memo.txt" (focused)' in chooser.splitlines()  # its label
        [row] = [line for line in chooser.splitlines() if 'row "memo.txt"' in line]
        assert row.startswith('  row "memo.txt": 11 bytes, Text, ')  # a file, one line
        assert computer.type("final.txt", into="Name") == \
            "Typed 'final.txt' into 'Name:' in the dialog 'Save As'."
        assert computer.press("Save") == "Pressed Save in the dialog 'Save As'."
        final = tmp_path / "final.txt"
        wait_until(lambda: _holds(final, "Dear Ana,\nfirst line\n"), "final.txt saved", 10)
        assert memo.read_text() == "first line\n"  # the old file as it was
        assert "final.txt - Mousepad" in editor.titled("final.txt")


def test_a_turn_types_into_the_editor_and_saves_it_approved_by_what_it_will_hit(
        server: LLMServer, tmp_path: Path) -> None:
    memo = tmp_path / "memo.txt"
    memo.write_text("first line\n")
    code = 'computer.type("Dear Ana,\\n", window="memo.txt")\ncomputer.key("ctrl+s")'
    server.add(tool_call("python", code), text("Saved memo.txt with the new line."))
    asked: list[Proposal] = []

    def approver(proposal: Proposal) -> bool:
        asked.append(proposal)
        return True

    with Program("mousepad", str(memo)) as editor:
        title = editor.titled("memo.txt")
        with Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                       code_style="tools", screen_format="text", journal=False,
                       approver=approver) as assistant:
            events = list(assistant.turn("add the line Dear Ana to memo.txt and save it"))
        wait_until(lambda: _holds(memo, "Dear Ana,\nfirst line\n"), "memo.txt saved", 10)
    shown = str(server.chat_requests[0].body["messages"][-2]["content"])
    assert f'Window "{title}" (focused):' in shown and 'text area = "first line"' in shown
    [proposal] = asked
    assert proposal.effect is not None
    assert proposal.effect.summary.startswith(f"Types 'Dear Ana,\\n' into the window {title!r}")
    [end] = [e for e in events if isinstance(e, RunEnd)]
    assert end.exit_status == 0


def test_a_label_copied_from_an_example_types_into_the_empty_editor_but_never_over_text(
        tmp_path: Path) -> None:
    """Models copy `into="Your name:"` from the guide: in a window whose one field is an
    empty text area, that field is meant; one holding text is never typed over so."""
    note = tmp_path / "note.txt"
    note.write_text("")
    with Program("mousepad", str(note)) as editor:
        editor.titled("note.txt")
        said = computer.type("buy milk", into="Your name:")
        assert said.startswith("Typed 'buy milk' into the text area in the window "), said
        computer.key("ctrl+s")
        wait_until(lambda: _holds(note, "buy milk"), "note.txt saved with the text", 10)
        with pytest.raises(NotOnScreen, match="no field 'Your name:'"):
            computer.type("feed the cat", into="Your name:")
        assert note.read_text() == "buy milk"


def test_a_menu_of_the_menu_bar_is_pressed_open_and_its_item_pressed(tmp_path: Path) -> None:
    """Models save through the menus as a person does: File, then Save As…, by name."""
    memo = tmp_path / "memo.txt"
    memo.write_text("first line\n")
    with Program("mousepad", str(memo)) as editor:
        title = editor.titled("memo.txt")
        assert computer.press("File") == f"Pressed File in the window {title!r}."
        assert computer.press("Save As").startswith("Pressed Save As")
        computer.type("copy.txt", into="Name")
        computer.press("Save")
        wait_until(lambda: _holds(tmp_path / "copy.txt", "first line\n"), "copy.txt saved", 10)


def test_a_note_typed_and_saved_is_not_typed_again_when_the_model_proposes_it_again(
        server: LLMServer, tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("")
    code = 'computer.type("buy milk", into="Your name:")\ncomputer.key("ctrl+s")'
    server.add(tool_call("python", code), tool_call("python", code), tool_call("python", code),
               text("Saved."))
    asked: list[Proposal] = []

    def approver(proposal: Proposal) -> bool:
        asked.append(proposal)
        return True

    with Program("mousepad", str(note)) as editor:
        editor.titled("note.txt")
        with Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                       code_style="tools", screen_format="text", journal=False,
                       checks_off="screen.command", approver=approver) as assistant:
            events = list(assistant.turn("type buy milk into the note and save it"))
        wait_until(lambda: _holds(note, "buy milk"), "note.txt saved once", 10)
    assert len(asked) == 1 and len([e for e in events if isinstance(e, RunEnd)]) == 1
    assert len(server.chat_requests) == 3  # told once, stopped at the third


def test_replace_changes_every_word_in_the_editor_and_save_writes_it(tmp_path: Path) -> None:
    letter = tmp_path / "letter.txt"
    letter.write_text("Dear Bob,\nSee you on Monday at noon, monday for sure.\nAnna\n")
    with Program("mousepad", str(letter)) as editor:
        title = editor.titled("letter.txt")
        said = computer.replace("Monday", "Friday", window="letter.txt")
        assert said == (f"Replaced 'Monday' with 'Friday' once in the window {title!r}; "
                        "not saved yet.")  # as written first; any case only when none is
        assert letter.read_text().count("Monday") == 1  # in the editor, not on disk
        assert computer.save(window="letter").startswith("Saved the window ")
        wait_until(lambda: _holds(letter, "Dear Bob,\nSee you on Friday at noon, "
                                  "monday for sure.\nAnna\n"), "letter.txt saved", 10)
        computer.replace("MONDAY", "Sunday")  # the focused editor; no such case: any case
        computer.save()
        wait_until(lambda: "Sunday for sure" in letter.read_text(), "saved again", 10)


def test_a_whole_line_replaced_with_nothing_is_deleted_with_its_line_break(
        tmp_path: Path) -> None:
    chores = tmp_path / "chores.txt"
    chores.write_text("Water the plants\nFeed the cat\nTake out the bins\n")
    with Program("mousepad", str(chores)) as editor:
        title = editor.titled("chores.txt")
        said = computer.replace("Feed the cat", "", window="chores.txt")
        assert said == (f"Deleted the line 'Feed the cat' once in the window {title!r}; "
                        "not saved yet.")
        computer.replace("bins", "")  # a word, not a whole line: just the word
        computer.save()
        wait_until(lambda: _holds(chores, "Water the plants\nTake out the \n"),
                   "chores.txt saved", 10)


def test_the_approval_names_the_editor_each_editing_call_acts_on(tmp_path: Path) -> None:
    letter = tmp_path / "letter.txt"
    letter.write_text("See you on Monday.\n")
    with Program("mousepad", str(letter)) as editor:
        title = editor.titled("letter.txt")
        code = ('computer.replace("Monday", "Friday", window="letter.txt")\n'
                'computer.save(window="letter.txt")\ncomputer.save_as("copy.txt")')
        assert [aim.sentence for aim in foresee(code)] == [
            f"Replaces 'Monday' with 'Friday' in the text of the window {title!r}, "
            "not saving it",
            f"Saves the file of the window {title!r}",
            f"Saves the text of the window {title!r} as the file 'copy.txt' (in the working "
            "folder unless a whole path; an existing file is not replaced)"]
        [as_name] = foresee('computer.save("letter.txt", "copy.txt")')
        assert as_name.sentence.startswith(f"Saves the text of the window {title!r} as the "
                                           "file 'copy.txt'")
        [copied] = foresee('computer.save(window="See you on Monday.")')  # its text as a
        assert copied.sentence == f"Saves the file of the window {title!r}"  # title: the one
    [miss] = foresee('computer.save(window="letter.txt")')  # editor; none, and it is a miss
    assert miss.sentence.startswith("Would save a file, but finds no editor now (no window "
                                    "titled 'letter.txt'; ")


def test_replace_of_a_word_not_in_the_text_says_how_the_text_begins(tmp_path: Path) -> None:
    letter = tmp_path / "letter.txt"
    letter.write_text("Dear Bob,\nSee you soon.\n")
    with Program("mousepad", str(letter)) as editor:
        title = editor.titled("letter.txt")
        with pytest.raises(NotOnScreen, match=f"no 'Tuesday' in the text of the window "
                           f"{title!r}; it begins 'Dear Bob, See you soon.'"):
            computer.replace("Tuesday", "Friday", window="letter.txt")


def test_save_as_writes_the_text_under_a_name_in_the_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recipe = tmp_path / "recipe.txt"
    recipe.write_text("2 carrots\n")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # a run's working folder, not the one the editor started in
    with Program("mousepad", str(recipe)) as editor:
        editor.titled("recipe.txt")
        said = computer.save_as("soup.txt", window="recipe.txt")
        assert said.startswith("Saved the window ") and said.endswith(f"as '{work}/soup.txt'.")
        assert (work / "soup.txt").read_text() == "2 carrots\n"
        assert recipe.read_text() == "2 carrots\n"
        editor.titled("soup.txt")
        computer.save("soup.txt", "stew.txt")  # the forms models write for a new name
        computer.save("broth.txt")  # no window is so titled: a name
        assert (work / "stew.txt").read_text() == (work / "broth.txt").read_text() == \
            "2 carrots\n"


def test_save_as_over_an_existing_file_leaves_the_question_to_the_person(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kept.txt").write_text("keep me\n")
    with Program("mousepad", str(tmp_path / "new.txt")) as editor:
        editor.titled("new.txt")
        computer.type("other text", window="new.txt")
        with pytest.raises(NotOnScreen, match="exists already: the dialog asks whether to "
                           "replace it"):
            computer.save_as("kept.txt")
        assert (tmp_path / "kept.txt").read_text() == "keep me\n"
        computer.press("Cancel")  # the question, then the chooser
        computer.press("Cancel")
        computer.save_as("other.txt")  # nothing left unsaved for the next start to restore
        assert (tmp_path / "other.txt").read_text() == "other text"


def test_save_of_a_document_without_a_file_asks_for_a_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with Program("mousepad", cwd=str(tmp_path)) as editor:
        editor.titled("Untitled")
        computer.type("draft", window="Untitled")
        with pytest.raises(NotOnScreen, match="has no file yet: give it a name, "
                           r'computer.save_as\("name.txt"'):
            computer.save()
        wait_until(lambda: not any("Save" in w["title"] for w in computer.windows.list()),
                   "the chooser closed again", 5)
        computer.save_as("draft.txt")
        wait_until(lambda: _holds(tmp_path / "draft.txt", "draft"), "draft.txt saved", 10)


def test_a_line_is_added_after_the_text_and_by_the_text_copied_as_a_name(
        tmp_path: Path) -> None:
    """at="end" types after the editor's text; a text area named by the text it holds (as
    the screen shows it, a small model takes it for a name) is typed into after it too,
    never typed over."""
    todo = tmp_path / "todo.txt"
    todo.write_text("water the plants\nwash the car\n")
    with Program("mousepad", str(todo)) as editor:
        title = editor.titled("todo.txt")
        [aim] = foresee('computer.type("feed the cat", window="todo.txt", at="end")')
        assert aim.sentence == f"Types 'feed the cat' into the window {title!r} after its text"
        assert computer.type("feed the cat\n", window="todo.txt", at="end") == \
            f"Typed 'feed the cat\\n' into the window {title!r} after its text."
        said = computer.type("feed the dog", into="water the plants wash the car feed the cat")
        assert said.endswith("after its text.")
        computer.save()
        wait_until(lambda: _holds(todo, "water the plants\nwash the car\nfeed the cat\n"
                                  "feed the dog"), "todo.txt saved with the lines added", 10)



def test_a_spoken_edit_of_the_editor_is_read_without_the_model_and_saved(
        server: LLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule screen.command for an editor: the replace and the save are proposed at once,
    approved by what they will change, and the turn ends on their run (rule screen.done):
    the model is never asked."""
    monkeypatch.chdir(tmp_path)
    letter = tmp_path / "letter.txt"
    letter.write_text("Dear Bob,\nSee you on Monday at noon.\nAnna\n")
    server.add(text("(never asked)"))
    with Program("mousepad", str(letter)) as editor:
        title = editor.titled("letter.txt")
        asked, events = on_desktop(server, "In the letter open in Mousepad, change Monday "
                                           "to Friday and save the file.")
        wait_until(lambda: _holds(letter, "Dear Bob,\nSee you on Friday at noon.\nAnna\n"),
                   "letter.txt saved with Friday", 10)
    [proposal] = asked
    assert proposal.code == (f'computer.replace("Monday", "Friday", window="{title}")\n'
                             f'computer.save(window="{title}")')
    assert proposal.effect is not None and "Monday" in proposal.effect.summary
    assert server.chat_requests == []
    [end] = [e for e in events if isinstance(e, RunEnd)]
    assert end.exit_status == 0
    assert [e.rule for e in events if isinstance(e, RuleFired)][-1] == "screen.done"


def test_a_line_said_by_its_words_alone_starts_with_the_screen_and_is_deleted_unasked(
        server: LLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A request with no word about the screen or the file ("Delete the line 'call the
    bank' and save.") speaks of the editor's text: the turn starts with the screen, so
    the edit is read (rule screen.command) and the model is never asked."""
    monkeypatch.chdir(tmp_path)
    todo = tmp_path / "todo.txt"
    todo.write_text("buy milk\ncall the bank\nwater the plants\n")
    server.add(text("(never asked)"))
    with Program("mousepad", str(todo)) as editor:
        editor.titled("todo.txt")
        assert speaks_of_text("cross off call the bank, it is done")
        assert speaks_of_text("Delete line 2 and save")  # a line, with the editor in front
        assert not speaks_of_text("how much disk space is free on the machine")
        asked, events = on_desktop(server, "Delete the line 'call the bank' and save.")
        wait_until(lambda: _holds(todo, "buy milk\nwater the plants\n"),
                   "todo.txt saved without the line", 10)
    assert len(asked) == 1 and server.chat_requests == []
    assert [e.rule for e in events if isinstance(e, RuleFired)][:2] == \
        ["screen.attach", "screen.command"]


def test_a_replace_of_a_word_the_text_lacks_is_left_to_the_model(
        server: LLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    letter = tmp_path / "letter.txt"
    letter.write_text("Dear Bob,\nSee you on Monday.\n")
    server.add(text("There is no Tuesday in the letter."))
    with Program("mousepad", str(letter)) as editor:
        editor.titled("letter.txt")
        asked, _ = on_desktop(server, "In the letter open in Mousepad, change Tuesday to "
                                      "Friday and save the file.")
    assert asked == [] and server.chat_requests  # not read: the model was asked


def test_code_that_writes_the_file_open_in_the_editor_then_saves_there_is_told_not_run(
        server: LLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A small model wrote guests.txt itself, then saved the editor (whose own text went
    back over it): told, never asked; then it replaces in the editor, and one editor on
    screen takes a save whose title was copied wrong (the text it holds)."""
    monkeypatch.chdir(tmp_path)
    guests = tmp_path / "guests.txt"
    guests.write_text("Guest list\nTom Becker\nJun Park\n")
    behind = ('with open("guests.txt", "w") as f:\n    f.write("Guest list\\nPriya Becker\\n'
              'Jun Park\\n")\ncomputer.save(window="guests.txt")')
    server.add(tool_call("python", behind),
               tool_call("python", 'computer.replace("Tom", "Priya", window="guests.txt")\n'
                                   'computer.save(window="Guest list Tom Becker")'),
               text("Priya is on the list."))
    with Program("mousepad", str(guests)) as editor:
        title = editor.titled("guests.txt")
        asked, events = on_desktop(server, "Put Priya Becker in place of Tom Becker on my "
                                           "guest list and save it.")
        wait_until(lambda: _holds(guests, "Guest list\nPriya Becker\nJun Park\n"),
                   "guests.txt saved by the editor with Priya", 10)
    assert [p.code for p in asked] == [
        'computer.replace("Tom", "Priya", window="guests.txt")\n'
        'computer.save(window="Guest list Tom Becker")']
    said = str(server.chat_requests[1].body["messages"])
    assert "guests.txt is open in the window" in said and title in said
    assert "screen.offscreen" in [e.rule for e in events if isinstance(e, RuleFired)]


def test_a_line_typed_at_the_start_goes_before_the_text_and_the_approval_says_so(
        tmp_path: Path) -> None:
    packing = tmp_path / "packing.txt"
    packing.write_text("sun cream\nsandals\n")
    with Program("mousepad", str(packing)) as editor:
        title = editor.titled("packing.txt")
        code = 'computer.type("passport\\n", window="packing.txt", at="top")'
        assert [aim.sentence for aim in foresee(code)] == [
            f"Types 'passport\\n' into the window {title!r} before its text"]
        assert computer.type("passport\n", window="packing.txt", at="top") == \
            f"Typed 'passport\\n' into the window {title!r} before its text."
        computer.save(window="packing.txt")
        wait_until(lambda: _holds(packing, "passport\nsun cream\nsandals\n"),
                   "packing.txt saved with passport first", 10)


def test_get_and_set_the_whole_text_as_models_write_it_then_save(tmp_path: Path) -> None:
    """computer.get("text_area"), the text changed in Python, computer.set(...): what a
    small model wrote, unasked, to fix a typo in the note open in Mousepad."""
    note = tmp_path / "neighbours.txt"
    note.write_text("Hello,\nCould one of you recieve it?\n")
    with Program("mousepad", str(note)) as editor:
        title = editor.titled("neighbours.txt")
        text = computer.get("text_area")
        assert text == "Hello,\nCould one of you recieve it?\n"
        code = 'computer.set("text_area", "Hello,\\nCould one of you receive it?\\n")'
        assert [aim.sentence for aim in foresee(code)] == [
            f"Replaces the whole text of the window {title!r} with "
            "'Hello,\\nCould one of you receive it?\\n', not saving it"]
        assert computer.set("text_area", text.replace("recieve", "receive")) == \
            f"Set the whole text of the window {title!r} (36 characters); not saved yet."
        assert computer.get(window="neighbours.txt").endswith("receive it?\n")
        computer.save(window="neighbours.txt")
        wait_until(lambda: _holds(note, "Hello,\nCould one of you receive it?\n"),
                   "neighbours.txt saved with the typo fixed", 10)


def test_the_lines_told_for_an_editor_in_front_name_its_file(tmp_path: Path) -> None:
    """Code off the screen is told with the lines that change the file in the editor."""
    note = tmp_path / "guests.txt"
    note.write_text("Tom Becker\n")
    with Program("mousepad", str(note)) as editor:
        editor.titled("guests.txt")
        wait_until(lambda: "guests.txt" in front_example(), "the editor in front", 10)
        assert front_example().endswith(
            "computer.replace(..., ..., window='guests.txt')\n"
            "computer.type(..., window='guests.txt', at=\"end\")\n"
            "computer.save(window='guests.txt')")
