"""A real GTK 3 window for accessibility tests: its own signals are logged as JSON lines.

    python -m tests.support.gtk_app LOG [--layout widgets|many] [--x X --y Y]

It publishes its widgets over AT-SPI when started inside a D-Bus session with the
accessibility bus up (see tests/support/a11y_bus.py). "widgets" has icon-only buttons
with accessible names, a label that repeats a button's name, an entry labelled
"Customer", a check box, a disabled button, a "Send later" button and a field that takes
only keys; "many" has 211 named buttons and labels.
Each log line is {"event": ..., "widget": ..., ...}; the first is {"event": "ready"}.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tests.support.logged_window import LoggedWindow

ROWS = 21  # 5 buttons and 5 labels a row: 210 named controls that fit on the screen
ICONS = (  # accessible name, icon: buttons that show no text
    ("Settings", "emblem-system-symbolic"),
    ("Move to trash", "user-trash-symbolic"),
    ("Play", "media-playback-start-symbolic"),
    ("Send", "mail-send-symbolic"),
)


def _widgets(grid: Any, log: Any) -> None:
    from gi.repository import Gtk

    for column, (name, icon) in enumerate(ICONS):
        button = Gtk.Button.new_from_icon_name(icon, Gtk.IconSize.BUTTON)
        button.get_accessible().set_name(name)
        button.connect("clicked", lambda _b, n=name: log("clicked", n))
        grid.attach(button, column, 0, 1, 1)
    # The word "Settings" again, as plain text: a click on it is logged, so a test sees
    # which of the two was clicked.
    box = Gtk.EventBox()
    box.add(Gtk.Label(label="Settings"))
    box.connect("button-press-event", lambda _w, _e: log("pressed", "label Settings"))
    grid.attach(box, 0, 1, 2, 1)
    label = Gtk.Label(label="Customer")
    entry = Gtk.Entry()
    label.set_mnemonic_widget(entry)
    entry.connect("changed", lambda e: log("text", "customer", value=e.get_text()))
    grid.attach(label, 0, 2, 1, 1)
    grid.attach(entry, 1, 2, 3, 1)
    check = Gtk.CheckButton(label="Remember me")
    check.connect("toggled", lambda c: log("toggled", "Remember me", active=c.get_active()))
    grid.attach(check, 0, 3, 2, 1)
    delete = Gtk.Button(label="Delete")
    delete.set_sensitive(False)
    delete.connect("clicked", lambda _b: log("clicked", "Delete"))
    grid.attach(delete, 2, 3, 1, 1)
    later = Gtk.Button(label="Send later")  # holds the name of the Send icon: exact wins
    later.connect("clicked", lambda _b: log("clicked", "Send later"))
    grid.attach(later, 0, 4, 2, 1)
    grid.attach(_keys_only_field(log), 2, 4, 2, 1)


def _keys_only_field(log: Any) -> Any:
    """A field named "Notes" that takes keys but has no editable-text interface (as some
    toolkits' custom fields): text gets into it only by typing. Each key is logged."""
    import gi

    gi.require_version("Atk", "1.0")
    from gi.repository import Atk, Gdk, Gtk

    field = Gtk.EventBox(can_focus=True)
    field.add(Gtk.Label(label="(notes)"))
    field.add_events(Gdk.EventMask.KEY_PRESS_MASK | Gdk.EventMask.BUTTON_PRESS_MASK)
    field.get_accessible().set_name("Notes")
    field.get_accessible().set_role(Atk.Role.ENTRY)
    field.connect("button-press-event", lambda w, _e: w.grab_focus())

    def key(_widget: Any, event: Any) -> bool:
        log("key", "Notes", char=Gdk.keyval_to_unicode(event.keyval),
            ctrl=bool(event.state & Gdk.ModifierType.CONTROL_MASK))
        return True

    field.connect("key-press-event", key)
    return field


def _many(grid: Any, log: Any) -> None:
    from gi.repository import Gtk

    grid.set_row_spacing(0)
    for row in range(ROWS):
        for column in range(5):
            name = f"Item {row}.{column}"
            button = Gtk.Button(label=name)
            button.connect("clicked", lambda _b, n=name: log("clicked", n))
            grid.attach(button, column * 2, row, 1, 1)
            grid.attach(Gtk.Label(label=f"Note {row}.{column}"), column * 2 + 1, row, 1, 1)
    gear = Gtk.Button.new_from_icon_name("emblem-system-symbolic", Gtk.IconSize.BUTTON)
    gear.get_accessible().set_name("Settings")
    gear.connect("clicked", lambda _b: log("clicked", "Settings"))
    grid.attach(gear, 0, ROWS, 1, 1)


def main(argv: list[str] | None = None) -> int:
    import gi

    gi.require_version("Gtk", "3.0")
    from gi.repository import GLib, Gtk

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("log", type=Path)
    parser.add_argument("--layout", default="widgets", choices=("widgets", "many"))
    parser.add_argument("--x", type=int, default=0)
    parser.add_argument("--y", type=int, default=0)
    parser.add_argument("--title", default="Widgets")
    args = parser.parse_args(argv)
    out = args.log.open("a", buffering=1, encoding="utf-8")

    def log(event: str, widget: str, **extra: Any) -> None:
        out.write(json.dumps({"event": event, "widget": widget, **extra}) + "\n")

    window = Gtk.Window(title=args.title)
    window.move(args.x, args.y)
    window.connect("destroy", Gtk.main_quit)
    grid = Gtk.Grid(row_spacing=8, column_spacing=12, margin=12)
    window.add(grid)
    (_widgets if args.layout == "widgets" else _many)(grid, log)
    window.show_all()

    def ready() -> bool:
        x, y = window.get_window().get_origin()[1:]
        width, height = window.get_size()
        log("ready", "window", x=x, y=y, width=width, height=height)
        return False

    GLib.timeout_add(300, ready)
    Gtk.main()
    return 0


class GtkApp(LoggedWindow):
    """The GTK test window as a child process, with its log read back as records."""

    def __init__(self, log: Path, layout: str = "widgets", x: int = 0, y: int = 0,
                 title: str = "Widgets") -> None:
        super().__init__("tests.support.gtk_app", log, ["--layout", layout, "--x", str(x),
                                                        "--y", str(y), "--title", title])


if __name__ == "__main__":
    sys.exit(main())
