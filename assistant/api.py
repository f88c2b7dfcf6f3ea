"""The Python API: an Assistant is the handle on one conversation, with its own settings,
runtimes, policy and journal entry; the core (Session) does the turns."""

from __future__ import annotations

import contextlib
import json
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from assistant.actions.parts import build
from assistant.config import AUTO_RUN, Settings, load_settings
from assistant.events import Event, TurnEnd
from assistant.journal import Journal
from assistant.llm import LLM
from assistant.llm.backend import Backend
from assistant.loop.session import Session
from assistant.safety.keys import key_for_model
from assistant.safety.policy import Approver
from assistant.servers import local
from assistant.servers.started import Servers
from assistant.whatif.undo import UndoStore, undone_sentence


class Assistant:
    """Chat with an LLM that proposes code; runs only what the approver or policy allows.

    Settings come from config.toml and the environment, overridden by keyword arguments
    (any Settings field: model, api_base, approval, deny, max_output, journal, ...; the old
    auto_run=True still means approval="auto"). Without an approver, every proposal is
    declined, except low-risk ones in the auto approval mode:
    nothing runs unasked, and blocked code never runs at all. Without a model, a local one
    is found (Ollama) or the user's shared embedded model is used, started if need be and
    kept after close() for `embedded_keep_alive` (with 0, a private one until close());
    `notices` says which. `backend` is where litellm runs (assistant.llm.backend), by default here.
    `servers`: the embedded servers a caller already started (assistant.servers.started),
    when the settings point at one; without it the Assistant keeps its own.
    """

    def __init__(  # noqa: PLR0913 - keyword-only beyond the model, as in Settings
        self,
        model: str | None = None,
        *,
        settings: Settings | None = None,
        approver: Approver | None = None,
        messages: list[dict[str, Any]] | None = None,
        conversation_id: str = "",
        backend: Backend | None = None,
        servers: Servers | None = None,
        **overrides: Any,
    ) -> None:
        if model is not None:
            overrides["model"] = model
        if AUTO_RUN in overrides:
            warnings.warn('auto_run is deprecated; use approval="auto"', DeprecationWarning,
                          stacklevel=2)
        if settings is None:
            settings = load_settings(overrides)
        elif overrides:
            settings = settings.replace(**overrides)
        self.notices: list[str] = []
        self._resources = contextlib.ExitStack()
        if servers is None:  # its own, stopped with it
            servers = self._resources.enter_context(Servers(self.notices.append))
        try:
            if not settings.model:
                settings = local.ready(settings, servers)
            elif settings.offline:
                local.check_local(settings)
            if settings.model and not settings.api_key:
                settings = settings.replace(api_key=key_for_model(settings.model, dict(os.environ)))
            self.settings = settings
            self.parts = build(settings, approver, self.notices.append)
            self.redact, self.journal = self.parts.redact, self.parts.journal
            self.runtimes, self.tools = self.parts.runtimes, self.parts.tools
            self.policy = self.parts.policy
            self._session = Session(
                LLM(settings, self.tools, backend, servers),
                self.parts,
                conversation_id=conversation_id,
                messages=messages,
            )
        except BaseException:
            self._resources.close()  # no private embedded server outlives a failed start
            raise

    @classmethod
    def resume(cls, conversation_id: str | None = None, **kwargs: Any) -> Assistant:
        """Continue a journaled conversation (the latest one when no id is given)."""
        probe = kwargs.get("settings") or load_settings(
            {k: v for k, v in kwargs.items() if k not in ("approver", "settings")}
        )
        journal = Journal.in_dir(probe.data_path)
        try:
            record = journal.conversation(conversation_id)
        finally:
            journal.close()
        kwargs.setdefault("model", probe.model or record["model"])
        return cls(messages=record["messages"], conversation_id=record["id"], **kwargs)

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The conversation so far (OpenAI format, without the system message)."""
        return self._session.messages

    @messages.setter
    def messages(self, value: list[dict[str, Any]]) -> None:
        self._session.messages = list(value)

    @property
    def conversation_id(self) -> str:
        return self._session.conversation_id

    def turn(self, message: str, language: str = "") -> Iterator[Event]:
        """One turn: the events from `message` to the final answer, as they happen.
        `language` (ISO 639-1) is the one it was spoken in: other than English, the
        answer is asked for in it."""
        return self._session.turn(message, language)

    def chat(self, message: str, stream: bool = False) -> Iterator[Event] | list[Event]:
        """Deprecated: `turn()`. With stream=True its events as they come, else their list."""
        warnings.warn("Assistant.chat() is deprecated; use Assistant.turn()", DeprecationWarning,
                      stacklevel=2)
        events = self.turn(message)
        return events if stream else list(events)

    def ask(self, message: str) -> str:
        """One turn, returning only the LLM's final words."""
        final = [e for e in self.turn(message) if isinstance(e, TurnEnd)]
        return final[-1].text if final else ""

    def warm_up(self) -> None:
        """Load the LLM client now (it takes seconds), e.g. while the user is still typing."""
        self._session.llm.backend.warm_up()

    def interrupt(self) -> None:
        """Stop the LLM stream or the running code; safe from a signal handler or thread."""
        self._session.interrupt()

    def undo(self, run_id: str = "") -> str:
        """Put back what a run changed (default: the latest one not undone yet), and say what
        was undone in one sentence. Raises UndoError, having touched nothing, when it cannot
        (no such run, or its files changed since); the message is one line."""
        manifest = UndoStore(self.settings.data_path / "undo").undo(run_id)
        if self.journal is not None and self.conversation_id:
            self.journal.record(self.conversation_id, self._session.turns,
                                {"kind": "undo", "run": manifest["run"],
                                 "summary": manifest["summary"]})
        return undone_sentence(manifest)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.messages, indent=2, ensure_ascii=False))

    def load(self, path: str | Path) -> None:
        self.messages = json.loads(Path(path).read_text())

    def close(self) -> None:
        self.parts.close()
        self._resources.close()

    def __enter__(self) -> Assistant:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
