"""The daemon's one visible state, with the transitions it may take.

Every change is validated, written to the log in one stable line (tests and scripts read
it) and passed to the listeners (the tray redraws its icon and tooltip)::

    assistant daemon: state idle -> listening
    assistant daemon: state thinking -> error (the LLM server is not answering ...)

The line is `assistant daemon: state OLD -> NEW`, then ` (DETAIL)` when there is one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection

from assistant.choices import STATES, State

# Where each state may go. The hotkey may interrupt speaking, thinking and approval to
# listen; any state may fail into error; the worker ends every turn in idle.
TRANSITIONS: dict[State, frozenset[State]] = {
    "idle": frozenset({"listening", "thinking", "speaking", "error"}),
    "listening": frozenset({"transcribing", "idle", "awaiting_approval", "error"}),
    "transcribing": frozenset({"thinking", "awaiting_approval", "idle", "error"}),
    "thinking": frozenset({"awaiting_approval", "running", "speaking", "listening", "idle",
                           "error"}),
    "awaiting_approval": frozenset({"listening", "running", "thinking", "speaking", "idle",
                                    "error"}),
    "running": frozenset({"thinking", "awaiting_approval", "speaking", "idle", "error"}),
    "speaking": frozenset({"listening", "thinking", "idle", "error"}),
    "error": frozenset({"idle", "listening", "speaking", "thinking"}),
}

PREFIX = "assistant daemon: state "
Listener = Callable[[State, str], None]  # (state, detail), after every change


class InvalidTransition(Exception):
    """A change the state machine does not allow: a wiring mistake, not a user error."""


def log_line(old: str, new: str, detail: str = "") -> str:
    """The documented log line for one change."""
    return f"{PREFIX}{old} -> {new}" + (f" ({detail})" if detail else "")


class StateMachine:
    """Holds the state; `to()` moves it, under a lock, and tells every listener."""

    def __init__(self, log: Callable[[str], None],
                 listeners: Collection[Listener] = ()) -> None:
        self._log = log
        self._listeners = list(listeners)
        self._lock = threading.RLock()
        self.state: State = "idle"
        self.detail = ""

    def listen(self, listener: Listener) -> None:
        """Call `listener(state, detail)` after every change."""
        self._listeners.append(listener)

    def to(self, new: State, detail: str = "", *,
           only_from: tuple[State, ...] | None = None) -> bool:
        """Move to `new`; with `only_from`, only when the current state is one of those.

        Returns whether the state changed. Staying in the same state only updates the
        detail (and tells the listeners when it differs).
        """
        with self._lock:
            old = self.state
            if only_from is not None and old not in only_from:
                return False
            if new not in STATES:
                raise InvalidTransition(f"unknown state {new!r}")
            if new == old:
                if detail == self.detail:
                    return False
                self.detail = detail
            elif new not in TRANSITIONS[old]:
                raise InvalidTransition(f"the daemon cannot go from {old} to {new}")
            else:
                self.state, self.detail = new, detail
                self._log(log_line(old, new, detail))
            for listener in self._listeners:
                listener(new, detail)
            return True

    def is_in(self, *states: State) -> bool:
        return self.state in states

    def follow(self, new: State, detail: str = "") -> bool:
        """The turn's own move: made only where the table allows it from the current state,
        so a user who is talking (listening, transcribing) is never overruled by a turn
        that is winding down."""
        with self._lock:
            old = self.state
            if old in ("listening", "transcribing") or (new != old and new not in TRANSITIONS[old]):
                return False
            return self.to(new, detail)
