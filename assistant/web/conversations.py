"""The turns `assistant serve` runs itself: an Assistant per open conversation, each turn on
a thread of its own, every proposal waiting in the hub for the page (or an API client).

One turn at a time per conversation; a few conversations stay open (their interpreters
alive), the least recently used one is closed when another opens.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from assistant.config import Settings
from assistant.events import Approval, Proposal
from assistant.web.live import Busy, Hub, LiveTurn

if TYPE_CHECKING:
    from assistant.api import Assistant
    from assistant.safety.policy import Policy
    from assistant.servers.started import Servers

OPEN = 4  # conversations kept open at once
NEW = ""


class _Approver:
    """The policy's approver for one Assistant: its proposals wait in the hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.turn: LiveTurn | None = None
        self.policy: Policy | None = None  # its Assistant's, to rate edited code

    def __call__(self, proposal: Proposal) -> Approval:
        answered = threading.Event()
        answers: list[Approval] = []

        def answer(approval: Approval) -> None:
            answers.append(approval)
            answered.set()

        assert self.turn is not None, "proposals come only during a turn"
        policy = self.policy
        rate = None if policy is None else (
            lambda code: policy.assess(proposal.language, code).risk)
        self.hub.offer(self.turn, proposal, answer, rate)
        answered.wait()
        return answers[0]


class Conversations:
    """Starts and interrupts turns for the server's handlers."""

    def __init__(self, settings: Settings, hub: Hub,
                 make: Callable[..., Assistant] | None = None,
                 servers: Servers | None = None) -> None:
        """`servers`: the embedded servers `settings` may point at, which every
        conversation's Assistant talks to (assistant.servers.started)."""
        self.settings = settings
        self.hub = hub
        self._make = make
        self.servers = servers
        self._lock = threading.Lock()
        self._open: OrderedDict[str, tuple[Assistant, _Approver]] = OrderedDict()
        self._running: dict[str, tuple[Assistant, LiveTurn, threading.Thread]] = {}

    def start(self, text: str, conversation_id: str = NEW) -> LiveTurn:
        """Begin a turn (in a new conversation for NEW); raises Busy or JournalError."""
        with self._lock:
            ending = [thread for _, turn, thread in self._running.values()
                      if conversation_id and turn.conversation_id == conversation_id
                      and turn.over]
        for thread in ending:  # its end is out; its thread is putting the conversation back
            thread.join(10)
        with self._lock:
            if any(turn.conversation_id == conversation_id and conversation_id
                   for _, turn, _ in self._running.values()):
                raise Busy(f"conversation {conversation_id} is in a turn: wait for its end, "
                           "or interrupt it")
            assistant, approver = self._take(conversation_id)
            turn = self.hub.open_turn(text, assistant.conversation_id)
            approver.turn = turn
            thread = threading.Thread(target=self._run, args=(assistant, turn),
                                      name=f"turn-{turn.id}", daemon=True)
            self._running[turn.id] = (assistant, turn, thread)
        thread.start()
        return turn

    def _take(self, conversation_id: str) -> tuple[Assistant, _Approver]:
        if conversation_id in self._open:
            return self._open.pop(conversation_id)
        from assistant.api import Assistant

        make = self._make or functools.partial(Assistant, servers=self.servers)
        approver = _Approver(self.hub)
        extra: dict[str, Any] = {}
        if conversation_id:
            from assistant.journal import Journal

            journal = Journal.in_dir(self.settings.data_path)
            try:
                record = journal.conversation(conversation_id)
            finally:
                journal.close()
            extra = {"messages": record["messages"], "conversation_id": record["id"]}
        assistant = make(settings=self.settings, approver=approver, **extra)
        approver.policy = assistant.policy
        return assistant, approver

    def _run(self, assistant: Assistant, turn: LiveTurn) -> None:
        try:
            for event in assistant.turn(turn.text):
                self.hub.publish(turn, event)
        except Exception as exc:  # the server outlives any one turn
            self.hub.end(turn, f"{type(exc).__name__}: {exc}")
        finally:
            with self._lock:
                self._running.pop(turn.id, None)
                self._keep(assistant)

    def _keep(self, assistant: Assistant) -> None:
        """Keep the conversation open for its next turn; close the oldest beyond OPEN."""
        key = assistant.conversation_id
        if not key or self.hub.closed:
            assistant.close()
            return
        approver = assistant.policy.approver
        assert isinstance(approver, _Approver)
        self._open[key] = (assistant, approver)
        while len(self._open) > OPEN:
            _, (oldest, _) = self._open.popitem(last=False)
            oldest.close()

    def interrupt(self, turn: LiveTurn) -> bool:
        """Stop the turn's LLM stream or run, and decline what it waits on."""
        with self._lock:
            running = self._running.get(turn.id)
        if running is None:
            return False
        running[0].interrupt()
        self.hub.cancel(turn, "interrupted from the web page")
        return True

    def undo(self) -> str:
        """Put back what the latest run changed, through the conversation used last (its
        journal records the undo); raises UndoError, touching nothing, when it cannot."""
        with self._lock:
            latest = next(reversed(self._open.values()), None)
        if latest is not None:
            return latest[0].undo()
        from assistant.whatif.undo import UndoStore, undone_sentence

        return undone_sentence(UndoStore(self.settings.data_path / "undo").undo())

    def warm_up(self) -> None:
        """Load the LLM client before the first request needs it; the embedded model's
        server needs none (llm/direct.py)."""
        from assistant.llm import direct
        from assistant.llm.backend import load_litellm

        if not direct.speaks_to(self.settings, self.servers):
            load_litellm()

    def stop(self) -> None:
        """Interrupt every turn, then decline what they wait on: interrupted first, so a
        declined proposal does not send the turn back to the LLM."""
        with self._lock:
            running = list(self._running.values())
        for assistant, _, _ in running:
            assistant.interrupt()
        self.hub.close()

    def close(self) -> None:
        """Stop every turn, wait for their threads, and close every conversation."""
        self.stop()
        with self._lock:
            running = list(self._running.values())
        for _, _, thread in running:
            thread.join(10)
        with self._lock:
            for assistant, _ in self._open.values():
                assistant.close()
            self._open.clear()
