"""One action at a time without an LLM, for clients of `assistant mcp`: proposed, rated,
approved by a person through this assistant's own prompt or popup, run, journaled.

The same parts as a conversation's (policy, runtimes with their limits and sandbox,
journal), so a client gets nothing a turn would not: no approval of its own, no way
around high risk, and every step recorded.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable

from assistant.config import Settings
from assistant.events import Approval, Event, OutputChunk, RunEnd
from assistant.journal import Journal
from assistant.loop.screen import ScreenContext
from assistant.runtime import Runtimes
from assistant.runtime.sandbox import Sandbox
from assistant.runtime.watch import Limits
from assistant.safety.policy import Approver, Policy
from assistant.safety.rating import DenyRules
from assistant.safety.redact import Redactor

TITLE = "assistant mcp"


class Gate:
    """Proposals from an MCP client; `show` sees every event, as a front end does."""

    def __init__(self, settings: Settings, approver: Approver | None,
                 show: Callable[[Event], None] | None = None) -> None:
        self.settings = settings
        self.show = show or (lambda event: None)
        self.redact = Redactor.from_environment(settings.api_key)
        self.journal = Journal.in_dir(settings.data_path, self.redact) if settings.journal else None
        self.screen = ScreenContext(settings)
        sandbox = Sandbox.from_settings(settings)
        if sandbox is not None and sandbox.guard and sandbox.problem():
            sandbox = None  # the guard is best effort, as in a conversation
        self.runtimes = Runtimes(
            timeout=settings.timeout, max_output=settings.max_output,
            env=self.screen.runtime_env(None), sandbox=sandbox,
            limits=Limits(settings.max_memory_mb, settings.max_processes,
                          settings.max_cpu_seconds, settings.max_run_output),
            env_allow=settings.run_env_allow)
        self.policy = Policy(approver, mode=settings.approval, deny=DenyRules.parse(settings.deny),
                             protected=settings.own_paths, places=settings.auto_places)
        self.conversation_id = ""
        self._one = threading.Lock()  # one person answers one proposal at a time

    def run(self, language: str, code: str, asked_by: str) -> tuple[Approval, RunEnd | None]:
        """Propose `code`; its approval and, when it ran, how the run ended."""
        with self._one:
            self._record_call(asked_by)
            proposal = self.policy.proposal(f"mcp_{uuid.uuid4().hex[:20]}", language, code)
            self._emit(proposal)
            approval = self.policy.decide(proposal)
            self._emit(approval)
            if not approval.approved:
                return approval, None
            end: RunEnd | None = None
            for event in self.runtimes.run(language, approval.code, proposal_id=proposal.id):
                self._emit(event)
                if isinstance(event, RunEnd):
                    end = event
            return approval, end

    def close(self) -> None:
        self.runtimes.close()
        if self.journal is not None:
            self.journal.close()

    def _record_call(self, asked_by: str) -> None:
        if self.journal is None:
            return
        if not self.conversation_id:
            self.conversation_id = self.journal.start_conversation("", TITLE)
        self.journal.record(self.conversation_id, 0, {"kind": "mcp_call", "text": asked_by})

    def _emit(self, event: Event) -> None:
        self.show(event)
        if self.journal is not None and not isinstance(event, OutputChunk):
            self.journal.record(self.conversation_id, 0, event)
