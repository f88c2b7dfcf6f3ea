"""How one language's runtime is started: a spec the runtime and plugins both name.

Apart from `languages`, which asks the installed plugins for theirs, so that the plugin
registry can name this type without importing the module that imports it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

_DRIVERS = Path(__file__).resolve().parent / "drivers"


@dataclass(frozen=True)
class Language:
    """How one language's runtime is started and fed.

    `program` is looked up on the runtime's PATH (None means this very Python);
    `code_in_file` languages receive a path to the code instead of the code itself;
    `state` names what a restart loses, for the note that tells the LLM; `state_writer`,
    a driver file, is run in the live runtime with a path to write code that gives a
    fresh one its state ("" where the state stays in the live process: Python's what-if
    run is a fork of it).
    """

    name: str
    program: str | None
    options: tuple[str, ...]
    driver: str
    code_in_file: bool
    state: str
    missing: str
    state_writer: str = ""

    def executable(self, env: dict[str, str] | None) -> str | None:
        """The interpreter to start, or None when it is not installed."""
        if self.program is None:
            return sys.executable
        path = (os.environ if env is None else env).get("PATH", os.defpath)
        return shutil.which(self.program, path=path)

    def argv(self, executable: str, control_fd: int) -> list[str]:
        """The command line that starts the driver, reading requests from `control_fd`."""
        return [executable, *self.options, str(_DRIVERS / self.driver), str(control_fd)]

    def once(self, executable: str, path: str, state: str = "") -> list[str]:
        """The command line that runs the code in `path` once, as a run would, and exits
        with its status (a what-if run of shell or JavaScript), in the `state` that
        `save_state` wrote, if any."""
        return [executable, *self.options, str(_DRIVERS / self.driver), "--once", path,
                *([state] if state else [])]

    def save_state(self, path: str) -> str:
        """The code that, run in the live runtime, writes its state to `path`."""
        return f"source {shlex.quote(str(_DRIVERS / self.state_writer))} {shlex.quote(path)}"
