"""The languages a run can use, their aliases, and how to start each interpreter.

Kept apart from the process machinery so that the names the LLM writes in its
code fences ("py", "bash", "node", ...) are resolved in one place.
"""

from __future__ import annotations

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
