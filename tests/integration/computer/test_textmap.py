"""The text map of a screen with a window that publishes its tree (GTK) beside one that
does not (Tk): the GTK window's texts come from its tree, OCR reads only the Tk window."""

from __future__ import annotations

from pathlib import Path

from assistant import computer
from assistant.computer.coords import Rect
from tests.support.gtk_app import GtkApp
from tests.support.tk_app import TkApp


def test_a_published_window_is_read_from_its_tree_and_ocr_reads_only_the_rest(
        a11y_bus: str, ocr_engine: str, tmp_path: Path) -> None:
    from assistant.computer import windows

    with (GtkApp(tmp_path / "gtk.jsonl", x=600, y=300),
          TkApp(tmp_path / "tk.jsonl", layout="dialog", x=20, y=20, title="Export")):
        items = computer.display.text_map()
        stacked = {w["title"]: w for w in windows.stacking()}
    gtk = next(w for title, w in stacked.items() if title != "Export")
    inside_gtk = Rect(gtk["x"], gtk["y"], gtk["width"], gtk["height"])
    read = [item for item in items if item.get("source") != "accessibility"]
    assert {"Export finished", "OK", "Cancel"} <= {item["text"] for item in read}
    port = computer.display.viewport()
    for item in read:  # OCR read nothing inside the window whose tree said it all
        x, y, w, h = item["box"]
        assert not inside_gtk.contains(*port.to_physical(x + w // 2, y + h // 2)), item
    from_tree = {item["text"]: item for item in items if item.get("source") == "accessibility"}
    assert from_tree["Customer"]["role"] in ("text", "entry", "label")
    assert [item["id"] for item in items] == list(range(1, len(items) + 1))
