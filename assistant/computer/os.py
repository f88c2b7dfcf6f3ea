"""Things of the operating system around the desktop: notifications."""

from __future__ import annotations

import subprocess

from assistant.computer.capability import Unavailable, require_tool

__all__ = ["notify"]


def notify(title: str, text: str = "") -> None:
    """Show a desktop notification (through notify-send and the session's notification service)."""
    tool = require_tool("notify-send", package="libnotify-bin")
    done = subprocess.run([tool, "--app-name=assistant", title, text], capture_output=True,
                          timeout=10, check=False)
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()
        raise Unavailable(f"the notification was not shown ({why[-1] if why else 'no reason'}): "
                          "is a desktop session with a notification service running?")
