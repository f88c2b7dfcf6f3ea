"""The confirmation popup: a Tk window that approves proposals and shows their runs.

Tk must live on one thread. The front end calls `Popup.run()` on the thread that owns Tk;
session threads call `approve(proposal)`, which blocks until the human decides, and
`show(event)`. Both reach Tk through a queue that the Tk thread polls with `after`.
The popup never decides on its own: no timeout ever turns into a Run or a Cancel.
Several proposals waiting at once are shown one after another, in the order they came.
A front end that calls `begin(request)` gets a panel from the start of the turn: the
request, "Thinking…", then the LLM's words as they stream, until a proposal or the
answer takes their place.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

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
from assistant.ui.summary import run_summary

if TYPE_CHECKING:
    from assistant.ui.popup_widgets import PopupWindow

CLOSE_AFTER = 4.0  # seconds the final answer stays up before the popup hides itself
POLL_MS = 25
IDLE_POLL_MS = 100  # after IDLE_AFTER_S without work: an idle daemon costs next to no CPU
IDLE_AFTER_S = 3.0
T = TypeVar("T")


@dataclass
class _Request:
    """One proposal waiting for the human; the asking thread waits on `done`."""

    proposal: Proposal
    summary: str
    done: threading.Event = field(default_factory=threading.Event)
    approval: Approval | None = None


class Popup:
    """An approver and event consumer for front ends that have a desktop."""

    def __init__(self) -> None:
        self._inbox: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._closed = False
        self._started = threading.Event()
        self._tk_thread: threading.Thread | None = None
        self._outstanding: dict[int, _Request] = {}  # asked and not yet answered
        self._window: PopupWindow | None = None
        self._queue: deque[_Request] = deque()
        self._current: _Request | None = None
        self._turn_over = True
        self._streaming = False  # begin() was called: the turn's words are shown as they come
        self._close_timer: str | None = None
        self._last_work = time.monotonic()  # polls are fast for IDLE_AFTER_S after this

    # Any thread.

    def approve(self, proposal: Proposal, summary: str = "") -> Approval:
        """Show `proposal` (with the spoken `summary`) and wait for Run, Edit + Run or Cancel."""
        if threading.current_thread() is self._tk_thread:
            raise RuntimeError("approve() waits for the Tk thread: call it from another thread")
        asked = f"Call {proposal.language}?" if proposal.tool else (
            f"Run this {proposal.language} code?")
        request = _Request(proposal, summary or asked)
        if not self._submit(lambda: self._enqueue(request), request):
            return Approval(proposal.id, False, "caller", reason="the popup is closed")
        request.done.wait()
        assert request.approval is not None
        return request.approval

    def show(self, event: Event) -> None:
        """Render an event of the turn (output, run end, answer) if the popup is showing it."""
        self._submit(lambda: self._render(event))

    def begin(self, request: str, note: str = "", timeout: float = 5.0) -> bool:
        """Show the panel of a turn that starts now (the request, "Thinking…", then the words
        as they stream); returns once it is on screen and the keyboard focus is back with
        the person's window (the turn may read the screen next: focus.py), False if the
        popup is not running."""
        if threading.current_thread() is self._tk_thread:
            self._begin(request, note)
            return True
        shown = threading.Event()

        def task() -> None:
            try:
                self._begin(request, note)
            finally:
                shown.set()

        if not (self._submit(task) and shown.wait(timeout)):
            return False
        self._ui.keeper.settle(self.call(lambda w: w.frame()),
                               lambda: self.call(lambda w: w.visible()))
        return True

    def tell(self, text: str, error: bool = False) -> None:
        """Show a message nobody else could show (no notification service): on its own, then
        hidden after CLOSE_AFTER; below the output when a proposal is up."""
        self._submit(lambda: self._tell(text, error))

    def resolve(self, approval: Approval) -> None:
        """Answer a waiting proposal from elsewhere (the tray menu, a spoken "yes")."""
        self._submit(lambda: self._resolve(approval))

    def call(self, function: Callable[[PopupWindow], T], timeout: float = 5.0) -> T:
        """Run `function(window)` on the Tk thread and return its result (for inspection)."""
        if threading.current_thread() is self._tk_thread:
            assert self._window is not None
            return function(self._window)
        results: list[tuple[bool, object]] = []
        done = threading.Event()

        def task() -> None:
            try:
                assert self._window is not None
                results.append((True, function(self._window)))
            except Exception as exc:  # handed back to the calling thread
                results.append((False, exc))
            finally:
                done.set()

        if not self._submit(task) or not done.wait(timeout):
            raise RuntimeError("the popup is not running: call Popup.run() on the Tk thread")
        ok, value = results[0]
        if not ok:
            raise value  # type: ignore[misc]
        return value  # type: ignore[return-value]

    def wake(self) -> None:
        """Work is coming soon (a turn starts): poll at full speed again."""
        self._last_work = time.monotonic()

    def wait_ready(self, timeout: float = 10.0) -> bool:
        """True once `run()` has built the window and polls for work."""
        return self._started.wait(timeout)

    def stop(self) -> None:
        """End `run()`; proposals still waiting are declined."""
        self._submit(lambda: self._window.root.quit() if self._window else None)

    def _submit(self, task: Callable[[], None], request: _Request | None = None) -> bool:
        with self._lock:
            if self._closed:
                return False
            if request is not None:
                self._outstanding[id(request)] = request
            self._inbox.put(task)
            return True

    # The Tk thread.

    def open(self) -> None:
        """Build the window (hidden) on this thread, which must then call `run()`; raises
        when Tk cannot open the display.

        Tk's start holds the interpreter lock until the X server has answered. A program
        that starts other threads (a hotkey listener, a tray, models loading) calls this
        first: made while they started, Tk's start has hung for minutes."""
        from assistant.ui.popup_widgets import PopupWindow

        if self._window is None:
            self._tk_thread = threading.current_thread()
            self._window = PopupWindow(on_run=self._run_clicked, on_edit=self._edit_clicked,
                                       on_cancel=self._cancel_clicked, on_escape=self._escape)

    def run(self) -> None:
        """Build the window if `open()` has not, and run the Tk main loop on this thread
        until `stop()`."""
        self.open()
        window = self._ui
        window.root.after(POLL_MS, self._pump)
        self._started.set()
        try:
            window.root.mainloop()
        finally:
            with self._lock:
                self._closed = True
                left = list(self._outstanding.values())
            self._window = None
            window.destroy()
            for request in left:
                self._answer(request, Approval(request.proposal.id, False, "caller",
                                               reason="the popup was closed"))

    def _pump(self) -> None:
        try:
            while True:
                try:
                    task = self._inbox.get_nowait()
                except queue.Empty:
                    break
                self._last_work = time.monotonic()
                task()
        finally:  # a failing task is reported by Tk; the popup keeps listening
            if self._window is not None:
                idle = time.monotonic() - self._last_work > IDLE_AFTER_S
                self._window.root.after(IDLE_POLL_MS if idle else POLL_MS, self._pump)

    def _enqueue(self, request: _Request) -> None:
        if self._current is None:
            self._present(request)
        else:
            self._queue.append(request)
            self._ui.set_waiting(len(self._queue))

    @property
    def _ui(self) -> PopupWindow:
        assert self._window is not None
        return self._window

    def _begin(self, request: str, note: str) -> None:
        if self._current is not None:
            return  # a proposal is up: it keeps the window
        self._cancel_close()
        self._ui.clear_output()
        self._turn_over, self._streaming = False, True
        self._ui.show_request(request, note)
        self._ui.reveal(focus=False)

    def _tell(self, text: str, error: bool) -> None:
        if self._current is not None:
            self._ui.append_output(text + "\n", "stderr" if error else "status")
            return
        self._cancel_close()
        self._ui.show_message(text, error)
        self._ui.reveal(focus=False)
        self._close_timer = self._ui.root.after(int(CLOSE_AFTER * 1000), self._close)

    def _present(self, request: _Request) -> None:
        self._cancel_close()
        if self._turn_over:
            self._ui.clear_output()
            self._turn_over = False
        self._current = request
        self._ui.show_proposal(request.proposal, request.summary, len(self._queue))
        self._ui.reveal()

    def _answer(self, request: _Request, approval: Approval) -> None:
        with self._lock:
            self._outstanding.pop(id(request), None)
        request.approval = approval
        request.done.set()

    def _decide(self, approval: Approval) -> None:
        request, self._current = self._current, None
        if request is None:
            return
        self._answer(request, approval)
        if self._queue:
            self._present(self._queue.popleft())
        elif approval.approved:
            self._ui.show_running()
        else:
            self._ui.hide()

    def _resolve(self, approval: Approval) -> None:
        if self._current is not None and self._current.proposal.id == approval.proposal_id:
            self._decide(approval)
            return
        for request in self._queue:
            if request.proposal.id == approval.proposal_id:
                self._queue.remove(request)
                self._ui.set_waiting(len(self._queue))
                self._answer(request, approval)
                return

    def _run_clicked(self) -> None:
        if self._current is None:
            return
        proposal = self._current.proposal
        code = self._ui.code_text() if self._ui.editing else proposal.code
        edited = code != proposal.code.replace("\r\n", "\n")
        self._decide(Approval(proposal.id, True, "user", code if edited else proposal.code,
                              reason="edited" if edited else ""))

    def _edit_clicked(self) -> None:
        if self._current is not None:
            self._ui.start_editing()

    def _cancel_clicked(self) -> None:
        if self._current is not None:
            self._decide(Approval(self._current.proposal.id, False, "user",
                                  reason="cancelled in the popup"))

    def _escape(self) -> None:
        if self._current is not None:
            self._cancel_clicked()
        else:
            self._cancel_close()
            self._ui.hide()

    def _render(self, event: Event) -> None:
        ui = self._ui
        match event:
            case OutputChunk():
                ui.append_output(event.text, "stderr" if event.stream == "stderr" else "")
            case RunEnd():
                ui.append_output(("" if ui.output_text().endswith("\n") or not ui.output_text()
                                  else "\n") + run_summary(event) + "\n", "status")
            case Notice():
                ui.append_output(event.text + "\n", "status")
            case Tried():  # its code was the draft on screen: one line now, not the code
                ui.drop_draft()
                ui.append_output(event.text + "\n", "status")
            case Error():
                ui.show_answer(event.text, error=True)
            case TurnEnd():
                self._turn_over, self._streaming = True, False
                ui.show_answer(event.text or f"The turn ended: {event.reason.replace('_', ' ')}.")
                if self._current is None and ui.visible():
                    self._close_timer = ui.root.after(int(CLOSE_AFTER * 1000), self._close)
            case TextDelta():
                if self._streaming and self._current is None:
                    ui.append_stream(event.text)
            case CodeDraft():
                if self._streaming and self._current is None:
                    ui.show_draft(event.language, event.code)
            case Usage() | RuleFired():
                pass  # usage and rules are the journal's
            case Proposal() | Approval():
                pass  # proposals come through approve(), which shows and decides them
            case _:
                assert_never(event)

    def _close(self) -> None:
        self._close_timer = None
        if self._current is None:
            self._ui.hide()

    def _cancel_close(self) -> None:
        if self._close_timer is not None:
            self._ui.root.after_cancel(self._close_timer)
            self._close_timer = None
