"""What a call goes through before the user is asked: a malformed call goes back as a
correction, a repeat is told or ends the turn, and mislabelled code is relabelled. Apart
from the loop so that each rule reads alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.actions.apply import allows, applies, chosen, fired
from assistant.actions.outcomes import Cleared
from assistant.checks.answers import pending, with_pending
from assistant.checks.labels import actual_language
from assistant.checks.repeats import REPEAT_NOT_RUN, REPEAT_TOLD, RESET_TOLD
from assistant.checks.state import TurnState
from assistant.checks.verdicts import Refuse, Rewrite
from assistant.computer import reloading
from assistant.events import Error, Notice
from assistant.llm import CodeCall
from assistant.loop import commands, said, screen, terminal
from assistant.loop.turn import (
    CORRECTION,
    MALFORMED_AGAIN,
    NOT_RUN,
    RELABELLED,
    TYPED,
    Outcome,
)
from assistant.texts import text

PRESSED = re.compile(r"""computer\.press\(\s*["']([^"']+)["']""")


def vet(call: CodeCall, state: TurnState, redact: Callable[[str], str]
        ) -> tuple[list[Notice | Error], Cleared | Outcome]:
    """The notices for the user, and the call cleared to be proposed, or what the model is
    told in place of a run (with the reason to end the turn, if any)."""
    rules = state.rules
    if call.problem:  # never off: the call cannot run as sent
        if state.corrected:  # told once already: this model cannot make the call
            return [Error(redact(MALFORMED_AGAIN.format(call.problem)))], (NOT_RUN, ("error", 0))
        state.corrected = True
        malformed = Refuse("call.malformed", CORRECTION.format(call.problem),
                           f"The model's tool call was malformed ({call.problem}); it was "
                           "asked to send it again.", call.problem)
        fired(rules, malformed)
        return [Notice(malformed.notice)], (malformed.told, None)
    state.corrected = False
    language = (actual_language(call.language, call.code) if allows(rules, "label.relabel")
                else call.language)
    typed = _into_terminal(language, call.code, state)
    language, code = (typed.language, typed.code) if typed else (language, call.code)
    away = _offscreen(language, code, state) or _negated(code, state)
    if away is not None and applies(rules, away):
        return [Notice(away.notice)], (away.told, None)
    rerun, times = state.rerun(language, code)
    reset, again = state.reset(language, code)
    if reset != "run" and allows(rules, "repeat.reset_told"):
        rerun, times = reset, again
    if rerun == "stop":
        failed = state.last_failed
        return [], (REPEAT_NOT_RUN, ("repeated_failure" if failed else "repeated_success", times))
    told = Refuse("repeat.success_told", REPEAT_TOLD.format(state.result),
                  f"Not run again: the model proposed the same {language} code that had "
                  "just succeeded; it was shown that result.")
    if reset == "told" and rerun == "told":
        told = Refuse("repeat.reset_told", RESET_TOLD.format(state.result),
                      "Not run: the model typed other text into the fields the last run "
                      "had just set; it was shown that run's result.")
    if rerun == "told" and applies(rules, told):  # a failure is sent back before it gets here
        return [Notice(told.notice)], (with_pending(told.told, chosen(rules, pending(state))),
                                       None)
    if typed is not None:
        fired(rules, typed)
        return [Notice(typed.notice)], Cleared(language, code, typed.preface)
    if language == call.language:
        return [], Cleared(language, call.code)
    rewrite = Rewrite("label.relabel", language, call.code,
                      RELABELLED.format(call.language, language),
                      f"This code is {language}, not {call.language}: it is shown and rated "
                      f"as {language}, and runs as {language}.")
    fired(rules, rewrite)  # legal here only: nobody has been asked yet
    return [Notice(rewrite.notice)], Cleared(rewrite.language, rewrite.code, rewrite.preface)


def _offscreen(language: str, code: str, state: TurnState) -> Refuse | None:
    """Code for a request about the windows shown that does not touch them through
    `computer` (rule screen.offscreen): told, not run, before any run acted there, when
    the request points at a window (a screen attached for "make a file from the page" is
    no such request). A small model asked to add a line to the file open in Mousepad
    started Mousepad again and appended to the file behind the editor's back; asked to
    use a page in the browser, it started a second browser, then fetched the page with
    requests. Neither is seen on screen, and the user would be asked to approve a run
    that cannot do what they asked. Code that writes a file an editor on screen holds
    runs, and the editor is reloaded after it (computer/reloading.py): told to change
    the guest list in the editor instead, it wrote the file again, twice. Unless the
    editor holds changes not yet saved, which the reload would throw away, or the code
    acts in the editor too (it wrote the guest list, then saved the editor, which wrote
    its old text over it): that is told whatever the request. Code that writes a file the
    request names, which no window has open ("save a copy as budget-2025.txt"), does
    what was asked, unless a dialog waits for the answer or the terminal on screen was
    asked for (its shell has the variables). A command spoken over a
    dialog that waits for an answer is about it, whatever its words ("book me in for a
    cleaning")."""
    if not (state.desktop and not state.acted) or language not in ("python", "shell"):
        return None
    held = screen.written_behind(language, code)
    if held is not None:
        if reloading.unsaved(held[1]):
            told = text("screen.offscreen_unsaved")
        elif "computer." in code:
            told = text("screen.offscreen_file")
        else:
            return None
        return Refuse("screen.offscreen", told.format(*held),
                      f"Not run: this code writes {held[0]}, which is open in the window "
                      f"{held[1]!r}; the model was asked to change it there.")
    if "computer." in code or not (state.request.to_dialog
                                   or screen.points_at_windows(state.request.text)):
        return None
    title = terminal.asked_for(state.request.text)  # python for the terminal: its shell
    if title and not allows(state.rules, "screen.terminal"):
        return None  # its commands run in the assistant's own shell, as the person chose
    if not (title or state.request.to_dialog) and \
            screen.writes_named(language, code, state.request.text):
        return None
    told = text("screen.offscreen_terminal").format(title) if title else \
        text("screen.offscreen") + state.front
    return Refuse("screen.offscreen", told,
                  "Not run: the request is about the windows on screen, and this code does "
                  "not act in them; the model was asked to.")


def _negated(code: str, state: TurnState) -> Refuse | None:
    """A press of a button the request said not to press ("Don't save that!", and the
    code presses Save in the close prompt): told, not run (rule screen.negated), with the
    button on screen that says the request's own words when there is one ("Don't
    Save"). A small model reads the verb and drops the "don't"."""
    if not state.desktop:
        return None
    stems = said.negated(state.request.text)
    for button in PRESSED.findall(code):
        first = (button.split() or [""])[0]
        stem = said.stem(first)
        if stem not in stems:
            continue
        from assistant.computer import tree

        instead = commands.answering({stem}, tree.windows())
        told = text("screen.negated").format(button=button) if instead is None else \
            text("screen.negated_instead").format(button=button, instead=instead[0].name)
        return Refuse("screen.negated", told,
                      f"Not run: the request says not to {first.casefold()}, and this code presses "
                      f"{button!r}; the model was told.")
    return None


def _into_terminal(language: str, code: str, state: TurnState) -> Rewrite | None:
    """Shell code for a request to use the terminal on screen, as the verbs' code that
    types it there (rule screen.terminal); None when that is not what was asked."""
    if language != "shell" or not allows(state.rules, "screen.terminal"):
        return None
    title = terminal.asked_for(state.request.text)
    if title is None:
        return None
    return Rewrite("screen.terminal", "python", terminal.typed(code, title),
                   TYPED.format(title),
                   f"The request asks for the terminal {title!r}: the command is typed "
                   "there, not run in the assistant's own shell.")

