"""What a call goes through before the user is asked: a malformed call goes back as a
correction, a repeat is told or ends the turn, and mislabelled code is relabelled. Apart
from the loop so that each rule reads alone.
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.actions.outcomes import Cleared
from assistant.checks.labels import actual_language
from assistant.checks.record import TurnRecord
from assistant.checks.repeats import REPEAT_NOT_RUN, REPEAT_TOLD
from assistant.checks.verdicts import Rewrite
from assistant.events import Error, Notice
from assistant.llm import CodeCall
from assistant.loop.turn import (
    CORRECTION,
    MALFORMED_AGAIN,
    NOT_RUN,
    RELABELLED,
    Outcome,
)


def vet(call: CodeCall, state: TurnRecord, redact: Callable[[str], str]
        ) -> tuple[list[Notice | Error], Cleared | Outcome]:
    """The notices for the user, and the call cleared to be proposed, or what the model is
    told in place of a run (with the reason to end the turn, if any)."""
    rules = state.answer.rules
    if call.problem:  # never off: the call cannot run as sent
        if state.corrected:  # told once already: this model cannot make the call
            return [Error(redact(MALFORMED_AGAIN.format(call.problem)))], (NOT_RUN, ("error", 0))
        state.corrected = True
        rules.fire("call.malformed", "refuse", call.problem)
        return [Notice(f"The model's tool call was malformed ({call.problem}); it was asked "
                       "to send it again.")], (CORRECTION.format(call.problem), None)
    state.corrected = False
    language = (actual_language(call.language, call.code) if rules.on("label.relabel")
                else call.language)
    rewrite = None if language == call.language else Rewrite(
        "label.relabel", language, call.code, RELABELLED.format(call.language, language),
        f"This code is {language}, not {call.language}: it is shown and rated as "
        f"{language}, and runs as {language}.")
    rerun, times = state.repeats.check(language, call.code)
    if rerun == "told" and not rules.on("repeat.success_told"):
        rerun = "run"
    if rerun == "stop":
        failed = state.repeats.last_failed()
        return [], (REPEAT_NOT_RUN, ("repeated_failure" if failed else "repeated_success", times))
    if rerun == "told":  # after a success: a failure is sent back before it gets here
        rules.fire("repeat.success_told", "refuse")
        state.stuck = True
        return [Notice(f"Not run again: the model proposed the same {language} code that had "
                       "just succeeded; it was shown that result.")], (
            state.answer.with_pending(REPEAT_TOLD.format(state.repeats.result())), None)
    if rewrite is None:
        return [], Cleared(language, call.code)
    rules.fire(rewrite.rule, "rewrite")  # legal here only: nobody has been asked yet
    return [Notice(rewrite.notice)], Cleared(rewrite.language, rewrite.code, rewrite.preface)
