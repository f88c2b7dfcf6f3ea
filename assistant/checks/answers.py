"""Checks on a final answer before the turn accepts it.

Small models answer questions about this machine from nothing, misread their own output
("port 5432" where it printed 6432), and call a file written that was only printed. Each
check is cheap and local: the words of the request and the answer, the outputs of the
turn's runs, and which files the request names (all in the turn's state). Each finding
is a rule of its own (`answer.<kind>`), yielded in order; the loop tells the model the
first whose rule may act, at the cost of one more reply, once per kind; a check never
ends a turn or changes an answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from assistant.checks.copies import copies
from assistant.checks.made import problems
from assistant.checks.requested import EXTENSIONS, runner
from assistant.checks.state import TurnState
from assistant.events import Effect
from assistant.llm.fenced import shown_tags
from assistant.texts import text
from assistant.whatif.effect import names as listed

# An answer that says the job was not done (bare "no" and "not" are too common to count:
# "No files changed, as expected").
NEGATION = re.compile(
    r"\b(cannot|can't|could not|couldn't|unable|failed|did not|didn't|was not|wasn't|"
    r"has not|hasn't|have not|haven't|does not exist|doesn't exist|not (been )?(created|"
    r"written|saved|changed|done|found))\b", re.IGNORECASE)
# A value an answer quotes as code: `localhost`, `dates.py` (one line, short).
QUOTED = re.compile(r"(?<!`)`([^`\n]{1,80})`(?!`)")
# A path in an answer: relative or absolute, ending in a file extension.
ANSWER_PATH = re.compile(r"(?<![\w.-])((?:~?/)?(?:[\w.-]+/)*[\w.-]*\w\.(?:" + EXTENSIONS
                         + r"))(?![\w/])", re.IGNORECASE)
# A figure in an answer: digits, or a count in words ("no errors" is zero).
FIGURE = re.compile(r"\d|\b(no|none|zero|one|two|three|four|five|six|seven|eight|nine|ten|"
                    r"eleven|twelve|dozen|hundred|thousand)\b", re.IGNORECASE)
NUMBER = re.compile(r"(?<![\w./-])-?\d[\d,]*(?:\.\d+)?(?![\w/])")
LIST_MARKER = re.compile(r"^\s*\d+[.)]\s", re.MULTILINE)

NO_RUN = text("answer.no_run")
UNSEEN_NUMBERS = text("answer.numbers")
UNCHANGED = text("answer.unchanged")
UNSEEN_NAMES = text("answer.names")
SHOWN_ONLY = text("answer.shown")

NO_FIGURE = text("answer.no_figure")
COPIES = text("answer.copies").format("{}", how=text("preview.copies_how"))
MADE = text("answer.made")
NEVER_RAN = text("answer.never_ran")
REFUSED = text("answer.refused")
SCREEN_UNDONE = text("answer.screen")
SCREEN_STEPS = text("answer.screen_steps")
# An answer that says the model has no way to act: small models trained as chat bots say
# so of this machine, where their code does run.
REFUSAL = re.compile(
    r"\b(I|we) (cannot|can't|can ?not|am unable to|am not able to|do not|don't) (have )?"
    r"(access|directly access|modify|run|execute|interact|perform|browse|read|open|edit|"
    r"create|write|provide|determine|know|check|see)\b|\bas an? (AI|language model|"
    r"text-based)\b",
    re.IGNORECASE)
CHECKS_PER_TURN = 2  # answers sent back in one turn, each for a different reason
RawFinding = tuple[str, tuple[str, ...]]  # its kind, and the words that fill its texts

# kind -> (what the model is told, what the user is told if the answer stays as it is)
FINDINGS = {
    "refused": (REFUSED, "nothing ran{}"),
    "no_run": (NO_RUN, "nothing ran to find this out"),
    "made": (MADE, "{}"),
    "copies": (COPIES, "{} still hold the same contents"),
    "never_ran": (NEVER_RAN, "no code ran {}"),
    "no_figure": (NO_FIGURE, "the answer gives no figure for \"{}\""),
    "shown": (SHOWN_ONLY, "the {} block was only shown; nothing was written"),
    "unchanged": (UNCHANGED, "no file in the working folder changed"),
    "names": (UNSEEN_NAMES, "{} appears in no output"),
    "numbers": (UNSEEN_NUMBERS, "{} appears in no output"),
    "screen": ("{}", "{}"),  # the model's words and the user's, both in the finding
}


def numbers(text: str) -> set[float]:
    """The figures in a text, as numbers: thousands separators, list markers and single
    digits (counts a model derives, often rightly, from a listing) are left out."""
    found: set[float] = set()
    for token in NUMBER.findall(LIST_MARKER.sub(" ", text)):
        try:
            number = float(token.replace(",", ""))
        except ValueError:
            continue
        if not (number.is_integer() and abs(number) < 10):
            found.add(number)
    return found


class Finding(NamedTuple):
    """What one check of a final answer finds: its rule, what the model is told, what the
    user is told if the answer stays as it is, and the detail the journal keeps."""

    rule: str
    told: str
    doubt: str
    detail: str


def grounded(state: TurnState, answer: str) -> bool:
    """Whether the answer gives a figure or a name that a successful run printed: then
    a failed step after it (a script it never wrote, run for good measure) did not
    undo what the answer rests on."""
    printed = "\n".join(state.succeeded)
    figures = {float(n.replace(",", "")) for n in NUMBER.findall(printed)}
    if any(float(n.replace(",", "")) in figures for n in NUMBER.findall(answer)):
        return True
    cited = [*ANSWER_PATH.findall(answer), *QUOTED.findall(answer)]
    return any(name.lower() in printed.lower() for name in cited)


def to_make(state: TurnState) -> list[str]:
    """The files the request asks to be made that are not there yet."""
    if not state.request.makes:
        return []
    return [name for name, existed in state.existed.items()
            if not existed and not (state.folder / name).exists()]


def told_kinds(state: TurnState) -> set[str]:
    """The kinds of finding the model was told of in this turn, from the rules fired."""
    return {kind for each in state.rules.fired if each.action == "send_back"
            and (kind := each.rule.removeprefix("answer.")) in FINDINGS}


def findings(state: TurnState, answer: str) -> Iterator[Finding]:
    """Every check's finding about `answer`, in the order they are told."""
    for kind, detail in _findings(state, answer):
        doubt = FINDINGS[kind][1].format(detail[-1]).rstrip(".")
        yield Finding(f"answer.{kind}", FINDINGS[kind][0].format(*detail),
                      f"Not confirmed by what ran: {doubt}.", detail[-1])


