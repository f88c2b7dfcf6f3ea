"""The languages a run can use, their aliases, and how to start each interpreter.

Kept apart from the process machinery so that the names the LLM writes in its
code fences ("py", "bash", "node", ...) are resolved in one place.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

LANGUAGES = ("python", "shell", "javascript")

_ALIASES = {
    "python": "python",
    "python3": "python",
    "py": "python",
    "shell": "shell",
    "bash": "shell",
    "sh": "shell",
    "zsh": "shell",
    "console": "shell",
    "javascript": "javascript",
    "js": "javascript",
    "node": "javascript",
}

_DRIVERS = Path(__file__).resolve().parent / "drivers"


def canonical_language(name: str) -> str | None:
    """Map a code-fence language name to one of LANGUAGES or a plugin's language, or None
    when unsupported."""
    key = name.strip().lower()
    return _ALIASES.get(key) or (key if key in plugin_languages() else None)


def plugin_languages() -> dict[str, Language]:
    """The languages installed plugins add (a built-in name always wins)."""
    from assistant.plugins.registry import installed

    return {name: spec for name, (_, spec) in installed().languages.items()
            if name not in SPECS}


def spec_for(name: str) -> Language:
    """How to start the runtime of a canonical language name."""
    return SPECS.get(name) or plugin_languages()[name]


@dataclass(frozen=True)
class Language:
    """How one language's runtime is started and fed.

    `program` is looked up on the runtime's PATH (None means this very Python);
    `code_in_file` languages receive a path to the code instead of the code itself;
    `state` names what a restart loses, for the note that tells the LLM.
    """

    name: str
    program: str | None
    options: tuple[str, ...]
    driver: str
    code_in_file: bool
    state: str
    missing: str

    def executable(self, env: dict[str, str] | None) -> str | None:
        """The interpreter to start, or None when it is not installed."""
        if self.program is None:
            return sys.executable
        path = (os.environ if env is None else env).get("PATH", os.defpath)
        return shutil.which(self.program, path=path)

    def argv(self, executable: str, control_fd: int) -> list[str]:
        """The command line that starts the driver, reading requests from `control_fd`."""
        return [executable, *self.options, str(_DRIVERS / self.driver), str(control_fd)]


SPECS = {
    "python": Language(
        name="python",
        program=None,
        options=("-u",),
        driver="python_driver.py",
        code_in_file=False,
        state="variables, imports",
        missing="",
    ),
    "shell": Language(
        name="shell",
        program="bash",
        options=("--noprofile", "--norc"),
        driver="shell_driver.sh",
        code_in_file=True,
        state="working directory, variables",
        missing="Shell code needs bash, which is not installed: "
        "install it (Debian: apt-get install bash) and try again.",
    ),
    "javascript": Language(
        name="javascript",
        program="node",
        options=(),
        driver="node_driver.js",
        code_in_file=False,
        state="variables",
        missing="JavaScript needs Node.js, which is not installed: "
        "install it (Debian: apt-get install nodejs) and try again.",
    ),
}
