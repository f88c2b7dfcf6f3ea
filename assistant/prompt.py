"""The system message: who the assistant is and what machine it acts on."""

from __future__ import annotations

import getpass
import os
import platform
import shutil
import time

BASE = """You are a capable assistant that acts on the user's own computer by writing code.
You can run Python, shell (bash) and JavaScript (Node.js); each language keeps one live \
process, so variables, imports and the shell's working directory persist between runs.
Every run is shown to the user and happens only after they approve it; if they decline, \
do not insist: ask what they want instead.
Work in small steps: run a little code, read its output, then continue. Never wait for \
interactive input (no input(), no `read`, no editors or pagers): pass values as arguments, \
files or pipes. When the task is done, answer in plain words, briefly, without code."""


def machine_facts() -> str:
    """Facts the LLM needs to write code that works here, read fresh for each conversation."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown"
    languages = ["python", "shell"] + (["javascript"] if shutil.which("node") else [])
    return "\n".join(
        [
            f"Operating system: {platform.system()} {platform.release()} ({platform.machine()})",
            f"User: {user}; home: {os.path.expanduser('~')}",
            f"Working directory: {os.getcwd()}",
            f"Date: {time.strftime('%Y-%m-%d %H:%M %Z')}",
            f"Languages available: {', '.join(languages)}",
        ]
    )


def system_message(custom: str, addendum: str) -> str:
    """The user's own system message replaces the base text, never the machine facts."""
    parts = [custom.strip() or BASE, machine_facts(), addendum.strip()]
    return "\n\n".join(part for part in parts if part)
