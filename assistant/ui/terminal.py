"""The terminal front end: renders the event stream and asks the human for approvals.

Ctrl-C while code runs stops the run, not the assistant; at the prompt, a second Ctrl-C
in a row exits. Approvals are read only from the keyboard (the controlling terminal),
never from piped input, so nothing a program prints can answer the prompt.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TextIO

from rich.console import Console
from rich.panel import Panel

from assistant.events import (
    Approval,
    CodeDraft,
    Error,
    Event,
    Notice,
    OutputChunk,
    Proposal,
    RuleFired,
    RunEnd,
    TextDelta,
    Tried,
    TurnEnd,
    Usage,
    assert_never,
)
from assistant.safety.redact import Redactor
from assistant.ui.summary import effect_lines, run_summary

if TYPE_CHECKING:
    from assistant.api import Assistant

LEXERS = {"python": "python", "shell": "bash", "javascript": "javascript"}
SUFFIXES = {"python": ".py", "shell": ".sh", "javascript": ".js"}
CHOICES = "[y]es  [n]o  [e]dit  [a]lways"
CODE_CHOICE = "  [c]ode"
"""Offered when the effect is shown first: the code is one key away."""
TRIED_CHOICE = "  [t]ried"
"""Offered after tries that failed in a copy of the files: their code is one key away."""
RISK_STYLES = {"medium": "yellow", "high": "bold red", "blocked": "bold red"}
HOLD = 256
"""Most characters of a trailing word held back from live output, waiting for its end."""


def open_keyboard() -> TextIO | None:
    """The human's keyboard: stdin when it is a terminal, else the controlling terminal."""
    if sys.stdin.isatty():
        return sys.stdin
    try:
        return open("/dev/tty", encoding="utf-8", errors="replace")
    except OSError:
        return None


def editor_command() -> list[str]:
    for name in (os.environ.get("VISUAL"), os.environ.get("EDITOR"), "nano", "vi"):
        if name and shutil.which(shlex.split(name)[0]):
            return shlex.split(name)
    return []


class LiveRedaction:
    """Masks secrets in output as it streams, though a secret may arrive in two chunks.

    A secret has no whitespace in it, so each chunk is shown up to its last whitespace
    and the trailing word (at most HOLD characters) waits for the next chunk, a change
    of stream, or the end of the run: a prompt ending in a space shows at once.
    """

    def __init__(self, redact: Callable[[str], str]) -> None:
        self.redact = redact
        self._stream: str = "stdout"
        self._held = ""

    def feed(self, stream: str, text: str) -> list[tuple[str, str]]:
        """The (stream, text) pieces that can be shown now, secrets masked."""
        shown = self.flush() if stream != self._stream else []
        self._stream = stream
        text = self._held + text
        end = len(text)
        while end > 0 and not text[end - 1].isspace() and len(text) - end < HOLD:
            end -= 1
        self._held = text[end:]
        if end:
            shown.append((stream, self.redact(text[:end])))
        return shown

    def flush(self) -> list[tuple[str, str]]:
        """What is held back, masked, once no more of it can come."""
        held, self._held = self._held, ""
        return [(self._stream, self.redact(held))] if held else []


