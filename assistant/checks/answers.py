"""Checks on a final answer before the turn accepts it.

Small models answer questions about this machine from nothing, misread their own output
("port 5432" where it printed 6432), and call a file written that was only printed. Each
check is cheap and local: the words of the request and the answer, the outputs of the
turn's runs, and which files the request names. A check that fires costs one more reply,
once per turn; it never ends a turn or changes an answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.checks.copies import copies
from assistant.checks.made import problems
from assistant.checks.requested import EXTENSIONS, Request, runner
from assistant.checks.rules import Rules
from assistant.events import Effect
from assistant.llm.fenced import shown_tags
from assistant.runtime.changes import NO_CHANGES
from assistant.texts import text
from assistant.whatif.effect import names as listed

if TYPE_CHECKING:
    from assistant.computer.after import Fact

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
Finding = tuple[str, tuple[str, ...]]  # its kind, and the words that fill its texts

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


@dataclass
class AnswerCheck:
    """What a turn has seen, to judge its final answer; made when the turn starts."""

    request: str
    folder: Path
    context: str = ""  # earlier messages of the conversation: figures may come from there
    lines: bool = False  # findings may quote the user's files (a model on this machine)
    code: list[str] = field(default_factory=list)  # every proposal, run or declined
    outputs: list[str] = field(default_factory=list)  # of the runs
    succeeded: list[str] = field(default_factory=list)  # outputs of the runs that succeeded
    changed: bool = False  # a run changed the working folder, or may have (cannot tell)
    wrote: set[str] = field(default_factory=set)  # files the runs created or modified
    rules: Rules = field(default_factory=Rules)  # the turn's: which may act, what fired
    wants: Request | None = None  # the request parsed (once, here when not given)
    desktop: bool = False  # the turn was shown the windows on screen
    acted: bool = False  # a run acted on them (computer/aim.py read its calls)
    screen: tuple[Fact, ...] = ()  # what they showed after the last such run
    screen_after: int = 0  # how many runs had ended then
    _existed: dict[str, bool] = field(default_factory=dict)
    _folders: list[str] = field(default_factory=list)  # the request's, there when it came

    def __post_init__(self) -> None:
        if self.wants is None:
            self.wants = Request.parse(self.request, self.rules.language)
        self._existed = {name: (self.folder / name).exists() for name in self.wants.files}
        self._folders = [name for name in self.wants.folders if (self.folder / name).is_dir()]

    @property
    def asks(self) -> Request:
        """The parsed request."""
        assert self.wants is not None, "parsed in __post_init__"
        return self.wants

    def proposed(self, code: str) -> None:
        self.code.append(code)

    def ran(self, output: str, changes: str, succeeded: bool = True,
            wrote: Iterable[str] = ()) -> None:
        """A run's output, `describe_changes` of the working folder around it, and the
        files it wrote there."""
        self.outputs.append(output)
        self.wrote.update(wrote)
        if succeeded:
            self.succeeded.append(output)
        self.changed = self.changed or changes != NO_CHANGES

    def on_screen(self, facts: tuple[Fact, ...]) -> None:
        """A run acted on the windows, which then showed `facts` (computer/after.py)."""
        self.acted = True
        self.screen = facts
        self.screen_after = len(self.outputs)

    def grounded(self, answer: str) -> bool:
        """Whether the answer gives a figure or a name that a successful run printed: then
        a failed step after it (a script it never wrote, run for good measure) did not
        undo what the answer rests on."""
        printed = "\n".join(self.succeeded)
        figures = {float(n.replace(",", "")) for n in NUMBER.findall(printed)}
        if any(float(n.replace(",", "")) in figures for n in NUMBER.findall(answer)):
            return True
        cited = [*ANSWER_PATH.findall(answer), *QUOTED.findall(answer)]
        return any(name.lower() in printed.lower() for name in cited)

    def to_make(self) -> list[str]:
        """The files the request asks to be made that are not there yet."""
        if not self.asks.makes:
            return []
        return [name for name, existed in self._existed.items()
                if not existed and not (self.folder / name).exists()]

    @property
    def asked(self) -> set[str]:
        """The kinds of finding the model was told of in this turn, from the rules fired."""
        return {kind for each in self.rules.fired if each.action == "send_back"
                and (kind := each.rule.removeprefix("answer.")) in FINDINGS}

    def _found(self, answer: str) -> Iterator[Finding]:
        """The findings whose rule may act in this turn."""
        return (item for item in self._findings(answer) if self.rules.on(f"answer.{item[0]}"))

    def with_pending(self, told: str) -> str:
        """`told`, and what the checks of a final answer would say now, the task called
        done: for a model that repeats code that succeeded, the step it has not taken."""
        found = next((item for item in self._found("")
                      if item[0] not in ("no_run", "no_figure")), None)
        return f"{told}\n{FINDINGS[found[0]][0].format(*found[1])}" if found else told

    def finding(self, answer: str) -> tuple[str, str, str] | None:
        """The rule that finds fault with `answer`, what it tells the model, and the detail
        it quotes; None to accept it. Each kind of finding is told once (the rule's firing
        says so): a second answer with the same fault may still have another, told then."""
        asked = self.asked
        if len(asked) >= CHECKS_PER_TURN:
            return None
        found = next((item for item in self._found(answer) if item[0] not in asked), None)
        if found is None:
            return None
        kind, detail = found
        return f"answer.{kind}", FINDINGS[kind][0].format(*detail), detail[-1]

    def problem(self, answer: str) -> str | None:
        """What to tell the model about `answer` before accepting it, the finding's rule
        fired as sent back; None to accept it."""
        found = self.finding(answer)
        if found is None:
            return None
        self.rules.fire(found[0], "send_back", found[2])
        return found[1]

    def passes(self, answer: str) -> bool:
        """Whether no check at all finds fault with `answer` (told before or not)."""
        return next(self._found(answer), None) is None

    def doubt(self, answer: str) -> tuple[str, str] | None:
        """The rule that still finds fault with an answer accepted after the model was
        asked already, and what the user should know: the answer is shown as given."""
        found = next(self._found(answer), None) if self.asked else None
        if found is None:
            return None
        kind, detail = found
        said = FINDINGS[kind][1].format(detail[-1]).rstrip(".")
        return f"answer.{kind}", f"Not confirmed by what ran: {said}."

    def unconfirmed(self, answer: str) -> str | None:
        """`doubt`'s words for the user, its rule fired as an annotation."""
        found = self.doubt(answer)
        if found is None:
            return None
        self.rules.fire(found[0], "annotate")
        return found[1]

    def _findings(self, answer: str) -> Iterator[Finding]:
        if self.code and not self.outputs:
            return  # nothing ran: the user declined, and the answer says so
        if not self.outputs and REFUSAL.search(answer):
            yield "refused", ("",)
        present = [name for name, existed in self._existed.items() if existed]
        acts = self.asks.makes or self.asks.changes
        shown = shown_tags(answer) if acts and not self.code else []
        if shown:  # the file to write, named: a small model told "do it" read it instead
            missing = self.to_make()
            yield "shown", (text("answer.shown_writes").format(missing[0]) if missing
                            else text("answer.shown_does"), shown[0])
        made = problems(self.asks, self.folder, self.wrote, self.lines)
        if made and not NEGATION.search(answer):
            yield "made", (" ".join(made),)
        if self.asks.dedupes and self.code and not NEGATION.search(answer):
            left = copies(str(self.folder), self.asks.folders, Effect()).left
            if left:
                yield "copies", (listed(left),)
        for script in self.asks.scripts:
            ran = re.compile(r"(?:\b(?:node|python3?|bash|sh)\s+(?:-\S+\s+)*|require\(['\"])"
                             rf"(?:\./)?{re.escape(script)}\b|(?<![\w.])\./{re.escape(script)}\b")
            if (self.folder / script).is_file() and not any(map(ran.search, self.code)):
                yield "never_ran", (f"{runner(script)} {script}", script)
        yield from self._on_screen(answer)
        if not self.code:
            if self.asks.about_machine or present or self._folders:
                yield "no_run", ("",)
                yield from self._unseen(answer)
            return
        if self.asks.figure and not FIGURE.search(answer) and not NEGATION.search(answer):
            yield "no_figure", (self.asks.figure,)
        if (not self.changed and self.asks.changes and not NEGATION.search(answer)
                and (present or self.asks.here)):
            yield "unchanged", (", ".join(present) or text("answer.everything_here"),)
        yield from self._unseen(answer)

    def _on_screen(self, answer: str) -> Iterator[Finding]:
        """Asked to act on a window: an answer over nothing done on screen (steps, or the
        request's words said back), or calling done what the screen shows undone."""
        if not (self.desktop and self.asks.on_screen) or NEGATION.search(answer):
            return
        undone = "; ".join(f.sentence for f in self.screen if f.undone)
        if undone:
            yield "screen", (SCREEN_UNDONE.format(undone), undone)
        elif not self.acted:
            yield "screen", (SCREEN_STEPS, text("answer.screen_untouched"))

    def _unseen(self, answer: str) -> Iterator[Finding]:
        """Names and figures in the answer that nothing in the turn showed."""
        known = "\n".join([self.request, self.context, *self.outputs, *self.code])
        cited = [*ANSWER_PATH.findall(answer), *QUOTED.findall(answer)]
        invented = [name for name in dict.fromkeys(cited)
                    if name.lower() not in known.lower()
                    and not (self.folder / Path(name).expanduser()).exists()]
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
