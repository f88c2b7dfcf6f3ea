"""Click, type and map by name through the accessibility tree of a real GTK window; the
Tk window, which publishes no tree, still goes through OCR. Each window's own signals
prove what happened."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant import computer
from assistant.computer import a11y, views, widgets
from tests.support.gtk_app import ICONS, GtkApp
from tests.support.logged_window import LoggedWindow
from tests.support.tk_app import TkApp


@pytest.fixture(scope="module")
def gtk(a11y_bus: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[GtkApp]:
    with GtkApp(tmp_path_factory.mktemp("gtk") / "events.jsonl", x=600, y=300) as app:
        yield app


def signal(app: LoggedWindow, start: int, event: str, widget: str) -> dict:
    return app.wait_for(lambda r: r["event"] == event and r["widget"] == widget, after=start)


@pytest.mark.parametrize(("name", "_icon"), ICONS)
def test_each_icon_only_button_is_clicked_by_its_name(gtk: GtkApp, name: str,
                                                      _icon: str) -> None:
    start = gtk.mark()
    clicked = computer.mouse.click(name)
    assert clicked.via == "accessibility" and "push button" in clicked.what
    signal(gtk, start, "clicked", name)


def test_a_name_that_only_contains_the_words_is_clicked_by_its_whole_name(
        gtk: GtkApp) -> None:
    start = gtk.mark()
    computer.mouse.click("Send later")
    signal(gtk, start, "clicked", "Send later")
    start = gtk.mark()
    computer.mouse.click("Send")
    signal(gtk, start, "clicked", "Send")
    assert [r["widget"] for r in gtk.records()[start:] if r["event"] == "clicked"] == ["Send"]


def test_the_tree_is_read_once_per_screen_and_again_when_it_changes(gtk: GtkApp) -> None:
    port = computer.display.viewport()
    before = widgets.screen_key(computer.display.capture(port))
    first = a11y.elements(None, before)
    assert a11y.elements(None, before) is first
    box = next(e for e in first if e.name == "Remember me")
    start = gtk.mark()
    computer.mouse.click("Remember me")
    toggled = signal(gtk, start, "toggled", "Remember me")["active"]
    time.sleep(0.2)  # the tick is drawn after the signal
    after = widgets.screen_key(computer.display.capture(port))
    assert after != before
    again = next(e for e in a11y.elements(None, after) if e.name == "Remember me")
    assert ("checked" in again.states) is toggled and ("checked" in box.states) is not toggled


def test_boxes_are_in_the_coordinates_of_a_scaled_view(gtk: GtkApp,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(views.MAX_SIDE_VARIABLE, "640")
    computer.display.view()
    items = computer.display.text_map()
    play = next(item for item in items if item["text"] == "Play")
    gear = next(e for e in a11y.elements("Widgets") if e.name == "Play")
    assert abs(play["box"][0] - gear.box.left / 2) <= 1 and play["box"][2] <= gear.box.width
    start = gtk.mark()
    computer.mouse.click(id=play["id"])
    signal(gtk, start, "clicked", "Play")
    start = gtk.mark()
    assert computer.mouse.click("Play").via == "accessibility"
    signal(gtk, start, "clicked", "Play")


def test_the_button_is_clicked_not_the_label_that_says_the_same(gtk: GtkApp) -> None:
    start = gtk.mark()
    computer.mouse.click("Settings")
    signal(gtk, start, "clicked", "Settings")
    time.sleep(0.3)
    assert not [r for r in gtk.records()[start:] if r["event"] == "pressed"]


def test_role_narrows_to_that_kind_of_control(gtk: GtkApp) -> None:
    start = gtk.mark()
    clicked = computer.mouse.click("Settings", role="label")
    assert clicked.via == "accessibility" and clicked.what.startswith("label 'Settings'")
    signal(gtk, start, "pressed", "label Settings")
    assert not [r for r in gtk.records()[start:] if r["event"] == "clicked"]
    start = gtk.mark()
    computer.mouse.click("settings", role="button")
    signal(gtk, start, "clicked", "Settings")
    with pytest.raises(LookupError, match="no check box named 'Play'"):
        computer.mouse.click("Play", role="check box")


def test_the_check_box_is_toggled(gtk: GtkApp) -> None:
    start = gtk.mark()
    computer.mouse.click("Remember me", role="checkbox")
    first = signal(gtk, start, "toggled", "Remember me")
    start = gtk.mark()
    computer.mouse.click("Remember me")
    assert signal(gtk, start, "toggled", "Remember me")["active"] is not first["active"]


def test_the_disabled_button_is_refused_with_the_reason(gtk: GtkApp) -> None:
    start = gtk.mark()
    with pytest.raises(widgets.Disabled, match=r"push button 'Delete' \(disabled\).*greyed out"):
        computer.mouse.click("Delete")
    time.sleep(0.3)
    assert gtk.records()[start:] == []


def test_text_goes_into_the_field_named_by_its_label(gtk: GtkApp) -> None:
    start = gtk.mark()
    computer.keyboard.write("ACME Ltd", into="Customer")
    gtk.wait_for(lambda r: r.get("value") == "ACME Ltd", after=start)
    start = gtk.mark()
    computer.keyboard.write("Zoë — 東京", into="customer")
    gtk.wait_for(lambda r: r.get("value") == "Zoë — 東京", after=start)


def test_a_field_without_editable_text_is_clicked_then_typed_into(gtk: GtkApp) -> None:
    start = gtk.mark()
    computer.keyboard.write("abc", into="Notes")
    gtk.wait_for(lambda r: r["event"] == "key" and r["char"] == ord("c"), after=start)
    typed = [(chr(r["char"]), r["ctrl"]) for r in gtk.records()[start:]
             if r["event"] == "key" and r["char"]]  # Control itself has no character
    assert typed == [("a", True), ("a", False), ("b", False), ("c", False)]  # ctrl+a first


def test_the_text_map_has_roles_and_icons_with_ids(gtk: GtkApp) -> None:
    items = computer.display.text_map()
    assert [item["id"] for item in items] == list(range(1, len(items) + 1))
    icons = {item["text"]: item for item in items if item.get("source") == "accessibility"}
    for name, _ in ICONS[1:]:  # the gear's name is also on screen as the label's text
        assert icons[name]["role"] == "push button"
    entry = next(item for item in items if item["text"] == "Customer"
                 and item.get("role") in ("text", "entry"))
    assert entry["box"][0] > 600
    start = gtk.mark()
    computer.mouse.click(id=icons["Send"]["id"])
    signal(gtk, start, "clicked", "Send")


def test_a_covered_button_is_pressed_by_its_action_and_says_so(
        gtk: GtkApp, tmp_path: Path) -> None:
    gear = next(e for e in a11y.elements("Widgets") if e.name == "Settings"
                and e.role == "push button")
    with TkApp(tmp_path / "tk.jsonl", layout="dialog", x=gear.box.left - 20,
               y=gear.box.top - 20, title="In front") as front:
        assert computer.mouse.click("Remember me").via == "accessibility"  # not covered
        start, in_front = gtk.mark(), front.mark()
        clicked = computer.mouse.click("Settings", role="button", window="Widgets")
        assert clicked.via == "accessibility action 'click'"
        assert "push button 'Settings'" in clicked.what
        signal(gtk, start, "clicked", "Settings")
        with pytest.raises(widgets.Covered, match="behind 'In front'"):
            computer.mouse.right_click("Settings", role="button", window="Widgets")
        assert front.records()[in_front:] == []


def test_the_tk_window_still_goes_through_ocr(gtk: GtkApp, window: TkApp,
                                              ocr_engine: str) -> None:
    start = window.mark()
    clicked = computer.mouse.click("Apply")
    assert clicked.via == "ocr" and clicked == (clicked[0], clicked[1])
    assert window.wait_for(lambda r: r["event"] == "click", after=start)["widget"] == "Apply"
    began = time.perf_counter()
    assert widgets.from_tree(widgets.Wanted("Apply"), computer.display.viewport(), "") is None
    assert time.perf_counter() - began < a11y.BUDGET_S
    with pytest.raises(LookupError, match="no text field named 'Nope'"):
        computer.keyboard.write("x", into="Nope")


def test_accessible_names_reach_the_llm_as_untrusted_screen_text(gtk: GtkApp) -> None:
    from assistant.config import Settings
    from assistant.loop.screen import ScreenFeed

    screen = ScreenFeed(Settings(model="openai/gpt-4o-mini", screen_format="text"))
    assert screen.capture() == ""
    message, problem = screen.take()
    assert problem == "" and message is not None
    shown = message["content"][0]["text"].split('<screen_text untrusted="true">', 1)
    assert len(shown) == 2 and '  button "Move to trash"\n' in shown[1] and 'x=' not in shown[1]


def test_doctor_says_whether_the_accessibility_bus_is_up(gtk: GtkApp) -> None:
    from assistant.commands.doctor import check_accessibility
    from assistant.config import load_settings

    found = check_accessibility(load_settings())
    assert found.ok and found.detail.startswith("up; ") and "gtk_app.py" in found.detail


def test_without_a_bus_there_is_no_tree_no_error_and_no_wait(
        monkeypatch: pytest.MonkeyPatch, display: str) -> None:
    from assistant.commands.doctor import check_accessibility
    from assistant.config import load_settings

    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.delenv("AT_SPI_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/nonexistent")
    began = time.perf_counter()
    assert a11y.elements() == [] and a11y.elements("Widgets") == []
    assert time.perf_counter() - began < 0.05
    found = check_accessibility(load_settings())
    assert not found.ok and "DBUS_SESSION_BUS_ADDRESS" in found.detail and found.fix


def test_a_name_missing_beside_a_chromium_window_says_how_to_turn_its_tree_on(
        gtk: GtkApp, tmp_path: Path, ocr_engine: str) -> None:
    args = ["--layout", "dialog", "--x", "300", "--y", "650", "--title", "Web page",
            "--wm-class", "Chromium"]
    with (LoggedWindow("tests.support.tk_app", tmp_path / "tk.jsonl", args),
          pytest.raises(LookupError, match=r"'Web page' is a Chromium/Electron window .* "
                                           r"--force-renderer-accessibility")):
        computer.mouse.click("Subscribe")
