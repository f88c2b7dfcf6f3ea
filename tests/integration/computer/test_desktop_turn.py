"""A whole turn over real dialogs: the scripted model asks for a press, the person is told
what it will hit from the dialog's own tree (never the model's words), and the dialog's
exit status proves what happened."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant import Assistant
from assistant.computer import tree
from assistant.events import Proposal, RuleFired, RunEnd, TurnEnd
from assistant.loop.screen import front_example, says_a_button
from assistant.voice.speakable import speak_proposal
from tests.support.desktop import Program, desktop
from tests.support.llm_server import LLMServer, text, tool_call


@pytest.fixture(scope="module", autouse=True)
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop() as name:
        yield name


def make(server: LLMServer, asked: list[Proposal], answer: bool = True,
         off: str = "screen.command") -> Assistant:
    """The default install's way: the screen as text, every proposal shown to a person;
    `off`: rules turned off (by default the reading of a command without the model:
    these turns are the model's)."""
    def approver(proposal: Proposal) -> bool:
        asked.append(proposal)
        return answer

    return Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                     code_style="tools", screen_format="text", journal=False,
                     checks_off=off, approver=approver)


def test_click_yes_over_a_real_question_ends_with_the_dialog_answered(
        server: LLMServer) -> None:
    asked: list[Proposal] = []
    server.add(tool_call("python", 'computer.press("Yes")', text="I will click Yes."),
               text("Done: I pressed Yes."))
    with Program("zenity", "--question", "--title=Export",
                 "--text=Export the quarterly report now?") as dialog:
        dialog.focused("Export")
        with make(server, asked, off="screen.command,screen.done") as assistant:  # asked again
            events = list(assistant.turn("click Yes"))
        assert dialog.result() == (0, "")  # zenity's own word: Yes was pressed
    *_, screen, request = server.chat_requests[0].body["messages"]
    assert request["content"] == "click Yes"  # read last: what to do, after the screen
    assert 'Window "Export" (dialog, focused)' in str(screen["content"])
    assert 'button "Yes"' in str(screen["content"])
    [proposal] = asked
    assert proposal.effect is not None and proposal.risk == "medium"
    assert proposal.effect.summary == "Presses Yes in the dialog 'Export'."
    spoken = speak_proposal(proposal.language, proposal.code, "I will click Yes.",
                            effect=proposal.effect)
    assert spoken.startswith("Presses Yes in the dialog 'Export'.") and "I will" not in spoken
    [end] = [e for e in events if isinstance(e, RunEnd)]
    assert end.exit_status == 0 and end.output == "Pressed Yes in the dialog 'Export'.\n"
    told = str(server.chat_requests[1].body["messages"])
    assert "Pressed Yes in the dialog 'Export'." in told  # the bare call's value, shown


def test_a_click_that_lands_on_a_delete_button_is_high_and_says_so(
        server: LLMServer) -> None:
    """The code names a point, not a word: the tree tells what is there."""
    asked: list[Proposal] = []
    with Program("zenity", "--question", "--title=Drafts", "--text=Delete all drafts?",
                 "--ok-label=Delete", "--cancel-label=Keep") as dialog:
        dialog.shown("Drafts")
        button = next(c for c in tree.window("Drafts").controls if c.name == "Delete")
        x, y = button.center()
        server.add(tool_call("python", f"computer.click(x={x}, y={y})"), text("Stopped."))
        with make(server, asked, answer=False) as assistant:
            list(assistant.turn("click the button in the middle of the dialog"))
        assert dialog.running()  # declined: nothing was pressed
    [proposal] = asked
    assert proposal.risk == "high"
    assert proposal.effect is not None
    assert proposal.effect.summary == "Clicks Delete in the dialog 'Drafts'."
    assert any("presses 'Delete' in 'Drafts'" in reason and "cannot be undone" in reason
               for reason in proposal.reasons), proposal.reasons


def test_typing_into_a_form_says_the_field_and_the_window(server: LLMServer) -> None:
    asked: list[Proposal] = []
    server.add(tool_call("python", 'computer.type("Ana Lopez", into="Your name:")\n'
                                   'computer.press("OK")'), text("Signed in."))
    with Program("zenity", "--forms", "--title=Sign in", "--text=Who are you",
                 "--add-entry=Your name:") as form:
        form.shown("Sign in")
        with make(server, asked) as assistant:
            list(assistant.turn("sign in as Ana Lopez in the dialog"))
        assert form.result() == (0, "Ana Lopez")
    [proposal] = asked
    assert proposal.effect is not None
    assert proposal.effect.summary == ("Types 'Ana Lopez' into 'Your name:' in 'Sign in'. "
                                       "Presses OK in the dialog 'Sign in'.")


