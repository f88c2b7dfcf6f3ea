"""One action at a time without an LLM, for clients of `assistant mcp`: proposed, rated,
previewed, approved by a person through this assistant's own prompt or popup, run, held to
its preview, journaled, undoable.

The same parts (assistant.actions.parts) and the same stages (assistant.actions.pipeline)
as a conversation's, so a client gets nothing a turn would not: no approval of its own, no
way around high risk, the effect of its code shown and rated before anyone says yes, and
`assistant undo` to take a run back. What it adds is only how the client is told.
"""

from __future__ import annotations

import sys
import threading
import uuid
from collections.abc import Callable, Generator

from assistant.actions.outcomes import Cleared, Declined, Halt, Ran, Reported, SentBack
from assistant.actions.parts import build
from assistant.actions.pipeline import take
from assistant.config import Settings
from assistant.events import Approval, Event, OutputChunk
from assistant.safety.policy import Approver

TITLE = "assistant mcp"


class Gate:
    """Proposals from an MCP client; `show` sees every event, as a front end does."""

    def __init__(self, settings: Settings, approver: Approver | None,
                 show: Callable[[Event], None] | None = None) -> None:
        self.settings = settings
        self.show = show or (lambda event: None)
        # without the configured servers' tools: a client calls this assistant's own
        self.parts = build(settings, approver, _said, tools=False)
        self.conversation_id = ""
        self._one = threading.Lock()  # one person answers one proposal at a time

    def run(self, language: str, code: str, asked_by: str) -> str:
        """Propose `code`; what the client is told: its output, or why nothing ran."""
        with self._one:
            self._record_call(asked_by)
            steps = take(self.parts, Client(self, language, code), f"mcp_{uuid.uuid4().hex[:20]}")
            while True:
                try:
                    next(steps)
                except StopIteration as done:
                    return str(done.value.told)

    def close(self) -> None:
        self.parts.close()

    def _record_call(self, asked_by: str) -> None:
        journal = self.parts.journal
        if journal is None:
            return
        if not self.conversation_id:
            self.conversation_id = journal.start_conversation("", TITLE)
        journal.record(self.conversation_id, 0, {"kind": "mcp_call", "text": asked_by})

    def emit(self, event: Event) -> Event:
        self.show(event)
        if self.parts.journal is not None and not isinstance(event, OutputChunk):
            self.parts.journal.record(self.conversation_id, 0, event)
        return event


class Client:
    """A client's call as the pipeline takes it: as sent (no turn to vet it against, no
    model to send a preview back to), told in one text."""

    def __init__(self, gate: Gate, language: str, code: str) -> None:
        self.gate, self.language, self.code = gate, language, code

    def emit(self, event: Event) -> Event:
        return self.gate.emit(event)

    def stopped(self) -> bool:
        return False  # a client ends a call by going away; the run's own limits hold

    def vet(self) -> Generator[Event, None, Cleared | SentBack | Halt]:
        return Cleared(self.language, self.code)
        yield  # a generator, as every stage that may say something is

    def judge(self, seen: object, cleared: Cleared
              ) -> Generator[Event, None, SentBack | Halt | None]:
        return None  # the person sees the effect, a failed one too, and decides
        yield

    def declined(self, approval: Approval) -> Declined:
        why = f": {approval.reason}" if approval.reason else ""
        return Declined(f"Not run: declined by the {approval.decided_by}{why}.")

    def report(self, ran: Ran, cleared: Cleared) -> Reported:
        end = ran[0]
        status = "did not finish" if end.exit_status is None else f"exit status {end.exit_status}"
        told = f"{end.output.rstrip()}\n[{status}]" if end.output.strip() else f"[{status}]"
        return Reported(told, ran)


def _said(line: str) -> None:
    """What the parts could not be as configured: on stderr, which an MCP client logs;
    stdout is the protocol's."""
    print(f"{TITLE}: {line}", file=sys.stderr)
