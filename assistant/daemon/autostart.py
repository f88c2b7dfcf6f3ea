"""Starting the daemon at login: an XDG autostart entry and a systemd user unit.

Both are written from the templates in packaging/, with the path of the `assistant`
executable that is running now, so the entry starts this very installation.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"
TEMPLATES = {"assistant.desktop": ("autostart",), "assistant.service": ("systemd", "user")}
FALLBACK_ICON = "audio-input-microphone"


class AutostartError(Exception):
    """The files cannot be written; the message says why and what to do."""


def config_home() -> Path:
    value = os.environ.get("XDG_CONFIG_HOME", "")
    return Path(value) if value else Path.home() / ".config"


def targets() -> dict[str, Path]:
    """Where each template goes."""
    return {name: config_home().joinpath(*folders, name) for name, folders in TEMPLATES.items()}


def executable() -> str:
    """The `assistant` command of this installation (beside this Python, else on PATH)."""
    beside = Path(sys.executable).with_name("assistant")
    if beside.exists():
        return str(beside)
    found = shutil.which("assistant")
    if found is None:
        raise AutostartError("the `assistant` command is not installed: pip install -e . first")
    return str(Path(found).resolve())


def icon() -> str:
    drawn = PACKAGING / "icons" / "hicolor" / "128x128" / "apps" / "assistant.png"
    return str(drawn) if drawn.exists() else FALLBACK_ICON


def install() -> list[str]:
    """Write both files; returns one line per file for the user."""
    lines = []
    command = executable()
    for name, path in targets().items():
        template = PACKAGING / name
        if not template.exists():
            raise AutostartError(f"{template} is missing: run from a checkout of the project")
        text = template.read_text().replace("@EXEC@", command).replace("@ICON@", icon())
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        lines.append(f"wrote {path}")
    lines.append("the daemon starts at your next login; with systemd instead: "
                 "systemctl --user enable --now assistant.service")
    return lines


def uninstall() -> list[str]:
    """Remove both files; returns one line per file for the user."""
    lines = []
    for path in targets().values():
        if path.exists():
            path.unlink()
            lines.append(f"removed {path}")
        else:
            lines.append(f"not there: {path}")
    return lines