def test_a_request_naming_a_window_on_screen_starts_with_the_screen(
        server: LLMServer) -> None:
    """"the sync list" has no word about screens; the window titled Sync is what it means."""
    asked: list[Proposal] = []
    server.add(tool_call("python", 'computer.tick("Music")\ncomputer.press("OK")'),
               text("Music is synced."))
    with Program("zenity", "--list", "--checklist", "--title=Sync", "--text=Folders to sync",
                 "--column=Sync", "--column=Folder", "FALSE", "Documents", "FALSE",
                 "Music") as dialog:
        dialog.focused("Sync")
        with make(server, asked) as assistant:
            list(assistant.turn("select Music in the sync list"))
        assert dialog.result() == (0, "Music")
    *_, screen, request = server.chat_requests[0].body["messages"]
    assert request["content"] == "select Music in the sync list"
    assert 'Window "Sync" (dialog, focused)' in str(screen["content"])
    assert len(server.chat_requests) == 1  # the screen shows it done (rule screen.done)


def test_a_choice_the_screen_shows_made_is_not_run_again_and_the_repeats_end_the_turn(
        server: LLMServer) -> None:
    asked: list[Proposal] = []
    choose = 'computer.choose("green")'
    server.add(tool_call("python", choose), tool_call("python", choose),
               tool_call("python", choose), text("I chose green."))
    with Program("zenity", "--list", "--radiolist", "--title=Colour", "--column=Pick",
                 "--column=Colour", "FALSE", "red", "FALSE", "green") as dialog:
        dialog.focused("Colour")
        with make(server, asked) as assistant:
            events = list(assistant.turn("choose green in the colour dialog"))
        rows = [c for w in tree.windows("Colour") for c in w.controls if c.toggle]
        assert [r.name for r in rows if r.checked] == ["green"]
    assert len(asked) == 1 and len([e for e in events if isinstance(e, RunEnd)]) == 1
    assert len(server.chat_requests) == 3  # told once, stopped at the third
    assert "'green' is now chosen" in str(server.chat_requests[1].body["messages"])


def test_code_that_would_not_touch_the_dialog_is_told_not_run_and_the_verbs_then_answer_it(
        server: LLMServer) -> None:
    asked: list[Proposal] = []
    server.add(tool_call("python", 'import subprocess\nsubprocess.run(["zenity", "--question"])'),
               tool_call("python", 'computer.press("Yes")'), text("I pressed Yes."))
    with Program("zenity", "--question", "--title=Export",
                 "--text=Export the quarterly report now?") as dialog:
        dialog.focused("Export")
        with make(server, asked) as assistant:
            events = list(assistant.turn("click Yes in the export dialog"))
        assert dialog.result() == (0, "")
    assert [p.code for p in asked] == ['computer.press("Yes")']  # the first never asked
    assert "screen.offscreen" in [e.rule for e in events if isinstance(e, RuleFired)]
    assert "does not act in" in str(server.chat_requests[1].body["messages"][-1])


def test_code_off_the_screen_over_a_waiting_form_is_told_with_lines_in_the_forms_names(
        server: LLMServer) -> None:
    """No word of the request is about the screen, and the model posts the booking to an
    invented site: the form in front waits, so the post is told, not run, with lines in
    the form's own names; the fill that follows books it."""
    asked: list[Proposal] = []
    post = 'import requests\nrequests.post("https://example.com/book", data={"name": "Omar"})'
    fill = ('computer.fill({"Patient name": "Omar Haddad"}, window="Dentist")\n'
            'computer.press("OK", window="Dentist")')
    server.add(tool_call("python", post), tool_call("python", fill), text("Booked."))
    with Program("yad", "--form", "--title=Dentist", "--field=Patient name", "",
                 "--field=Visit type:CB", "Check-up!Cleaning") as form:
        form.focused("Dentist")
        with make(server, asked) as assistant:
            events = list(assistant.turn("Book me in please, the name's Omar Haddad"))
        assert form.result() == (0, "Omar Haddad|Check-up|")
    assert [p.code for p in asked] == [fill]  # the post never asked
    assert "screen.offscreen" in [e.rule for e in events if isinstance(e, RuleFired)]
    told = str(server.chat_requests[1].body["messages"][-1])
    assert "computer.fill({'Patient name': ..., 'Visit type': ...}, window='Dentist')" in told
    assert "computer.press('OK', window='Dentist')" in told


