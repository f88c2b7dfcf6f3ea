"""What this desktop can do, and one line with the fix when it cannot."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from typing import Any

INSTALL_HINT = "install them with: pip install 'assistant[desktop]'"


class Unavailable(RuntimeError):
    """A desktop capability is missing here; the message says what to do."""


def require_display() -> None:
    """Fail in one line unless an X display is reachable (XWayland counts)."""
    if os.environ.get("DISPLAY") or sys.platform in ("win32", "darwin"):
        return
    if os.environ.get("WAYLAND_DISPLAY"):
        raise Unavailable(
            "this is a Wayland session without XWayland: log in to an X11 session "
            "(e.g. 'Ubuntu on Xorg') or start XWayland so that DISPLAY is set"
        )
    raise Unavailable(
        "no display: DISPLAY is not set; run inside a desktop session, or start a virtual "
        "one with `Xvfb :99 &` and `export DISPLAY=:99`"
    )


def load(module: str) -> Any:
    """Import a desktop library after checking the display (they fail at import without one)."""
    require_display()
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise Unavailable(f"{module} is not installed ({exc.name}): {INSTALL_HINT}") from None


def pyautogui() -> Any:
    """pyautogui, speaking to the X server DISPLAY names now. It connects once, when
    imported, and would go on speaking to a display that is gone (another X server, one
    restarted under the same name), as the other connections here do not (display,
    windows)."""
    gui = load("pyautogui")
    backend = sys.modules.get("pyautogui._pyautogui_x11")
    where = os.environ.get("DISPLAY", "")
    held = getattr(backend, "_display", None)
    if held is not None and where and (held.get_display_name() != where or gone(held)):
        from Xlib import display

        with contextlib.suppress(Exception):  # its server may be gone already
            held.close()
        backend._display = display.Display(where)  # type: ignore[union-attr]
    return gui


def gone(connection: Any) -> bool:
    """Whether an X connection's server has gone (one round trip)."""
    try:
        connection.get_input_focus()
    except Exception:  # closed by the server, or a broken pipe
        return True
    return False


def require_tool(*names: str, package: str) -> str:
    """The first of `names` found on PATH, or one line naming the package to install."""
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    raise Unavailable(f"{' or '.join(names)} not found: sudo apt-get install {package}")
