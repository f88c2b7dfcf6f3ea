"""Driving one run from request to RunEnd: live output, limits, stops and the end marker.

Everything waits on the process's queue with a timeout that is the nearest
deadline (time limit, next stdin poll, kill after a stop), so a fast run costs
no polling and a slow one is checked a few times a second.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Generator, Iterator
from typing import Any

from assistant.events import OutputChunk, RunEnd, Stream
from assistant.runtime.limit import OutputLimit
from assistant.runtime.marker import new_token
from assistant.runtime.process import RuntimeProcess
from assistant.runtime.stdin_watch import StdinWatch
from assistant.runtime.watch import GroupWatch, Limits, kill_group

POLL_SECONDS = 0.2
"""How often a running program is checked for waiting on stdin."""
GRACE_SECONDS = 2.0
"""How long a run may take to stop after SIGINT before its process group is killed."""
RESEND_SECONDS = 1.0
"""When SIGINT is sent again to a run it has not stopped: a runtime the machine had not
yet scheduled to start the code meets the first one between its own steps, where it is
ignored, and then runs the code whole."""
MARKER_GRACE_SECONDS = 1.0
"""How long to wait for the second stream's marker once the first has arrived."""
EXIT_DRAIN_SECONDS = 0.3
"""How long to wait for the last output of a process that has exited."""

STDIN_NOTE = (
    "[the program waited for input on stdin and was stopped: "
    "pass input non-interactively (arguments, a file, or a pipe)]"
)


