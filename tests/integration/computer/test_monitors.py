"""Coordinates from a scaled screenshot land on the right physical pixel, on two monitors too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant import computer
from assistant.computer import views
from tests.support.display import xvfb
from tests.support.logged_window import ROOT
from tests.support.tk_app import TkApp


def test_click_from_a_scaled_screenshot(window: TkApp, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(views.MAX_SIDE_VARIABLE, "640")
    computer.display.view()
    assert computer.display.size() == (640, 400)
    start = window.mark()
    computer.mouse.click(30, 145)  # the canvas, at half size
    press = window.wait_for(lambda r: r["event"] == "buttonpress", after=start)
    assert (press["x_root"], press["y_root"]) == (61, 291)
    assert computer.mouse.position() == (30, 146)
    with pytest.raises(ValueError, match="outside the screen, which is 640x400"):
        computer.mouse.click(700, 10)  # inside the physical screen, outside the image


SECOND_MONITOR = """
import json
from assistant import computer
monitors = computer.display.monitors()
computer.display.view(monitor=2)
size = computer.display.size()
clicked = computer.mouse.click(80, 170)
everything = computer.display.screenshot(monitor=0).size
print(json.dumps({"monitors": [m.__dict__ for m in monitors], "size": size, "clicked": clicked,
                  "everything": everything}))
"""


def test_second_monitor_with_an_offset(tmp_path: Path) -> None:
    """One X screen split into two RandR monitors, as a desktop with two displays has."""
    with xvfb(screens=("2304x800x24",)) as name:
        env = {**os.environ, "DISPLAY": name, views.DIR_VARIABLE: str(tmp_path / "views"),
               views.MAX_SIDE_VARIABLE: "512"}
        for monitor in ("left 1280/339x800/212+0+0 screen", "right 1024/271x768/203+1280+0 none"):
            subprocess.run(["xrandr", "--setmonitor", *monitor.split()], env=env, check=True,
                           capture_output=True, timeout=10)
        previous = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = name
        try:
            app = TkApp(tmp_path / "events.jsonl", x=1380, y=50, title="Second")
        finally:
            os.environ["DISPLAY"] = previous or ""
        try:
            done = subprocess.run([sys.executable, "-c", SECOND_MONITOR], env=env, cwd=ROOT,
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, done.stderr
            result = json.loads(done.stdout.strip().splitlines()[-1])
            press = app.wait_for(lambda r: r["event"] == "buttonpress")
        finally:
            app.close()
    assert result["monitors"] == [
        {"left": 0, "top": 0, "width": 1280, "height": 800},
        {"left": 1280, "top": 0, "width": 1024, "height": 768},
    ]
    assert result["size"] == [512, 384] and result["everything"] == [2304, 800]
    assert result["clicked"] == [1441, 341]
    assert (press["widget"], press["x_root"], press["y_root"]) == ("canvas", 1441, 341)
