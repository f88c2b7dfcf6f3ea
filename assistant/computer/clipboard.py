"""The clipboard (the one Ctrl+V pastes), through xclip or xsel on X11, wl-clipboard on Wayland."""

from __future__ import annotations

import os
import shutil
import subprocess
import time

from assistant.computer.capability import Unavailable, require_display, require_tool

__all__ = ["read", "write"]


def _commands() -> tuple[list[str], list[str]]:
    """(read, write) command lines for this session."""
    if os.environ.get("WAYLAND_DISPLAY") and shutil.which("wl-paste"):
        return ["wl-paste", "--no-newline"], ["wl-copy"]
    require_display()
    tool = require_tool("xclip", "xsel", package="xclip")
    if os.path.basename(tool) == "xclip":
        return [tool, "-selection", "clipboard", "-o"], [tool, "-selection", "clipboard", "-i"]
    return [tool, "--clipboard", "--output"], [tool, "--clipboard", "--input"]


def read() -> str:
    """The clipboard's text ("" when it holds none)."""
    command, _ = _commands()
    done = subprocess.run(command, capture_output=True, timeout=5, check=False)
    return done.stdout.decode("utf-8", errors="replace") if done.returncode == 0 else ""


def write(text: str) -> None:
    """Put `text` on the clipboard; it stays there after this program ends."""
    _, command = _commands()
    # The tool keeps running to serve the clipboard: do not wait for it, and let it not
    # hold our output pipes open.
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    assert process.stdin is not None
    process.stdin.write(text.encode("utf-8"))
    process.stdin.close()
    deadline = time.monotonic() + 2
    while read() != text:
        if time.monotonic() > deadline:
            raise Unavailable("the clipboard did not take the text: is a clipboard tool working?")
        time.sleep(0.02)
