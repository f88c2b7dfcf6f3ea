"""Mouse, keyboard, clipboard and windows against a real Tk window that logs what it gets."""

from __future__ import annotations

import pytest

from assistant import computer
from tests.support.tk_app import TkApp

CANVAS = (60, 290)  # a point inside the test window's canvas (the window sits at 0, 0)


def test_click_by_coordinates_lands_where_asked(window: TkApp) -> None:
    x, y = CANVAS
    start = window.mark()
    assert computer.mouse.click(x, y) == (x, y)
    press = window.wait_for(lambda r: r["event"] == "buttonpress", after=start)
    assert (press["widget"], press["x_root"], press["y_root"], press["num"]) == ("canvas", x, y, 1)
    assert computer.mouse.position() == (x, y)


def test_double_right_click_drag_and_scroll(window: TkApp) -> None:
    x, y = CANVAS
    start = window.mark()
    computer.mouse.double_click(x + 10, y)
    window.wait_for(lambda r: r["event"] == "double-button-1", after=start)
    start = window.mark()
    computer.mouse.right_click(x + 20, y)
    assert window.wait_for(lambda r: r["event"] == "buttonpress", after=start)["num"] == 3
    start = window.mark()
    computer.mouse.drag(x, y, x + 100, y + 50)
    release = window.wait_for(
        lambda r: r["event"] == "buttonrelease" and r["num"] == 1, after=start
    )
    assert (release["x_root"], release["y_root"]) == (x + 100, y + 50)
    assert any(r["event"] == "drag" for r in window.records()[start:])
    start = window.mark()
    computer.mouse.scroll(-2, x, y)
    assert window.wait_for(lambda r: r["event"] == "scroll", after=start)["num"] == 5


def test_moves_into_a_corner_we_chose_do_not_trip_the_fail_safe(window: TkApp) -> None:
    computer.mouse.move(0, 0)
    x, y = CANVAS
    start = window.mark()
    computer.mouse.click(x, y)
    window.wait_for(lambda r: r["event"] == "buttonpress", after=start)


def test_the_fail_safe_still_stops_us_when_the_pointer_was_put_in_a_corner_by_someone_else(
    window: TkApp,
) -> None:
    import pyautogui

    computer.mouse.move(100, 100)
    pyautogui.moveTo(0, 0, _pause=False)  # the user slams the pointer into the corner
    try:
        with pytest.raises(pyautogui.FailSafeException):
            computer.mouse.click(*CANVAS)
    finally:
        pyautogui.FAILSAFE = False
        pyautogui.moveTo(200, 200, _pause=False)
        pyautogui.FAILSAFE = True


def focus_entry(window: TkApp) -> None:
    start = window.mark()
    computer.mouse.click(300, 170)
    window.wait_for(lambda r: r["event"] == "click" and r["widget"] == "customer", after=start)
    computer.keyboard.hotkey("ctrl", "/")  # Tk's select-all
    computer.keyboard.press("backspace")
    # Both reach the window before a test marks where its own events start.
    window.wait_for(lambda r: r["event"] == "hotkey" and r["keysym"] == "slash", after=start)
    window.wait_for(lambda r: r["event"] == "key" and r["keysym"] == "BackSpace", after=start)


def test_typing_ascii_and_unicode_into_an_entry(window: TkApp) -> None:
    focus_entry(window)
    start = window.mark()
    computer.keyboard.write("ACME Ltd")
    window.wait_for(lambda r: r.get("value") == "ACME Ltd", after=start)
    focus_entry(window)
    start = window.mark()
    computer.keyboard.write("Zoë — 東京 ✓")
    window.wait_for(lambda r: r.get("value") == "Zoë — 東京 ✓", after=start)
    assert computer.clipboard.read() == "Zoë — 東京 ✓"


def test_hotkeys_and_keys_reach_the_window(window: TkApp) -> None:
    focus_entry(window)
    start = window.mark()
    computer.keyboard.hotkey("ctrl", "s")
    key = window.wait_for(lambda r: r["event"] == "hotkey", after=start)
    assert key["keysym"] == "s" and key["state"] & 4  # the Control modifier bit
    start = window.mark()
    computer.keyboard.press("tab")
    assert window.wait_for(lambda r: r["event"] == "key", after=start)["keysym"] == "Tab"
    with pytest.raises(ValueError, match="unknown key"):
        computer.keyboard.press("hyperdrive")


def test_clipboard_round_trip(display: str) -> None:
    computer.clipboard.write("naïve café ☕")
    assert computer.clipboard.read() == "naïve café ☕"


def test_windows_are_listed_and_focused(window: TkApp) -> None:
    listed = computer.windows.list()
    ours = [w for w in listed if w["title"] == "Test window"]
    assert ours and ours[0]["width"] == window.ready["width"]
    assert computer.windows.focus("test WINDOW")["title"] == "Test window"
    active = computer.windows.active()
    assert active is not None and active["title"] == "Test window"
    with pytest.raises(LookupError, match="no window titled like 'Nope'"):
        computer.windows.focus("Nope")


def test_display_size_monitors_and_screenshot(display: str) -> None:
    assert computer.display.size() == (1280, 800)
    assert [(m.width, m.height) for m in computer.display.monitors()] == [(1280, 800)]
    shot = computer.display.screenshot(region=(10, 20, 100, 50))
    assert shot.size == (100, 50)
    assert computer.display.screenshot().size == (1280, 800)