def unasked(state: TurnState, answer: str) -> Iterator[Finding]:
    """The findings to tell the model before accepting `answer`: each kind is told once
    (its rule's firing says so), and at most CHECKS_PER_TURN kinds a turn; a second answer
    with the same fault may still have another, told then."""
    told = told_kinds(state)
    if len(told) >= CHECKS_PER_TURN:
        return
    yield from (each for each in findings(state, answer)
                if each.rule.removeprefix("answer.") not in told)


def doubts(state: TurnState, answer: str) -> Iterator[Finding]:
    """What still finds fault with an answer accepted after the model was asked already:
    the answer is shown as given, with what the user should know."""
    if told_kinds(state):
        yield from findings(state, answer)


def pending(state: TurnState) -> Iterator[Finding]:
    """What the checks of a final answer would say now, the task called done: for a
    model that repeats code that succeeded, the step it has not taken."""
    return (each for each in findings(state, "")
            if each.rule not in ("answer.no_run", "answer.no_figure"))


def with_pending(told: str, found: Finding | None) -> str:
    """`told`, and the step a pending finding says is left."""
    return f"{told}\n{found.told}" if found is not None else told


def _findings(state: TurnState, answer: str) -> Iterator[RawFinding]:
    asks, folder, code = state.request, state.folder, state.code
    if code and not state.outputs:
        return  # nothing ran: the user declined, and the answer says so
    if not state.outputs and REFUSAL.search(answer):
        yield "refused", ("",)
    present = [name for name, existed in state.existed.items() if existed]
    shown = shown_tags(answer) if (asks.makes or asks.changes) and not code else []
    if shown:  # the file to write, named: a small model told "do it" read it instead
        missing = to_make(state)
        yield "shown", (text("answer.shown_writes").format(missing[0]) if missing
                        else text("answer.shown_does"), shown[0])
    made = problems(asks, folder, state.wrote, state.lines)
    if made and not NEGATION.search(answer):
        yield "made", (" ".join(made),)
    if asks.dedupes and code and not NEGATION.search(answer):
        left = copies(str(folder), asks.folders, Effect()).left
        if left:
            yield "copies", (listed(left),)
    yield from _never_ran(state)
    yield from _on_screen(state, answer)
    if not code:
        if asks.about_machine or present or state.folders:
            yield "no_run", ("",)
            yield from _unseen(state, answer)
        return
    if asks.figure and not FIGURE.search(answer) and not NEGATION.search(answer):
        yield "no_figure", (asks.figure,)
    if (not state.changed and asks.changes and not NEGATION.search(answer)
            and (present or asks.here)):
        yield "unchanged", (", ".join(present) or text("answer.everything_here"),)
    yield from _unseen(state, answer)