def test_a_dialog_of_buttons_alone_is_told_by_its_buttons_with_no_line_that_presses_one(
        ) -> None:
    """Which button to press is the whole question: no line presses one for the model."""
    with Program("yad", "--title=Update", "--text=Version 2.1 is ready.",
                 "--button=Remind me tomorrow:2", "--button=Install now:0") as dialog:
        dialog.focused("Update")
        assert front_example() == (
            " The window in front is 'Update', with the buttons 'Remind me tomorrow', "
            "'Install now': press the one the request asks for, "
            "computer.press(..., window='Update').")


# A spoken command that names only controls on screen, read without the model
# (loop/commands.py, rule screen.command): the scripted server shows whether it was asked.

def unasked(server: LLMServer, argv: tuple[str, ...], title: str, request: str
            ) -> tuple[list[Proposal], tuple[int, str]]:
    """One turn over the program `argv` in front, its window titled `title`, whose code is
    read without the model: the proposals, and the program's exit status and output."""
    asked: list[Proposal] = []
    server.add(text("(never asked)"))
    with Program(*argv) as window:
        window.focused(title)
        with make(server, asked, off="") as assistant:
            list(assistant.turn(request))
        result = window.result()
    assert server.chat_requests == []
    return asked, result


def test_click_yes_is_pressed_without_asking_the_model(server: LLMServer) -> None:
    asked: list[Proposal] = []
    server.add(text("(never asked)"))
    with Program("zenity", "--question", "--title=Export",
                 "--text=Export the quarterly report now?") as dialog:
        dialog.focused("Export")
        with make(server, asked, off="") as assistant:
            events = list(assistant.turn("Click yes."))
        assert dialog.result() == (0, "")  # zenity's own word: Yes was pressed
    assert server.chat_requests == [] and server.pending == 1
    [proposal] = asked
    assert proposal.code == 'computer.press("Yes")' and proposal.effect is not None
    assert proposal.effect.summary == "Presses Yes in the dialog 'Export'."
    assert [e.action for e in events if isinstance(e, RuleFired)
            and e.rule == "screen.command"] == ["rewrite"]
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "answered"
    assert end.text.endswith("On screen now: the dialog 'Export' is gone.")


def test_the_one_button_said_over_a_dialog_of_buttons_is_pressed_without_the_model(
        server: LLMServer) -> None:
    """Words no control names ("I'm in a meeting") leave the whole read to the model; the
    one button the request says whole is pressed all the same."""
    asked, (status, _) = unasked(server, (
        "yad", "--title=Update", "--text=Version 2.1 is ready.",
        "--button=Remind me tomorrow:2", "--button=Install now:0"), "Update",
        "Remind me tomorrow about it, I'm in a meeting all morning")
    assert status == 2  # yad's own word: that button
    assert [p.code for p in asked] == ['computer.press("Remind me tomorrow")']


def test_a_choice_said_over_a_list_dialog_answers_it_without_the_model(
        server: LLMServer) -> None:
    """"Choose green in the colour dialog." over zenity's radio list: the row chosen,
    then its OK, so the dialog is answered, not left waiting with a row chosen."""
    asked, result = unasked(server, (
        "zenity", "--list", "--radiolist", "--title=Colour", "--column=Pick",
        "--column=Colour", "FALSE", "red", "FALSE", "green"), "Colour",
        "Choose green in the colour dialog.")
    assert result == (0, "green")  # zenity's own word: green, answered
    assert [p.code for p in asked] == [
        'computer.choose("green", window="Colour")\ncomputer.press("OK", window="Colour")']


def test_a_request_over_a_form_is_filled_by_its_labels_words_and_sent_without_the_model(
        server: LLMServer) -> None:
    """The name said with "name's", the drop-down's entry said as a word of the request,
    the date as the field writes dates: filled, and the form's OK pressed."""
    [proposal], result = unasked(server, (
        "yad", "--form", "--title=Dentist", "--field=Patient name", "",
        "--field=Visit type:CB", "Check-up!Cleaning!Filling", "--field=Preferred date",
        "2026-03-02"), "Dentist",
        "Book me in for a cleaning on the 14th of March please, the name's Omar Haddad.")
    assert result == (0, "Omar Haddad|Cleaning|2026-03-14|")
    assert proposal.effect is not None and "'Omar Haddad'" in proposal.effect.summary


