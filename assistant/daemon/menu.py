"""The tray menu's items beyond Listen: switches, conversations, folders, quitting.

A part of the Daemon (assistant.daemon.controller), kept apart because the daemon's turn
and hotkey logic is long enough on its own. Everything here is called on the tray's
thread and returns at once; slow work goes to the daemon's worker as a job.
"""

from __future__ import annotations

import contextlib
import queue
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.choices import ApprovalMode
from assistant.config import Settings
from assistant.daemon.approvals import Approvals
from assistant.daemon.entry import RequestEntry
from assistant.daemon.notices import Notifier
from assistant.daemon.parts import PopupLike
from assistant.daemon.state import State

if TYPE_CHECKING:
    from assistant.api import Assistant


class TrayMenu:
    """The menu's actions; the Daemon provides the attributes below."""

    settings: Settings
    assistant: Assistant
    approvals: Approvals
    popup: PopupLike
    notifier: Notifier
    entry: RequestEntry
    hotkey_paused: bool
    log: Callable[[str], None]
    _jobs: queue.Queue[Callable[[], None] | None]
    _last_request: float  # monotonic; a conversation chosen now is not left for silence
    _make_assistant: Callable[..., Assistant]

    @property
    def state(self) -> State:
        raise NotImplementedError

    @property
    def detail(self) -> str:
        raise NotImplementedError

    def say(self, text: str) -> None:
        raise NotImplementedError

    def warm_up(self) -> None:
        raise NotImplementedError

    def _state_changed(self, state: State, detail: str) -> None:
        raise NotImplementedError


    def run_pending(self) -> None:
        self.approvals.answer(True, "tray menu")

    def cancel_pending(self) -> None:
        self.approvals.answer(False, "tray menu")

    def set_auto_approval(self, on: bool) -> None:
        """The tray's Auto-run: the `auto` approval mode, low risk only, never medium or high
        (a mode of never stays never)."""
        mode: ApprovalMode = "auto" if on else "ask"
        if self.assistant.policy.mode != "never":
            self.assistant.policy.mode = mode
            self.settings = self.settings.replace(approval=mode)
        self.log(f"assistant daemon: auto-run {'on' if on else 'off'}")
        self._state_changed(self.state, self.detail)

    def set_screen_context(self, on: bool) -> None:
        self.settings = self.settings.replace(screen_context="auto" if on else "never")
        self._jobs.put(self._rebuild)

    def set_model(self, name: str) -> None:
        self.settings = self.settings.replace(model=name)
        self._jobs.put(self._rebuild)

    def _rebuild(self) -> None:
        """A new Assistant for changed settings, continuing the same conversation."""
        old = self.assistant
        self.assistant = self._make_assistant(
            settings=self.settings.replace(approval=old.policy.mode), approver=self.approvals,
            messages=old.messages, conversation_id=old.conversation_id)
        old.close()
        self.log(f"assistant daemon: model {self.assistant.settings.model}, screen context "
                 f"{self.settings.screen_context}")
        self._state_changed(self.state, self.detail)

    def new_conversation(self) -> None:
        """Start afresh (the tray, a spoken "start over"); the last one stays in the
        journal."""
        self._last_request = time.monotonic()
        self._jobs.put(self._fresh)
        self.popup.tell("New conversation: the last one is kept in the journal.")
        self.say("Starting a new conversation.")

    def undo_last_run(self) -> None:
        """Put back what the latest run changed (the tray, a spoken "undo that"), on the
        worker after any turn; the sentence, or why not, is shown and said."""
        def undo() -> None:
            from assistant.whatif.undo import UndoError

            try:
                said, failed = self.assistant.undo(), False
            except UndoError as error:
                said, failed = f"{str(error)[:1].upper()}{str(error)[1:]}.", True
            self.log(f"assistant daemon: {said}")
            self.popup.tell(said, error=failed)
            self.say(said)

        self._jobs.put(undo)

    def _fresh(self) -> None:
        old = self.assistant
        self.assistant = self._make_assistant(
            settings=self.settings.replace(approval=old.policy.mode), approver=self.approvals)
        old.close()
        self.log("assistant daemon: new conversation")
        self._state_changed(self.state, self.detail)

    def open_conversation(self, conversation_id: str) -> None:
        def resume() -> None:
            journal = self.assistant.journal
            assert journal is not None  # checked before this job was queued
            record = journal.conversation(conversation_id)
            old = self.assistant
            self.assistant = self._make_assistant(
                settings=self.settings, approver=self.approvals,
                messages=record["messages"], conversation_id=record["id"])
            old.close()
            self.notifier.notify("assistant", f"continuing {record['title'] or record['id']}")

        if self.assistant.journal is not None:
            self._last_request = time.monotonic()
            self._jobs.put(resume)

    def open_journal_folder(self) -> None:
        self._open(self.assistant.settings.data_path)

    def open_settings(self) -> None:
        path = self.settings.config_path / "config.toml"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("# assistant settings: see README.md, \"Settings\"\n")
        self._open(path)

    def _open(self, path: Path) -> None:
        opener = shutil.which("xdg-open")
        if opener is None:
            self.notifier.notify("assistant", f"open {path} (xdg-open is not installed)")
            return
        subprocess.Popen([opener, str(path)], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)

    def set_hotkey_paused(self, paused: bool) -> None:
        self.hotkey_paused = paused
        self.log(f"assistant daemon: hotkey {'paused' if paused else 'armed'}")
        self._state_changed(self.state, self.detail)

    def type_request(self) -> None:
        self.warm_up()
        with contextlib.suppress(RuntimeError):
            self.popup.call(self.entry.show)

    def bring_forward(self) -> str:
        """A second start asked for us: show the waiting proposal, else the entry."""
        if self.approvals.pending is not None:
            with contextlib.suppress(RuntimeError):
                self.popup.call(lambda window: window.reveal())
        else:
            self.type_request()
        return "ok"

    def quit(self) -> None:
        self.log("assistant daemon: quitting")
        self.popup.stop()