def _never_ran(state: TurnState) -> Iterator[RawFinding]:
    """The scripts the request asks to run that are there and no proposal ran."""
    for script in state.request.scripts:
        ran = re.compile(r"(?:\b(?:node|python3?|bash|sh)\s+(?:-\S+\s+)*|require\(['\"])"
                         rf"(?:\./)?{re.escape(script)}\b|(?<![\w.])\./{re.escape(script)}\b")
        if (state.folder / script).is_file() and not any(map(ran.search, state.code)):
            yield "never_ran", (f"{runner(script)} {script}", script)


def _on_screen(state: TurnState, answer: str) -> Iterator[RawFinding]:
    """Asked to act on a window: an answer over nothing done on screen (steps, or the
    request's words said back), or calling done what the screen shows undone."""
    if not (state.desktop and state.request.on_screen) or NEGATION.search(answer):
        return
    undone = "; ".join(f.sentence for f in state.screen if f.undone)
    if undone:
        yield "screen", (SCREEN_UNDONE.format(undone), undone)
    elif not state.acted:
        yield "screen", (SCREEN_STEPS + state.front, text("answer.screen_untouched"))


def _unseen(state: TurnState, answer: str) -> Iterator[RawFinding]:
    """Names and figures in the answer that nothing in the turn showed."""
    known = "\n".join([state.request.text, state.context, *state.outputs, *state.code])
    cited = [*ANSWER_PATH.findall(answer), *QUOTED.findall(answer)]
    invented = [name for name in dict.fromkeys(cited)
                if name.lower() not in known.lower()
                and not (state.folder / Path(name).expanduser()).exists()]
    if invented:
        yield "names", (", ".join(invented),)
    seen = numbers(known)
    figures = numbers(ANSWER_PATH.sub(" ", answer))  # not the digits of a file's name
    unseen = sorted(n for n in figures if not _close_to_any(n, seen))
    if unseen:
        yield "numbers", (", ".join(_shown(n) for n in unseen),)


def _close_to_any(number: float, seen: set[float]) -> bool:
    """Seen as is, or rounded as people round (5186.5 for 5186.50, 4.9 for 4.91)."""
    return any(abs(number - other) <= 0.051 * max(1.0, abs(number) / 100) for other in seen)


def _shown(number: float) -> str:
    return str(int(number)) if number.is_integer() else str(number)
