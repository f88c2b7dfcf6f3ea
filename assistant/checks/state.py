"""One turn's state: what the request asked, what was said and shown, every proposal, every
run and every preview sent back (in order), the declines, each reply's calls, and the rules
fired. The checks read it; the loop and the pipeline add to it as the turn goes. What a
limit or a check counts (failures in a row, repeats, runs, whether the turn is stuck) is
derived from it, never kept beside it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from assistant.checks.requested import Request
from assistant.checks.rules import Rules
from assistant.events import RunEnd
from assistant.runtime.changes import NO_CHANGES

if TYPE_CHECKING:
    from assistant.computer.after import Fact

REPEATS_BEFORE_STOP = 3
# The verbs that set a state (a second call changes nothing once the screen shows it).
SETTING_CALL = re.compile(r"computer\.(?:choose|tick|untick|fill|type|write)\(")
# A request for a switch off (else on): a press that left it so settled it.
OFF = re.compile(r"\b(?:off|hide|disable|untick|uncheck|deselect)\b", re.IGNORECASE)
# Code that only types lines ended by Enter into windows (a terminal's commands): run
# again, it runs each command twice.
ENTERED = re.compile(r"""(?:computer\.type\((['"])(?:(?!\1)[^\n])*\\n\1, window=[^\n]*\)\n?)+""")
# Text typed into a named field: the field's name is the third group.
INTO = re.compile(r"""computer\.(?:type|write)\((['"])(?:(?!\1).)*\1,\s*"""
                  r"""into=(['"])((?:(?!\2).)*)\2""")
Key = tuple[str, str]  # (language, code)
Rerun = Literal["run", "told", "stop"]
# Rules whose refusal means a proposal repeated the last try's code (told, not run).
AGAIN = frozenset({"repeat.success_told", "repeat.failed_again", "repeat.reset_told"})
# And those of a reply that repeated itself: the next is asked warmer.
REPEATING = AGAIN | {"repeat.reply_told"}


@dataclass(frozen=True)
class Try:
    """A run, or a preview that went back to the model in place of asking anyone."""

    end: RunEnd
    key: Key
    result: str  # what the model read of it (of a failure, the line that says why)
    previewed: bool = False
    fired: int = 0  # the rules fired before it


@dataclass
class TurnState:
    """One turn so far, from its request to its answer."""

    request: Request  # parsed once: every check reads it
    folder: Path
    rules: Rules = field(default_factory=Rules)  # which may act, and what fired
    context: str = ""  # the system message and the conversation: figures may come from there
    lines: bool = False  # findings may quote the user's files (a model on this machine)
    shown: str = ""  # the words streamed in this turn
    said: str = ""  # those of the latest reply
    code: list[str] = field(default_factory=list)  # every proposal, run or declined
    tries: list[Try] = field(default_factory=list)
    changed: bool = False  # a run changed the working folder, or may have (cannot tell)
    wrote: set[str] = field(default_factory=set)  # files the runs created or modified
    declined: list[str] = field(default_factory=list)  # the reason given for each
    corrected: bool = False  # the last call was malformed and the model was told
    replies: list[tuple[tuple[Key, ...], int]] = field(default_factory=list)  # calls, tries
    asked: tuple[int, int] = (0, 0)  # rules fired and tries when the last reply came in
    desktop: bool = False  # the turn was shown the windows on screen
    front: str = ""  # then, lines of the verbs' code in the names of the window in front
    acted: bool = False  # a run acted on them (computer/aim.py read its calls)
    edited: bool = False  # the whole request was read as an edit of the editor there
    screen: tuple[Fact, ...] = ()  # what they showed after the last such run
    screen_after: int = 0  # how many runs had ended then
    existed: dict[str, bool] = field(init=False)  # the request's files, there at its start?
    folders: list[str] = field(init=False)  # the request's folders there then

    def __post_init__(self) -> None:
        self.existed = {name: (self.folder / name).exists() for name in self.request.files}
        self.folders = [name for name in self.request.folders if (self.folder / name).is_dir()]

    def ran(self, end: RunEnd, key: Key, result: str, changes: str = NO_CHANGES,
            wrote: list[str] | None = None) -> int:
        """A run's end, what the model read of it, `describe_changes` of the working folder
        around it and the files it wrote there; how many times its code has now failed."""
        self.wrote.update(wrote or [])
        self.changed = self.changed or changes != NO_CHANGES
        return self._tried(Try(end, key, result, False, len(self.rules.fired)))

    def on_screen(self, facts: tuple[Fact, ...]) -> None:
        """The last run acted on the windows, which then showed `facts` (computer/after.py)."""
        self.acted = True
        self.screen = facts
        self.screen_after = self.runs

    def foresaw(self, end: RunEnd, key: Key, result: str) -> int:
        """A preview that went back to the model; counted as the same run would be."""
        return self._tried(Try(end, key, result, True, len(self.rules.fired)))

    def _tried(self, tried: Try) -> int:
        self.tries.append(tried)
        return self.failures(len(self.tries) - 1)

    def failures(self, at: int) -> int:
        """How many times the code of try `at` had failed by then, since it last succeeded."""
        key, count = self.tries[at].key, 0
        for each in self.tries[: at + 1]:
            if each.key == key:
                count = 0 if each.end.exit_status == 0 else count + 1
        return count

    @property
    def ends(self) -> list[RunEnd]:
        """Every run's end, in order."""
        return [each.end for each in self.tries if not each.previewed]

    @property
    def outputs(self) -> list[str]:
        return [end.output for end in self.ends]

    @property
    def succeeded(self) -> list[str]:
        """The outputs of the runs that succeeded."""
        return [end.output for end in self.ends if end.exit_status == 0]

    @property
    def runs(self) -> int:
        return len(self.ends)

    @property
    def declines(self) -> int:
        return len(self.declined)

    @property
    def last_failed(self) -> bool:
        """Whether the last thing tried, a run or a preview sent back, failed."""
        return bool(self.tries) and self.tries[-1].end.exit_status != 0

    @property
    def failed_preview(self) -> RunEnd | None:
        """The last thing tried, when it was a preview that failed and went back: nothing
        ran after it, so an answer now rests on code that never ran."""
        last = self.tries[-1] if self.last_failed else None
        return last.end if last is not None and last.previewed else None

    @property
    def failed(self) -> bool:
        """Whether the last run failed."""
        return bool(self.ends) and self.ends[-1].exit_status != 0

    @property
    def last_exit(self) -> int | None:
        return self.ends[-1].exit_status if self.ends else 0

    @property
    def result(self) -> str:
        """What the model read after the last try (of a failure, the line that says why)."""
        return self.tries[-1].result if self.tries else ""

    @property
    def stuck(self) -> bool:
        """Whether the last reply was sent back, repeated code, or failed again: the same
        history at a low temperature gives the same reply, so the next is asked warmer."""
        fired, tried = self.asked
        if any(each.action == "send_back" or (each.action == "refuse" and each.rule in REPEATING)
               for each in self.rules.fired[fired:]):
            return True
        return any(not self.tries[at].previewed and self.failures(at) > 1
                   for at in range(tried, len(self.tries)))

    def rerun(self, language: str, code: str) -> tuple[Rerun, int]:
        """Whether this proposal runs, before anyone is asked, and how often it came in a
        row: "told", it is the code of the last try and nothing ran since (the model reads
        that try's result); "stop", the REPEATS_BEFORE_STOP-th such proposal. Code that
        drives the desktop and succeeded runs again (the screen changes without any code;
        Tab twice is two steps), but not code that failed (a name not on screen misses
        again; the calls before it act again: a small model opened a new document with
        each of three runs of the same failing block), nor code that succeeded and
        - it sets states (choose, tick, type into a field) the screen showed done: a block
          run again whole (type the note, ctrl+s) is the job done twice;
        - it only types lines ended by Enter into windows: a terminal's commands, run twice;
        - it succeeded twice in a row already (a small model pressed the tab it had
          brought up, eight times, to the time limit)."""
        last = self.tries[-1] if self.tries else None
        if last is None or last.key != (language, code):
            return "run", 0
        if "computer." in code and last.end.exit_status == 0 and not (
                self._settled(code) or ENTERED.fullmatch(code) or self._twice(last.key)):
            return "run", 0
        told = sum(1 for each in self.rules.fired[last.fired:]
                   if each.action == "refuse" and each.rule in AGAIN)
        times = told + 2
        return ("stop" if times >= REPEATS_BEFORE_STOP else "told"), times

    def reset(self, language: str, code: str) -> tuple[Rerun, int]:
        """Whether this proposal types other text into the very fields the last run typed
        into, right after that run succeeded and the screen showed it done: "told" (the
        model reads that run's result), "stop" the REPEATS_BEFORE_STOP-th in a row (rule
        repeat.reset_told). Asked to set a number box showing 50 to 75, a small model set
        it to 75, then to 100, 150, 200, ... to the time limit."""
        last = self.tries[-1] if self.tries else None
        if last is None or last.previewed or last.end.exit_status != 0 or \
                last.key == (language, code):
            return "run", 0
        fields = {m[3] for m in INTO.finditer(code)}
        if not fields or fields != {m[3] for m in INTO.finditer(last.key[1])} or \
                not self._settled(last.key[1]):
            return "run", 0
        told = sum(1 for each in self.rules.fired[last.fired:]
                   if each.action == "refuse" and each.rule == "repeat.reset_told")
        times = told + 2
        return ("stop" if times >= REPEATS_BEFORE_STOP else "told"), times

    def _twice(self, key: Key) -> bool:
        """The last two tries were this code, and both ran and succeeded."""
        last = self.tries[-2:]
        return len(last) == 2 and all(each.key == key and not each.previewed
                                      and each.end.exit_status == 0 for each in last)

    def _settled(self, code: str) -> bool:
        """The code sets states (its typing all into fields; a press the screen shows left
        a switch as the request wants it), and the last run's screen facts show nothing
        undone."""
        typed = code.count("computer.type(") + code.count("computer.write(")
        wanted = "off" if OFF.search(self.request.text) else "on"
        sets = bool(SETTING_CALL.search(code)) or any(
            fact.toggled == wanted for fact in self.screen)
        return sets and typed == code.count("into=") and \
            self.screen_after == self.runs and bool(self.screen) and \
            not any(fact.undone for fact in self.screen)

    def reply(self, keys: tuple[Key, ...]) -> tuple[Rerun, int]:
        """A reply's calls, before they are taken: several, all the same as the last reply's,
        which all succeeded, are a loop of checks (`ls` then `cat`, ten times over) that
        `rerun` cannot see, each call following another. "told" or "stop" as `rerun`."""
        same = 0
        for each, since in reversed(self.replies):
            ok = all(tried.end.exit_status == 0 for tried in self.tries[since:])
            if len(keys) < 2 or each != keys or not ok:
                break
            same += 1
        self.replies.append((keys, len(self.tries)))
        if not same:
            return "run", 0
        times = same + 1
        return ("stop" if times >= REPEATS_BEFORE_STOP else "told"), times
