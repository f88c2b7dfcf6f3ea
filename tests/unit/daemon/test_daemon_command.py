"""`assistant daemon` as a command: autostart files, and no display."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def daemon(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assistant.cli", "daemon", *args], env=env,
                          capture_output=True, text=True, timeout=60, check=False,
                          stdin=subprocess.DEVNULL)


def test_autostart_is_installed_with_this_executable_and_removed(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
    done = daemon("--install-autostart", env=env)
    assert done.returncode == 0, done.stderr
    desktop = tmp_path / "xdg" / "autostart" / "assistant.desktop"
    unit = tmp_path / "xdg" / "systemd" / "user" / "assistant.service"
    assert f"wrote {desktop}" in done.stdout and f"wrote {unit}" in done.stdout
    command = str(Path(sys.executable).with_name("assistant"))
    assert f"\nExec={command} daemon\n" in desktop.read_text()
    assert f"\nExecStart={command} daemon\n" in unit.read_text()
    assert "@" not in desktop.read_text() + unit.read_text()
    done = daemon("--uninstall-autostart", env=env)
    assert done.returncode == 0
    assert done.stdout.splitlines() == [f"removed {desktop}", f"removed {unit}"]
    assert not desktop.exists() and not unit.exists()


def test_without_a_display_it_points_to_the_terminal_voice_mode() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    done = daemon("--model", "openai/x", env=env)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "assistant daemon: no display here (DISPLAY is not set): use `assistant voice` for "
        "push-to-talk in a terminal"]


def test_a_display_that_does_not_answer_is_said_before_anything_loads(tmp_path: Path) -> None:
    env = {**os.environ, "DISPLAY": ":93", "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
           "ASSISTANT_CONFIG_DIR": str(tmp_path / "config"),
           "ASSISTANT_DATA_DIR": str(tmp_path / "data")}
    done = daemon("--model", "openai/x", "--no-tray", env=env)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.strip().splitlines()  # nothing started before it: no hotkey
    assert line.startswith("assistant daemon: cannot open the display (")
    assert line.endswith("): use `assistant voice` in a terminal")
