"""What a call goes through before the user is asked: a malformed call goes back as a
correction, a made-up path goes back or is put right, a repeat is told or ends the turn,
and mislabelled code is relabelled. Apart from the loop so that each rule reads alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from assistant.events import Error, Notice
from assistant.llm import CodeCall
from assistant.checks.labels import actual_language
from assistant.checks.placeholders import misplaced
from assistant.loop.repeats import REPEAT_NOT_RUN, REPEAT_TOLD
from assistant.loop.turn import (
    CORRECTION,
    MALFORMED_AGAIN,
    NOT_RUN,
    PATHS_TOLD,
    RELABELLED,
    REPLACED,
    Outcome,
    TurnState,
)


@dataclass(frozen=True)
class Cleared:
    """A call that goes to the user: what it runs as, and what the model reads before its
    result (why it ran other than as written)."""

    language: str
    code: str
    preface: str = ""


def vet(call: CodeCall, state: TurnState, folder: Path,
        redact: Callable[[str], str]) -> tuple[list[Notice | Error], Cleared | Outcome]:
    """The notices for the user, and the call cleared to be proposed, or what the model is
    told in place of a run (with the reason to end the turn, if any)."""
    if call.problem:
        if state.corrected:  # told once already: this model cannot make the call
            return [Error(redact(MALFORMED_AGAIN.format(call.problem)))], (NOT_RUN, ("error", 0))
        state.corrected = True
        return [Notice(f"The model's tool call was malformed ({call.problem}); it was asked "
                       "to send it again.")], (CORRECTION.format(call.problem), None)
    state.corrected = False
    language = actual_language(call.language, call.code)
    wrong = misplaced(call.code, state.answer.request, folder)
    if wrong and state.placeheld < PATHS_TOLD:
        state.placeheld += 1
        return [Notice(f"Not proposed: the code names {wrong.path}, not a path of the user's; "
                       "the model was told to use the working folder.")], (wrong.told, None)
    # Told already: the user is shown the code as it should read, and it is what repeats
    # are judged by.
    fix = wrong if wrong and wrong.instead else None
    code = call.code.replace(fix.path, fix.instead) if fix else call.code
    verdict, times = state.repeats.check(language, code)
    if verdict == "stop":
        failed = state.repeats.last_failed()
        return [], (REPEAT_NOT_RUN, ("repeated_failure" if failed else "repeated_success", times))
    if verdict == "told":  # after a success: a failure is sent back before it gets here
        state.stuck = True
        return [Notice(f"Not run again: the model proposed the same {language} code that had "
                       "just succeeded; it was shown that result.")], (
            state.answer.with_pending(REPEAT_TOLD.format(state.repeats.result())), None)
    notices: list[Notice | Error] = []
    preface = ""
    if language != call.language:
        preface += RELABELLED.format(call.language, language)
        notices.append(Notice(f"This code is {language}, not {call.language}: it is shown and "
                              f"rated as {language}, and runs as {language}."))
    if fix:
        preface += REPLACED.format(fix.path, fix.instead)
        notices.insert(0, Notice(f"The code names {fix.path} again, not a path of the user's: "
                                 f"it is proposed with {fix.instead} in its place."))
    return notices, Cleared(language, code, preface)
