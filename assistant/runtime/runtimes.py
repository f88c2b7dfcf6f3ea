"""The runtimes of one conversation: one live process per language, started on first use.

There is no global state: each Runtimes owns its processes, and they are killed
by close(), by leaving a `with` block, when the object is collected, or at
interpreter exit, so no process group outlives its owner.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import weakref
from collections.abc import Collection, Generator, Iterator, Mapping
from types import TracebackType
from typing import Any

from assistant.events import Event, OutputChunk, RunEnd
from assistant.runtime.changes import Listings, listed
from assistant.runtime.languages import LANGUAGES, canonical_language, spec_for
from assistant.runtime.process import RuntimeProcess
from assistant.runtime.run import Run
from assistant.runtime.sandbox import Sandbox, SandboxError
from assistant.runtime.secrets import run_environment
from assistant.runtime.spec import Language
from assistant.runtime.watch import Limits


class Runtimes:
    """Runs code in persistent python, shell and javascript processes.

    `timeout` (seconds) and `max_output` (characters the LLM is shown) are the
    defaults for every run, and `limits` its memory, process, CPU and output caps;
    `cwd` and `env` are given to the processes as they start (`env` replaces the
    environment, as with subprocess), without the variables that hold secrets but those
    `env_allow` names (see secrets.py). With a `sandbox`, every process runs inside it,
    and where it cannot work every run is refused with the reason. `languages`: those
    installed plugins add, which it runs besides the built-in ones.
    """

    def __init__(  # noqa: PLR0913 - settings with defaults, each named where it is passed
        self,
        timeout: float = 120.0,
        max_output: int = 2800,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        limits: Limits | None = None,
        sandbox: Sandbox | None = None,
        env_allow: Collection[str] = (),
        languages: Mapping[str, Language] | None = None,
    ) -> None:
        self.timeout = timeout
        self.languages = dict(languages or {})
        self.sandbox = sandbox
        self.limits = limits or Limits()
        self.max_output = max_output
        self.cwd = cwd
        self.env = env
        self.env_allow = env_allow
        self._processes: dict[str, RuntimeProcess] = {}
        self._current: Run | None = None
        self._busy = threading.Lock()
        weakref.finalize(self, _close_all, self._processes)

    def describe(self) -> str:
        """What the LLM must know about where its code runs ("" when nothing special)."""
        if self.sandbox is None:
            return ""
        return self.sandbox.describe(self.cwd or os.getcwd())

    def run(  # noqa: PLR0913 - the code, then keyword-only options with defaults
        self,
        language: str,
        code: str,
        *,
        proposal_id: str = "",
        timeout: float | None = None,
        max_output: int | None = None,
        whatif: Mapping[str, Any] | None = None,
    ) -> Iterator[Event]:
        """Run `code`, yielding OutputChunks as the program prints, then exactly one RunEnd.

        Only one run at a time per Runtimes; closing the iterator before the RunEnd
        kills the runtime (its state is lost, and the next run says so). With a `whatif`
        plan, the Python runtime runs it in a fork of itself inside a what-if world
        (see assistant/whatif): the live runtime stays as it was.
        """
        started = time.monotonic()
        name = canonical_language(language, self.languages)
        if name is None:
            supported = ", ".join(LANGUAGES)
            message = f"Unknown language {language!r}: the supported ones are {supported}."
            yield from _refusal(proposal_id, message)
            return
        if not self._busy.acquire(blocking=False):
            raise RuntimeError("another run is in progress in these runtimes")
        try:
            end = yield from self._run(spec_for(name, self.languages), code, proposal_id,
                                       timeout, max_output, started, whatif)
        finally:
            self._current = None
            self._busy.release()
        yield end

    def run_listed(self, language: str, code: str, *, proposal_id: str = ""
                   ) -> Generator[Event, None, Listings]:
        """As run, and the working folder's listings just before and after it (what the
        run changed there, changes.py). Runtimes that list the folder for a run of their
        own (whatif/transaction) return those: it is listed once."""
        folder = os.path.realpath(self.cwd or os.getcwd())
        return (yield from listed(folder, self.run(language, code, proposal_id=proposal_id)))

    def live(self, language: str) -> bool:
        """Whether `language`'s runtime is running, with whatever earlier runs left."""
        process = self._processes.get(spec_for(language, self.languages).name)
        return process is not None and process.alive

    def save_state(self, language: str, path: str) -> bool:
        """Write what the live `language` runtime holds (a shell's variables, functions,
        options and folder) to `path`, as code a what-if run starts from, so its preview
        sees what the real run will; False when there is nothing to write (the runtime
        has not started, or keeps no state a file can carry). The writer only reads the
        state, so it is run as it is: no preview of its own, no journal."""
        spec = spec_for(language, self.languages)
        if not spec.state_writer or not self.live(language):
            return False
        ended = [e for e in Runtimes.run(self, spec.name, spec.save_state(path), timeout=10)
                 if isinstance(e, RunEnd)]
        return ended[-1].exit_status == 0 and os.path.exists(path)

    def interrupt(self) -> None:
        """Stop the current run as Ctrl-C would; a no-op when idle.

        Safe from a signal handler or another thread: it only sets a flag, sends
        SIGINT and wakes the run.
        """
        run = self._current
        if run is not None:
            run.interrupt()

    def close(self) -> None:
        """Kill every runtime's process group and stop the bus proxy; idempotent, and runs
        may start again after."""
        _close_all(self._processes)
        if self.sandbox is not None:
            self.sandbox.close()

    def __enter__(self) -> Runtimes:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _run(  # noqa: PLR0913 - execute()'s arguments, resolved, on their way to one Run
        self,
        spec: Language,
        code: str,
        proposal_id: str,
        timeout: float | None,
        max_output: int | None,
        started: float,
        whatif: Mapping[str, Any] | None = None,
    ) -> Generator[OutputChunk, None, RunEnd]:
        """Yield a run's OutputChunks and return its RunEnd (so the caller can unlock first)."""
        problem = spec.missing
        process, restart_note = None, ""
        if self.sandbox is not None and self.sandbox.problem():
            problem = f"Not run: {self.sandbox.problem()}."
        else:
            try:
                process, restart_note = self._process(spec)
            except (OSError, SandboxError) as error:
                problem = f"The {spec.name} runtime could not start: {error}."
        if process is None:
            chunk, end = _refusal(proposal_id, problem)
            yield chunk
            return end
        run = Run(
            process,
            proposal_id,
            self.timeout if timeout is None else timeout,
            self.max_output if max_output is None else max_output,
            started,
            restart_note,
            self.limits,
            {"whatif": whatif} if whatif is not None else None,
        )
        self._current = run
        with contextlib.closing(run.events(code)) as events:
            event = next(events)
            while not isinstance(event, RunEnd):
                yield event
                event = next(events)
        return event

    def _process(self, spec: Language) -> tuple[RuntimeProcess | None, str]:
        """The live process for `spec`, started if needed, and a note if earlier state was lost."""
        note = ""
        process = self._processes.get(spec.name)
        if process is not None and not process.alive:
            process.close()
            del self._processes[spec.name]
            if not process.state_lost_reported:
                note = (
                    f"[the {spec.name} runtime had stopped, so a new one was started: "
                    f"its earlier state ({spec.state}) is gone]"
                )
            process = None
        if process is None:
            executable = spec.executable(self.env)
            if executable is None:
                return None, ""
            env = run_environment(os.environ if self.env is None else self.env, self.env_allow)
            process = RuntimeProcess(spec, executable, self.cwd, env, self.sandbox)
            self._processes[spec.name] = process
        return process, note


def _refusal(proposal_id: str, message: str) -> tuple[OutputChunk, RunEnd]:
    """A run that cannot happen: the reason as output, and no exit status."""
    return (
        OutputChunk(proposal_id=proposal_id, stream="stderr", text=message),
        RunEnd(proposal_id=proposal_id, exit_status=None, output=message, seconds=0.0),
    )


def _close_all(processes: dict[str, RuntimeProcess]) -> None:
    for process in list(processes.values()):
        process.close()
    processes.clear()
