"""The languages a proposal can be written in, and the names models use for them."""

from __future__ import annotations

LANGUAGES = ("python", "shell", "javascript")

ALIASES = {
    "python": "python",
    "py": "python",
    "python3": "python",
    "shell": "shell",
    "bash": "shell",
    "sh": "shell",
    "zsh": "shell",
    "console": "shell",
    "javascript": "javascript",
    "js": "javascript",
    "node": "javascript",
}


def canonical(name: str) -> str | None:
    """The runnable language a tag or tool argument names, or None if it names none."""
    return ALIASES.get(name.strip().lower())
