"""The screen: its size, screenshots, and the views the LLM is shown.

Coordinates everywhere in `computer` are those of the current view: the image of one
monitor, scaled so its longest side is at most 1280 pixels (ASSISTANT_SCREENSHOT_MAX_SIDE).
They are mapped to real pixels, so HiDPI and multi-monitor layouts need no arithmetic.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

from assistant.computer import ocr, textmap, textmatch, views
from assistant.computer.capability import load
from assistant.computer.coords import Rect, Viewport, bounding
from assistant.computer.said import Said

__all__ = ["find_text", "monitors", "save", "screenshot", "size", "text_map", "view"]


def _mss() -> Any:
    module = load("mss")
    factory = getattr(module, "MSS", None) or module.mss  # MSS from mss 10.2 on
    return factory()


_grabbers = threading.local()  # (DISPLAY, mss) per thread: connecting costs more than a grab


def _grabber(fresh: bool = False) -> Any:
    where = os.environ.get("DISPLAY", "")
    held = getattr(_grabbers, "held", None)
    if held is not None and (fresh or held[0] != where):
        with contextlib.suppress(Exception):  # that server may be gone already
            held[1].close()
        held = None
    if held is None:
        held = _grabbers.held = (where, _mss())
    return held[1]


def grab(area: Rect) -> Any:
    """Physical pixels of `area` as a PIL image."""
    image_module = load("PIL.Image")
    region = {"left": area.left, "top": area.top, "width": area.width, "height": area.height}
    try:
        shot = _grabber().grab(region)
    except Exception:  # the X server restarted since: connect again, once
        shot = _grabber(fresh=True).grab(region)
    return image_module.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX")


def _randr_monitors() -> list[Rect]:
    """X11's logical monitors (RandR 1.5), primary first: what desktops lay windows out by."""
    if sys.platform in ("win32", "darwin"):
        return []
    try:
        from Xlib import display as xdisplay

        connection = xdisplay.Display()
    except Exception:  # no python-xlib or no X server: mss decides
        return []
    try:
        found = connection.screen().root.xrandr_get_monitors().monitors
    except Exception:  # an X server without RandR 1.5
        return []
    finally:
        connection.close()
    ordered = sorted(found, key=lambda m: (not m.primary, m.x, m.y))
    return [Rect(m.x, m.y, m.width_in_pixels, m.height_in_pixels) for m in ordered]


_MONITORS_FRESH_S = 2.0  # asked on every click otherwise; monitors change rarely
_monitors_seen: dict[str, tuple[float, list[Rect]]] = {}


def monitors() -> list[Rect]:
    """The physical monitors, primary first; `monitor=N` elsewhere counts from 1 in this list."""
    where = os.environ.get("DISPLAY", "")
    seen = _monitors_seen.get(where)
    if seen and time.monotonic() - seen[0] < _MONITORS_FRESH_S:
        return seen[1]
    found = _randr_monitors()
    if not found:
        with _mss() as screen:
            found = [Rect(m["left"], m["top"], m["width"], m["height"])
                     for m in screen.monitors[1:]]
    found = found or [Rect(0, 0, 1, 1)]
    _monitors_seen[where] = (time.monotonic(), found)
    return found


def _monitor(number: int) -> Rect:
    """Monitor `number` (from 1), or 0 for all of them together (the virtual screen)."""
    found = monitors()
    if number == 0:
        return bounding(found)
    if not 1 <= number <= len(found):
        raise ValueError(f"monitor={number}, but there are {len(found)} (1..{len(found)}, "
                         "or 0 for all)")
    return found[number - 1]


def viewport(folder: Path | None = None, max_side: int | None = None) -> Viewport:
    """The view coordinates are in: the latest one shown, else the primary monitor.

    `folder` and `max_side` default to what the session set in the environment.
    """
    current = views.latest(folder)
    if current:
        return current.viewport
    return Viewport.fit(monitors()[0], max_side or views.max_side())


def size() -> tuple[int, int]:
    """Width and height of the screen in the coordinates mouse calls take."""
    return viewport().size


def screenshot(region: tuple[int, int, int, int] | None = None,
               monitor: int | None = None) -> Any:
    """A PIL image at full physical resolution: the current view, a `monitor` (0: all), or
    a `region` (x, y, width, height) given in view coordinates."""
    if monitor is not None:
        return grab(_monitor(monitor))
    port = viewport()
    if region is None:
        return grab(port.area)
    x, y, width, height = region
    left, top = port.to_physical(x, y)
    right, bottom = port.to_physical(x + max(width, 1) - 1, y + max(height, 1) - 1)
    return grab(Rect(left, top, right - left + 1, bottom - top + 1))


def capture(port: Viewport) -> Any:
    """The image of `port` at the size the LLM sees it."""
    image = grab(port.area)
    if image.size != port.size:
        resample = load("PIL.Image").Resampling.LANCZOS
        image = image.resize(port.size, resample)
    return image


def view(monitor: int | None = None) -> str:
    """Show the current screen (or `monitor`) to the LLM with your next message.

    From then on, mouse coordinates are those of this image. Returns what happens, which
    a run shows when the call is its last line.
    """
    port = Viewport.fit(_monitor(monitor), views.max_side()) if monitor is not None else viewport()
    image = capture(port)
    views.save(port, image)
    width, height = port.size
    return Said(f"[screen {width}x{height} will be shown with the next message]")


def text_map() -> list[dict[str, Any]]:
    """Every text and named control on screen: {"id", "text", "box": [x, y, w, h], "score"}
    in reading order; "role" ("push button", "entry", ...) where a window's accessibility
    tree tells, and icons that show no text come from that tree with their names.

    `computer.mouse.click(id=N)` clicks the item with that id.
    """
    port = viewport()
    image = capture(port)
    items = textmap.text_map(port, image)
    views.save(port, None, items)
    return items


def find_text(text: str) -> list[dict[str, Any]]:
    """Where `text` is on screen: the best matches, each with its box and kind of match."""
    return textmatch.find(ocr.read(capture(viewport()), text), text)


def save(path: str | Path, monitor: int | None = None) -> Path:
    """Write a screenshot (full resolution) to a PNG file and return its path."""
    target = Path(path).expanduser()
    screenshot(monitor=monitor).save(target)
    return target
