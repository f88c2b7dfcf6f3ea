"""The accessibility figures: a window's tree read, and an icon clicked by its name.

Both run a real GTK window on the bench's Xvfb, inside a private D-Bus session with the
AT-SPI bus up (tests/support/a11y_bus.py); registered on import.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from bench_figures import desktop_display
from bench_registry import Bench, NotMeasurable, figure, median_time

_BUS: list[object] = []  # the ExitStack holding the accessibility bus both figures share


def a11y_display() -> str:
    """The bench's Xvfb with an accessibility bus on a private session bus (once)."""
    import atexit
    from contextlib import ExitStack

    from tests.support.a11y_bus import accessibility_bus, missing

    display = desktop_display()
    if not _BUS:
        reason = missing()
        if reason:
            raise NotMeasurable(reason)
        stack = ExitStack()
        atexit.register(stack.close)
        stack.enter_context(accessibility_bus(display))
        _BUS.append(stack)
    return display


@figure("a11y_tree_ms")
def a11y_tree_ms(bench: Bench) -> float:
    """Read every named control showing in a GTK window of 211 (no cache: each read asks
    the window again)."""
    from assistant.computer import a11y
    from tests.support.gtk_app import GtkApp

    a11y_display()
    with tempfile.TemporaryDirectory() as folder, GtkApp(Path(folder) / "events.jsonl",
                                                         layout="many"):
        a11y.elements()  # the first read also makes libatspi's proxy of each control
        found = a11y.elements()
        if len(found) < 200:
            raise RuntimeError(f"the window showed {len(found)} named controls, not 200+")
        return 1000 * median_time(a11y.elements, bench.reps(15, 5), warmup=0)


@figure("click_a11y_ms")
def click_a11y_ms(bench: Bench) -> float:
    """Find an icon-only button by its accessible name and click it, the tree read anew."""
    from assistant.computer import a11y, mouse
    from tests.support.gtk_app import GtkApp

    a11y_display()
    with tempfile.TemporaryDirectory() as folder, GtkApp(Path(folder) / "events.jsonl") as app:
        times = []
        for _ in range(1 + bench.reps(15, 5)):  # the first one warms up
            a11y.forget()
            start = app.mark()
            began = time.perf_counter()
            clicked = mouse.click("Move to trash")
            times.append(time.perf_counter() - began)
            if clicked.via != "accessibility":
                raise RuntimeError(f"the icon was found by {clicked.via}, not its name")
            app.wait_for(lambda r: r["event"] == "clicked" and r["widget"] == "Move to trash",
                         after=start)  # checked, not timed
        return 1000 * statistics.median(times[1:])
