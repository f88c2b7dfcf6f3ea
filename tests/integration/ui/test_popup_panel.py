"""The popup as a panel from the first word of a turn: the request and "Thinking…", the
LLM's words as they stream, then the proposal's buttons; and messages it shows alone when
nothing else can (no notification service)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from assistant.events import CodeDraft, Proposal, TextDelta, Tried, TurnEnd
from assistant.ui.popup import CLOSE_AFTER, Popup
from assistant.ui.popup_widgets import TITLES
from tests.integration.ui.test_popup import ask, press, session
from tests.support.display import wait_until

__all__ = ["session"]  # the fixture, shared with the popup's other tests


def streamed(popup: Popup) -> str:
    return popup.call(lambda w: w.stream.get("1.0", "end-1c")
                      if w.stream.winfo_ismapped() else "")


def test_the_panel_shows_the_request_then_the_words_then_the_proposal(
        popup: Popup, session: ThreadPoolExecutor) -> None:
    assert popup.begin("how much disk space is free")
    title, request, summary, buttons, focus = popup.call(lambda w: (
        w.root.title(), w.request.cget("text"), w.summary.cget("text"),
        w.run_button.winfo_ismapped(), w.root.focus_get()))
    assert (title, request, summary, buttons) == (
        TITLES["thinking"], "“how much disk space is free”", "Thinking…", False)
    assert popup.call(lambda w: w.visible())
    assert focus is None, "the panel must not take the keyboard from the user's window"
    for piece in ("I'll check ", "the free space.\n", "```shell\ndf -h"):
        popup.show(TextDelta(piece))
    wait_until(lambda: streamed(popup) == "I'll check the free space.\n```shell\ndf -h",
               "the words are shown as they stream")
    assert not popup.call(lambda w: w.run_button.winfo_ismapped())
    future = ask(session, popup, Proposal("panel", "shell", "df -h"),
                 "I'll check the free space.")
    assert popup.call(lambda w: (w.root.title(), w.request.cget("text"), streamed(popup))) == (
        TITLES["asking"], "“how much disk space is free”", "")
    press(popup, "Escape")
    assert not future.result(5).approved


def test_a_tool_call_s_code_is_shown_as_it_is_written_after_the_words(
        popup: Popup, session: ThreadPoolExecutor) -> None:
    assert popup.begin("list the files")
    popup.show(TextDelta("I'll list them."))
    popup.show(CodeDraft("shell", "ls"))
    wait_until(lambda: streamed(popup) == "I'll list them.\n```shell\nls", "the code shows")
    popup.show(CodeDraft("shell", "ls -la"))
    wait_until(lambda: streamed(popup) == "I'll list them.\n```shell\nls -la",
               "the code grows in place, not repeated")
    popup.show(CodeDraft("shell", "ls -la\ncd a\ncd b\ncd c\npwd"))
    wait_until(lambda: streamed(popup) == "I'll list them.\n```shell\n…\ncd b\ncd c\npwd",
               "long code shows its last lines below the words, which stay in view")
    future = ask(session, popup, Proposal("draft", "shell", "ls -la"), "I'll list them.")
    assert streamed(popup) == ""
    press(popup, "Escape")
    assert not future.result(5).approved
    assert popup.begin("again")
    popup.show(TextDelta("New words."))
    wait_until(lambda: streamed(popup) == "New words.", "a new turn starts with no old code")
    popup.show(TurnEnd("New words."))


def test_a_failed_try_s_code_leaves_the_panel_for_one_line(popup: Popup) -> None:
    assert popup.begin("move the log into old")
    popup.show(TextDelta("I'll move it."))
    popup.show(CodeDraft("shell", "mv a.txt old/"))
    wait_until(lambda: streamed(popup) == "I'll move it.\n```shell\nmv a.txt old/",
               "the code shows as it is written")
    line = "Tried in a copy of your files: failed (no a.txt); the model was shown why."
    popup.show(Tried("shell", "mv a.txt old/", line))
    wait_until(lambda: streamed(popup) == "I'll move it.", "the try's code is off the panel")
    assert popup.call(lambda w: w.output_text()) == line + "\n"
    popup.show(TurnEnd("There is no a.txt."))


def test_an_answer_without_code_replaces_the_words_and_the_panel_hides(popup: Popup) -> None:
    assert popup.begin("what is the date", "New conversation: 12 minutes since the last "
                                           "request.")
    assert "New conversation" in popup.call(lambda w: w.request.cget("text"))
    popup.show(TextDelta("It is Monday."))
    wait_until(lambda: streamed(popup) == "It is Monday.", "the answer streams")
    popup.show(TurnEnd("It is Monday."))
    wait_until(lambda: popup.call(lambda w: w.answer.cget("text")) == "It is Monday.",
               "the answer is shown whole")
    assert streamed(popup) == ""
    wait_until(lambda: not popup.call(lambda w: w.visible()), "the panel hides",
               timeout=CLOSE_AFTER + 3)


def test_a_message_nobody_else_can_show_is_shown_alone_then_hidden(popup: Popup) -> None:
    popup.tell("I can't reach the LLM at http://127.0.0.1:9", error=True)
    wait_until(lambda: popup.call(lambda w: w.visible()), "the message is shown")
    shown = popup.call(lambda w: (w.answer.cget("text"), str(w.answer.cget("foreground")),
                                  w.code.winfo_ismapped(), w.root.title()))
    assert shown == ("I can't reach the LLM at http://127.0.0.1:9", "#c62828", False,
                     TITLES["answered"])
    wait_until(lambda: not popup.call(lambda w: w.visible()), "it hides by itself",
               timeout=CLOSE_AFTER + 3)
