"""The global hotkey under a real X server (Xvfb), with key presses injected by xdotool."""

from __future__ import annotations

import shutil
import time

import pytest

from tests.support.display import xdotool
from tests.support.require import require


def press(*args: str) -> None:
    """xdotool, then a moment for the hotkey listener to see it."""
    xdotool(*args)
    time.sleep(0.05)


def settle(events: list[str], count: int, timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while len(events) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)  # and nothing more arrives


@pytest.fixture
def hotkey_events(display):
    require(shutil.which("xdotool") is not None, "xdotool is not installed")
    from assistant.voice.hotkey import Hotkey

    events: list[str] = []
    made = []

    def make(mode: str) -> Hotkey:
        key = Hotkey("ctrl+alt+space", lambda: events.append("start"),
                     lambda: events.append("stop"), mode=mode)
        key.start()
        made.append(key)
        return key

    yield events, make
    for key in made:
        stop_listening(key)


def stop_listening(key) -> None:
    """Stop a Hotkey and wake pynput's X11 listener with a key event so its thread ends."""
    key.stop()
    xdotool("key", "shift")
    key.listener_thread.join(5)
    assert not key.listener_thread.is_alive()


def test_hold_to_talk_ignores_auto_repeat(hotkey_events) -> None:
    events, make = hotkey_events
    make("hold")
    press("keydown", "ctrl+alt+space")
    settle(events, 1)
    for _ in range(5):  # what a held key sends: more presses, or release-press pairs
        press("keydown", "space")
        xdotool("keyup", "space", "keydown", "space")
    settle(events, 1)
    assert events == ["start"]
    press("keyup", "ctrl+alt+space")
    settle(events, 2)
    assert events == ["start", "stop"]


def test_toggle_starts_and_stops_on_presses(hotkey_events) -> None:
    events, make = hotkey_events
    make("toggle")
    press("key", "ctrl+alt+space")
    settle(events, 1)
    assert events == ["start"]
    press("key", "ctrl+alt+space")
    settle(events, 2)
    assert events == ["start", "stop"]


def test_other_keys_do_nothing(hotkey_events) -> None:
    events, make = hotkey_events
    make("hold")
    press("key", "ctrl+space")
    press("key", "alt+a")
    settle(events, 1, timeout=0.5)
    assert events == []


def test_bad_hotkey_and_mode_are_explained() -> None:
    from assistant.voice.hotkey import Hotkey, HotkeyError, parse_hotkey

    assert parse_hotkey("Control+Alt+Space") == {"ctrl", "alt", "space"}
    with pytest.raises(HotkeyError, match="ctrl\\+alt\\+space"):
        parse_hotkey("ctrl++")
    with pytest.raises(HotkeyError, match="hold or toggle"):
        Hotkey("ctrl+space", print, print, mode="sticky")