def test_a_destructive_button_named_is_still_rated_high_and_declining_keeps_it(
        server: LLMServer) -> None:
    asked: list[Proposal] = []
    server.add(text("Left the drafts as they are."))
    with Program("zenity", "--question", "--title=Drafts", "--text=Delete all drafts?",
                 "--ok-label=Delete", "--cancel-label=Keep") as dialog:
        dialog.shown("Drafts")
        with make(server, asked, answer=False, off="") as assistant:
            list(assistant.turn("press Delete"))
        assert dialog.running()  # declined: nothing was pressed
    [proposal] = asked
    assert proposal.risk == "high" and proposal.effect is not None
    assert proposal.effect.summary.startswith("Presses Delete in the dialog 'Drafts'")


def test_a_form_filled_field_by_field_and_sent_is_read_without_the_model(
        server: LLMServer) -> None:
    [proposal], result = unasked(server, (
        "zenity", "--forms", "--title=Sign up", "--add-entry=First name",
        "--add-entry=Last name", "--add-entry=Email"), "Sign up",
        "Fill in the sign-up form with first name Lin, last name Wu and email "
        "lin@example.net, and send it.")
    assert result == (0, "Lin|Wu|lin@example.net")
    assert proposal.code == ('computer.type("Lin", into="First name")\n'
                             'computer.type("Wu", into="Last name")\n'
                             'computer.type("lin@example.net", into="Email")\n'
                             'computer.press("OK")')


def test_a_file_opened_by_name_in_a_file_chooser_is_read_without_the_model(
        server: LLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "q3-summary.txt").write_text("Q3 figures\n")  # a name no other test opens:
    # GTK lists the files opened in its choosers' Recent, where the verbs would find it
    monkeypatch.chdir(tmp_path)
    asked: list[Proposal] = []
    server.add(text("(never asked)"))
    with Program("zenity", "--file-selection", "--title=Open a file",
                 cwd=str(tmp_path)) as dialog:
        dialog.focused("Open a file")
        with make(server, asked, off="") as assistant:
            events = list(assistant.turn("Open q3-summary.txt in the file dialog."))
        assert dialog.result() == (0, str(tmp_path / "q3-summary.txt")), events
    assert server.chat_requests == []
    assert [p.code for p in asked] == ['computer.choose("q3-summary.txt")\ncomputer.press("OK")']


