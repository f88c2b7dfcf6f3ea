"""The languages a run can use, their aliases, and how to start each interpreter.

Kept apart from the process machinery so that the names the LLM writes in its
code fences ("py", "bash", "node", ...) are resolved in one place. It knows the built-in
languages alone: the ones installed plugins add are given by whoever knows the plugins
(the parts build the runtimes with them, actions/parts.py), never looked up from here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from assistant.runtime.spec import Language

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

def canonical_language(name: str, extra: Collection[str] = ()) -> str | None:
    """Map a code-fence language name to one of LANGUAGES, or to one of `extra` (the
    languages plugins add), or None when unsupported."""
    key = name.strip().lower()
    return _ALIASES.get(key) or (key if key in extra else None)


def spec_for(name: str, extra: Mapping[str, Language] | None = None) -> Language:
    """How to start the runtime of a canonical language name: a built-in one, or one of
    `extra` (the languages plugins add)."""
    return SPECS.get(name) or (extra or {})[name]


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
        state_writer="shell_state.sh",
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