class Terminal:
    """Renders events with rich and asks for approvals on the keyboard.

    Run output is shown with secrets masked by `redact` (by default the environment's
    keys and well-known key shapes; during a turn, the assistant's own redactor).
    """

    def __init__(
        self,
        console: Console | None = None,
        keyboard: TextIO | None = None,
        redact: Callable[[str], str] | None = None,
    ) -> None:
        # emoji off: the model's words are shown as written (":fire:" stays text)
        self.console = console or Console(highlight=False, emoji=False)
        self.keyboard = keyboard
        self._live = LiveRedaction(redact or Redactor.from_environment())
        self._at_line_start = True
        self._on_interrupt: Callable[[], None] | None = None
        self._running = False
        self._tried: list[Tried] = []  # this turn's tries that failed in their preview

    def _write(self, text: str, style: str = "") -> None:
        if not text:
            return
        self.console.print(text, end="", style=style or None, markup=False, highlight=False)
        self._at_line_start = text.endswith("\n")

    def _newline(self) -> None:
        if not self._at_line_start:
            self._write("\n")

    def _line(self, text: str, style: str) -> None:
        self._newline()
        self._write(text + "\n", style)

    def _output(self, pieces: list[tuple[str, str]]) -> None:
        for stream, text in pieces:
            self._write(text, "red" if stream == "stderr" else "")

    def show(self, event: Event) -> None:
        self._running = isinstance(event, (Approval, OutputChunk)) and (
            not isinstance(event, Approval) or event.approved
        )
        if not isinstance(event, OutputChunk):
            self._output(self._live.flush())
        match event:
            case TextDelta():
                self._write(event.text)
            case Proposal():
                self._proposal(event)
            case Approval():
                if event.decided_by != "user" or not event.approved:
                    decided = "approved" if event.approved else "declined"
                    why = f": {event.reason}" if event.reason else ""
                    self._line(f"{decided} by {event.decided_by}{why}", "dim")
            case OutputChunk():
                self._output(self._live.feed(event.stream, event.text))
            case RunEnd():
                self._line(run_summary(event), "green" if event.exit_status == 0 else "yellow")
            case Notice():
                self._line(event.text, "yellow")
            case Tried():
                self._tried.append(event)
                self._line(f"▸ {event.text}", "dim yellow")
            case Error():
                self._line(f"error: {event.text}", "bold red")
            case TurnEnd():
                self._tried = []
                self._newline()
            case Usage() | RuleFired():
                pass  # token counts and rules go to the journal, not the screen
            case CodeDraft():
                pass  # the proposal that follows prints the code once, whole
            case _:
                assert_never(event)

    def _proposal(self, event: Proposal) -> None:
        """The previewed effect first (the code one key away, or shown too when the effect
        changes nothing), else the code."""
        self._newline()
        style = RISK_STYLES.get(event.risk, "")
        if event.effect is not None:
            first, *rest = effect_lines(event.effect)
            self._line(f"{event.language} · risk {event.risk} · {first}", style or "bold")
            for line in rest:
                self._line(f"  {line}", "dim")
            if event.effect.harmless:
                self._code(event, style)
        else:
            self._code(event, style)
        for reason in event.reasons:
            self._line(f"  {event.risk}: {reason}", style or "dim")

    def _code(self, event: Proposal, style: str = "") -> None:
        self._panel(event.code, event.language, f"{event.language} · risk {event.risk}", style)

    def _panel(self, code: str, language: str, title: str, style: str = "") -> None:
        from rich.syntax import Syntax  # pygments: loaded when code is first shown

        self.console.print(Panel(Syntax(code, LEXERS.get(language, "text"), word_wrap=True),
                                 title=title, title_align="left", border_style=style or "none"))

    def ask(self, prompt: str) -> str | None:
        """One line from the keyboard; None when there is no keyboard or it is closed."""
        if self.keyboard is None:
            return None
        self._newline()
        self.console.print(prompt, end="", markup=False, highlight=False)
        line = self.keyboard.readline()
        return line.strip() if line else None

    def approve(self, proposal: Proposal) -> Approval:
        """The human decides; Ctrl-C here declines and stops the turn."""
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            while True:
                what = f"Call {proposal.language}" if proposal.tool else (
                    f"Run this {proposal.language} code")
                offer = CHOICES + (CODE_CHOICE if proposal.effect is not None else "") + (
                    TRIED_CHOICE if self._tried else "")
                answer = self.ask(f"{what}? {offer}: ")
                if answer is None:
                    return Approval(
                        proposal.id, False, "policy",
                        reason="no terminal to ask for approval; use -y to auto-run",
                    )
                choice = answer.lower()[:1]
                if choice in ("y", "a"):
                    return Approval(proposal.id, True, "user", proposal.code, always=choice == "a")
                if choice == "n":
                    return Approval(proposal.id, False, "user")
                if choice == "c":
                    self._code(proposal, RISK_STYLES.get(proposal.risk, ""))
                    continue
                if choice == "t" and self._tried:
                    for tried in self._tried:
                        title = f"{tried.language} · tried, not proposed"
                        self._panel(tried.code, tried.language, title, "dim")
                    continue
                if choice == "e":
                    edited = self.edit(proposal)
                    if edited is not None:
                        return Approval(proposal.id, True, "user", edited, reason="edited")
        except KeyboardInterrupt:
            self._line("declined (Ctrl-C): stopping the turn", "dim")
            if self._on_interrupt is not None:
                self._on_interrupt()
            return Approval(proposal.id, False, "user", reason="stopped with Ctrl-C")
        finally:
            signal.signal(signal.SIGINT, previous)

    def edit(self, proposal: Proposal) -> str | None:
        """Open the code in the user's editor; None (ask again) when it comes back empty."""
        command = editor_command()
        if not command:
            self._line("no editor found: set $EDITOR", "yellow")
            return None
        suffix = SUFFIXES.get(proposal.language, ".txt")
        with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False) as handle:
            handle.write(proposal.code)
        try:
            subprocess.run([*command, handle.name], check=False)
            with open(handle.name, encoding="utf-8") as edited_file:
                edited = edited_file.read()
        finally:
            os.unlink(handle.name)
        if not edited.strip():
            self._line("the edited code is empty: not running it", "yellow")
            return None
        self._panel(edited, proposal.language, f"{proposal.language} (edited)")
        return edited

    def run_turn(self, assistant: Assistant, text: str) -> TurnEnd | None:
        """Show one turn live; Ctrl-C stops the LLM or the run and ends the turn."""
        end: TurnEnd | None = None
        self._live = LiveRedaction(assistant.redact)
        with self._interrupts(assistant):
            try:
                for event in assistant.turn(text):
                    self.show(event)
                    if isinstance(event, TurnEnd):
                        end = event
            except KeyboardInterrupt:
                self._output(self._live.flush())
                self._line("stopped", "dim")
        return end

    @contextlib.contextmanager
    def _interrupts(self, assistant: Assistant) -> Iterator[None]:
        def stop(_signum: int, _frame: object) -> None:
            self._line("stopping…", "dim")
            assistant.interrupt()
            if not self._running:
                raise KeyboardInterrupt  # breaks a blocked read of the LLM's answer

        previous = signal.signal(signal.SIGINT, stop)
        self._on_interrupt = assistant.interrupt
        try:
            yield
        finally:
            self._on_interrupt = None
            signal.signal(signal.SIGINT, previous)

    def loop(self, assistant: Assistant) -> None:
        """The interactive chat: Ctrl-D or two Ctrl-C in a row at the prompt exit."""
        self.console.print(
            f"[bold]assistant[/] · model [cyan]{assistant.settings.model}[/] · "
            "Ctrl-C stops a run, Ctrl-C twice or Ctrl-D exits",
            highlight=False,
        )
        armed = False
        while True:
            try:
                self._newline()
                text = input("> ")
            except KeyboardInterrupt:
                if armed:
                    self._write("\n")
                    return
                armed = True
                self._line("\n(press Ctrl-C again to exit)", "dim")
                continue
            except EOFError:
                self._write("\n")
                return
            armed = False
            if text.strip():
                self.run_turn(assistant, text)
