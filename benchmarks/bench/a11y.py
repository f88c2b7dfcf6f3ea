"""The accessibility figures: a window's tree read, an icon clicked by its name, and the
text map of a screen with a dialog over a browser window.

They run real GTK windows (and Chromium) on the bench's Xvfb, inside a private D-Bus
session with the AT-SPI bus up (tests/support/a11y_bus.py).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench.areas import desktop_display
from benchmarks.bench.base import Bench, NotMeasurable, median_time

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


# A page of text as a browser shows it: paragraphs, links and a heading.
PAGE = ("<html><head><title>Release notes</title></head><body><h1>Release notes</h1>"
        + "".join(f"<p>Change {n}: the export dialog now keeps the folder you chose last "
                  f"time, and the list of recent files shows {n + 4} entries.</p>"
                  f"<a href='#c{n}'>Details of change {n}</a>" for n in range(1, 13))
        + "</body></html>")


def browser_accessibility() -> None:
    """Chromium publishes its tree when asked by flag and the bus says a screen reader
    is on (org.a11y.Status IsEnabled), as Orca sets it."""
    from tests.support import browser

    if "--force-renderer-accessibility" not in browser.QUIET:
        browser.QUIET = (*browser.QUIET, "--force-renderer-accessibility")
    os.environ["ACCESSIBILITY_ENABLED"] = "1"
    subprocess.run(["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path",
                    "/org/a11y/bus", "--method", "org.freedesktop.DBus.Properties.Set",
                    "org.a11y.Status", "IsEnabled", "<true>"],
                   check=True, capture_output=True, timeout=10)


def text_map_ms(bench: Bench) -> float:
    """The text map of a screen never seen (caches emptied; models loaded): a GTK dialog
    over a browser window with a page of text, both publishing their trees, so OCR reads
    only the rest of the screen."""
    from assistant.computer import a11y, display, ocr
    from tests.support import browser
    from tests.support.gtk_app import GtkApp

    if browser.missing():
        raise NotMeasurable(browser.missing())
    a11y_display()
    browser_accessibility()
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "notes.html"
        page.write_text(PAGE)
        with (browser.chromium(headless=False, size=(1100, 760)) as chromium,
              GtkApp(Path(folder) / "events.jsonl", x=640, y=260)):
            chromium.get(page.as_uri())
            deadline = time.monotonic() + 30
            while not any("Change 3:" in item["text"] for item in display.text_map()):
                if time.monotonic() > deadline:
                    raise RuntimeError("the page's text is not in the text map within 30 s")
                time.sleep(0.5)

            def once() -> None:
                ocr.forget()
                a11y.forget()
                display.text_map()

            return 1000 * median_time(once, bench.reps(7, 3))


def screen_text_tokens(bench: Bench) -> float:
    """The screen as the embedded model reads it, in its tokens: a zenity question beside a
    browser window with a page of text, each publishing its tree (screen_text.describe,
    within its BUDGET_CHARS)."""
    from assistant.computer import screen_text, tree
    from tests.support import browser

    del bench  # one reading: the count does not vary
    if browser.missing():
        raise NotMeasurable(browser.missing())
    tokens = embedded_tokenizer()
    a11y_display()
    browser_accessibility()
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "notes.html"
        page.write_text(PAGE)
        with browser.chromium(headless=False, size=(1100, 760)) as chromium:
            chromium.get(page.as_uri())
            dialog = subprocess.Popen(["zenity", "--question", "--title=Export",
                                       "--text=Export the release notes now?"])
            try:
                deadline = time.monotonic() + 30
                while not ({"Export", "Release notes"} <= {w.title.split(" - ")[0]
                                                          for w in tree.windows()
                                                          if w.controls}):
                    if time.monotonic() > deadline:
                        raise RuntimeError("the dialog and the page are not both read in 30 s")
                    time.sleep(0.5)
                said = screen_text.describe(lambda items: None)
            finally:
                dialog.kill()
                dialog.wait()
    return float(tokens(said))


def embedded_tokenizer() -> Any:
    """How many of the default embedded model's tokens a text takes (its vocabulary only)."""
    from assistant.config import load_settings
    from assistant.servers import embedded

    model = embedded.chosen(load_settings())  # the weights the bench named by path
    if model.path is None:
        raise NotMeasurable(f"{model.name} is not installed: {model.install}")
    import llama_cpp

    vocab = llama_cpp.Llama(str(model.path), vocab_only=True, verbose=False)
    return lambda said: len(vocab.tokenize(said.encode(), add_bos=False))
