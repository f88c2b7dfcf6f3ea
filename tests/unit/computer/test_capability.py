"""Without a display, every desktop call says so in one line, with the fix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
from assistant import computer
for call in (lambda: computer.mouse.click(1, 1), lambda: computer.display.size(),
             lambda: computer.keyboard.write("x"), lambda: computer.windows.list()):
    try:
        call()
    except computer.Unavailable as exc:
        print(type(exc).__name__, exc)
"""


def probe(**env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    done = subprocess.run([sys.executable, "-c", PROBE], env={**clean, **env}, cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.splitlines()


def test_no_display_names_the_fix() -> None:
    lines = probe()
    assert len(lines) == 4
    assert all(line.startswith("Unavailable no display: DISPLAY is not set") for line in lines)
    assert all("Xvfb" in line for line in lines)


def test_wayland_without_xwayland_says_how_to_get_x11() -> None:
    lines = probe(WAYLAND_DISPLAY="wayland-0")
    assert len(lines) == 4 and all("Wayland" in line and "X11" in line for line in lines)


def test_importing_computer_loads_no_desktop_library() -> None:
    code = ("import sys; from assistant.computer import display, keyboard, mouse, ocr, windows; "
            "print(sorted(m for m in ('mss', 'pyautogui', 'rapidocr_onnxruntime', 'PIL') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"