def test_a_name_to_save_under_said_over_a_save_dialog_is_read_without_the_model(
        server: LLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    asked: list[Proposal] = []
    server.add(text("(never asked)"))
    with Program("zenity", "--file-selection", "--save", "--title=Save minutes",
                 f"--filename={tmp_path}/", cwd=str(tmp_path)) as dialog:
        dialog.focused("Save minutes")
        with make(server, asked, off="") as assistant:
            list(assistant.turn("The save dialog is waiting. Save under the name minutes.txt."))
        assert dialog.result() == (0, str(tmp_path / "minutes.txt"))
    assert server.chat_requests == []  # nor after: the screen showed the dialog gone
    assert [p.code for p in asked] == ['computer.save("minutes.txt", window="Save minutes")']


def test_a_licence_accepted_by_voice_ticks_its_box_and_presses_ok_without_the_model(
        server: LLMServer, tmp_path: Path) -> None:
    (tmp_path / "licence.txt").write_text("Use it as you like. No warranty.\n")
    asked: list[Proposal] = []
    server.add(text("(never asked)"))
    with Program("zenity", "--text-info", "--title=Licence",
                 f"--filename={tmp_path / 'licence.txt'}",
                 "--checkbox=I have read and accept the terms") as dialog:
        dialog.focused("Licence")
        with make(server, asked, off="") as assistant:
            list(assistant.turn("Accept the licence shown on screen."))
        assert dialog.result()[0] == 0  # OK, which the box had enabled
    assert server.chat_requests == []
    assert [p.code for p in asked] == [
        'computer.tick("I have read and accept the terms")\ncomputer.press("OK")']


def test_a_request_that_says_a_buttons_words_presses_it_without_the_model(
        server: LLMServer) -> None:
    asked: list[Proposal] = []
    server.add(text("(never asked)"))
    with Program("yad", "--title=Update", "--text=Version 2.1 is out.",
                 "--button=Remind me tomorrow:3", "--button=Skip this version:6",
                 "--button=Install:0") as dialog:
        dialog.focused("Update")
        assert says_a_button("Remind me tomorrow.") and not says_a_button("remind me later")
        with make(server, asked, off="") as assistant:
            list(assistant.turn("Remind me tomorrow."))
        assert dialog.result()[0] == 3
    assert server.chat_requests == []
    assert [p.code for p in asked] == ['computer.press("Remind me tomorrow")']


def test_a_press_of_the_button_the_request_says_not_to_press_is_told_with_the_one_that_says_so(
        server: LLMServer) -> None:
    """The model presses Save; it is told, with the dialog's Don't Save to press instead."""
    asked: list[Proposal] = []
    server.add(tool_call("python", 'computer.press("Save")'),
               tool_call("python", 'computer.press("Don\'t Save")'), text("Closed unsaved."))
    with Program("zenity", "--question", "--title=Question", "--text=Save the recipe?",
                 "--ok-label=Save", "--cancel-label=Don't Save") as dialog:
        dialog.focused("Question")
        with make(server, asked) as assistant:
            events = list(assistant.turn("Don't save that! Just get rid of the question."))
        assert dialog.running()  # Save was never pressed
    [told] = [m["content"] for m in server.chat_requests[1].body["messages"]
              if "presses 'Save'" in str(m.get("content"))]
    assert """computer.press("Don't Save")""" in told
    [proposal] = asked  # the press of Save never reached the person
    assert proposal.code == 'computer.press("Don\'t Save")' and proposal.risk == "high"
    assert "screen.negated" in [e.rule for e in events if isinstance(e, RuleFired)]


def test_a_step_left_undone_goes_to_the_model_with_the_screen(server: LLMServer) -> None:
    """Ticked as said; the dialog still waits for its OK, so the model is asked next."""
    asked: list[Proposal] = []
    server.add(tool_call("python", 'computer.press("OK")'), text("Backed up."))
    with Program("zenity", "--list", "--checklist", "--title=Backup", "--text=What to back up",
                 "--column=Pick", "--column=Folder", "FALSE", "Photos", "FALSE", "Music",
                 "FALSE", "Videos") as dialog:
        dialog.shown("Backup")
        with make(server, asked, off="screen.done") as assistant:
            list(assistant.turn("tick Photos and Music"))
        assert dialog.result() == (0, "Photos|Music")
    assert [p.code for p in asked] == ['computer.tick("Photos")\ncomputer.tick("Music")',
                                       'computer.press("OK")']
    told = str(server.chat_requests[0].body["messages"])
    assert "the dialog 'Backup' is still open, with the buttons Cancel, OK" in told


def test_with_the_rule_off_the_model_is_asked(server: LLMServer) -> None:
    asked: list[Proposal] = []
    server.add(tool_call("python", 'computer.press("Yes")'), text("Pressed Yes."))
    with Program("zenity", "--question", "--title=Export", "--text=Export now?") as dialog:
        dialog.focused("Export")
        with make(server, asked) as assistant:  # the rule off, as in the tests above
            list(assistant.turn("click Yes"))
        assert dialog.result() == (0, "")
    assert len(server.chat_requests) >= 1


def test_a_command_spoken_over_a_waiting_dialog_is_to_it_and_a_question_is_answered(
        server: LLMServer) -> None:
    """No word of the request names the screen: the dialog in front waits for an answer,
    so it is attached, and an answer over nothing done is sent back; a question over it
    is answered as asked."""
    asked: list[Proposal] = []
    server.add(text("14"), tool_call("python", 'computer.press("This page only")'),
               text("Printing that page."), text("It asks where to print."))
    with Program("yad", "--title=Print", "--text=Print the minutes (14 pages)?",
                 "--button=All 14 pages:10", "--button=This page only:20",
                 "--button=Cancel:1") as dialog:
        dialog.focused("Print")
        with make(server, asked, off="screen.command,screen.done") as assistant:
            list(assistant.turn("only the current one, not all of them"))
            assert dialog.result()[0] == 20
    assert 'button "This page only"' in str(server.chat_requests[0].body["messages"])
    told = str(server.chat_requests[1].body["messages"][-1]["content"])
    assert "Nothing was done on screen" in told
    assert "with the buttons 'All 14 pages', 'This page only', 'Cancel'" in told
    assert [p.code for p in asked] == ['computer.press("This page only")']
    with Program("yad", "--title=Print", "--text=Print the minutes?", "--button=OK:0") as again:
        again.focused("Print")
        with make(server, asked) as assistant:
            events = list(assistant.turn("what does the print dialog want"))
        assert again.running()
    assert [e.text for e in events if isinstance(e, TurnEnd)] == ["It asks where to print."]