class Run:
    """One execution of code in a runtime; `events()` yields its OutputChunks and RunEnd."""

    def __init__(  # noqa: PLR0913 - the run's fixed facts, handed over once by Runtimes
        self,
        process: RuntimeProcess,
        proposal_id: str,
        timeout: float,
        max_output: int,
        started: float,
        restart_note: str = "",
        limits: Limits | None = None,
        request: dict[str, Any] | None = None,
    ) -> None:
        self._process = process
        self._request = request
        self._limits = limits or Limits()
        self._breach = ""
        self._breach_note = ""
        self._printed = 0
        self._proposal_id = proposal_id
        self._timeout = timeout
        self._limit = OutputLimit(max_output)
        self._started = started
        self._restart_note = restart_note
        self._interrupt_requested = False
        self._sent = False
        self._signalled = 0  # SIGINTs sent
        self._stop: str | None = None
        self._stop_at = 0.0
        self._finished = False
        self._lost_state = False
        self._notes: list[str] = []

    def interrupt(self) -> None:
        """Stop the run as Ctrl-C would; safe from another thread or a signal handler."""
        self._interrupt_requested = True
        if self._sent:
            self._signal_once()
        self._process.wake()

    def events(self, code: str) -> Generator[OutputChunk | RunEnd, None, None]:
        """Run `code` and yield its live output, then exactly one RunEnd."""
        try:
            yield from self._events(code)
        finally:
            if not self._finished:
                self._process.close()

    def _events(self, code: str) -> Iterator[OutputChunk | RunEnd]:
        if self._restart_note:
            yield self._chunk("stderr", self._restart_note + "\n")
        # Watching starts before the code is sent, so a child it forks at once counts as new.
        process = self._process
        watch = StdinWatch(process.pid, process.stdin_fd, process.interpreter_pid)
        process.send(new_token(), code, self._started + self._timeout, self._request)
        self._sent = True
        yield from self._follow(watch)
        yield from self._conclude()

    def _follow(  # noqa: C901 - one poll loop: output, end markers, limits, stdin, deadline
        self, watch: StdinWatch) -> Iterator[OutputChunk]:
        """Show output until both end markers arrive, the process exits, or it is killed."""
        process = self._process
        scanners = process.scanners
        deadline = self._started + self._timeout
        guard = GroupWatch(process.pid, self._limits, process.interpreter_pid)
        next_poll = time.monotonic() + POLL_SECONDS
        settle_by = float("inf")
        while not all(scanner.done for scanner in scanners.values()):
            now = time.monotonic()
            if self._stop is None:
                if self._interrupt_requested:
                    self._stop_now("interrupt", now)
                elif now >= deadline:
                    self._stop_now("timeout", now)
                elif now >= next_poll:
                    next_poll = now + POLL_SECONDS
                    if watch.waiting():
                        self._stop_now("stdin", now)
                    else:
                        self._breach, self._breach_note = guard.breach()
                        if self._breach:
                            # No grace: a fork bomb or a memory hog gets no time to grow.
                            self._stop = "limit"
                            kill_group(process.pid)
                            self._notes.append(self._lose_state("was killed"))
                            return
            elif now >= self._stop_at + GRACE_SECONDS:
                self._notes.append(self._lose_state("did not stop and was killed"))
                return
            elif now >= self._stop_at + RESEND_SECONDS and self._signalled == 1:
                self._signalled = 2
                process.signal(signal.SIGINT)
            if now >= settle_by or (not process.alive and len(process.eof) == 2):
                return
            if self._stop is None:
                wake_at = min(settle_by, next_poll, deadline)
            else:
                again = RESEND_SECONDS if self._signalled == 1 else GRACE_SECONDS
                wake_at = min(settle_by, self._stop_at + again)
            item = process.get(wake_at - now)
            if item is None:
                continue
            kind, value = item
            if kind in scanners:
                yield from self._show(kind, scanners[kind].feed(value))
                if scanners[kind].done:
                    settle_by = min(settle_by, now + MARKER_GRACE_SECONDS)
            elif kind == "eof":
                process.eof.add(value)
            elif kind == "exit":
                settle_by = min(settle_by, now + EXIT_DRAIN_SECONDS)

    def _conclude(self) -> Iterator[OutputChunk | RunEnd]:
        """Emit what was held back (tail, notes) and the RunEnd."""
        process = self._process
        scanners = process.scanners
        status = scanners["stdout"].status
        if status is None:
            status = scanners["stderr"].status
        for stream, scanner in scanners.items():
            if not scanner.done:
                yield from self._show(stream, scanner.flush())
        if not self._lost_state and not any(scanner.done for scanner in scanners.values()):
            status = process.exit_status
            ending = "was closed" if status is None else f"exited with status {status}"
            self._notes.append(self._lose_state(ending))
        process.finish_run()
        for stream, text in self._limit.closing():
            yield self._chunk(stream, text)
        output = self._restart_note + "\n" if self._restart_note else ""
        output += self._limit.text()
        for note in (self._stop_note(), *self._notes):
            if note:
                text = ("\n" if output and not output.endswith("\n") else "") + note + "\n"
                output += text
                yield self._chunk("stderr", text)
        self._finished = True
        yield RunEnd(
            proposal_id=self._proposal_id,
            exit_status=status,
            output=output,
            seconds=time.monotonic() - self._started,
            timed_out=self._stop == "timeout",
            interrupted=self._stop == "interrupt",
            waiting_for_input=self._stop == "stdin",
            truncated=self._limit.cut > 0,
            restarted=self._lost_state or bool(self._restart_note),
            limit=self._breach,
        )

    def _show(self, stream: Stream, text: str) -> Iterator[OutputChunk]:
        self._printed += len(text)
        cap = self._limits.output_chars
        if cap and self._printed > cap and self._stop is None:
            self._breach = "output"
            self._breach_note = (f"output limit: the run printed more than {cap:,} characters "
                                 "(max_run_output)")
            self._stop_now("limit", time.monotonic())
        live = self._limit.add(stream, text) if text else ""
        if live:
            yield self._chunk(stream, live)

    def _chunk(self, stream: Stream, text: str) -> OutputChunk:
        return OutputChunk(proposal_id=self._proposal_id, stream=stream, text=text)

    def _stop_now(self, reason: str, now: float) -> None:
        self._stop, self._stop_at = reason, now
        self._signal_once()

    def _signal_once(self) -> None:
        if not self._signalled:
            self._signalled = 1
            self._process.signal(signal.SIGINT)

    def _stop_note(self) -> str:
        if self._stop == "timeout":
            return f"[stopped after {self._timeout:g} s: the run exceeded the time limit]"
        if self._stop == "stdin":
            return STDIN_NOTE
        if self._stop == "interrupt":
            return "[the run was interrupted]"
        if self._stop == "limit":
            return f"[stopped by the {self._breach_note}]"
        return ""

    def _lose_state(self, what_happened: str) -> str:
        self._process.close()
        self._lost_state = True
        self._process.state_lost_reported = True
        language = self._process.language
        return (
            f"[the {language.name} runtime {what_happened}: its state ({language.state}) "
            "was lost and a new one starts on the next run]"
        )
