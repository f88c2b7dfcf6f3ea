"""The push-to-talk key: a global hotkey through pynput, held to talk or pressed to toggle.

Held keys repeat: X sends extra presses (and, without detectable auto-repeat, a release
before each). A take starts only when the combination becomes complete, and a release
counts only if no press of the same key follows within REPEAT_GRACE_S, so auto-repeat
never starts a second take or ends one early.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from assistant.choices import HotkeyMode, choices, one_of

REPEAT_GRACE_S = 0.06
ALIASES = {"control": "ctrl", "ctrl_l": "ctrl", "ctrl_r": "ctrl", "alt_l": "alt", "alt_r": "alt",
           "alt_gr": "alt", "option": "alt", "shift_l": "shift", "shift_r": "shift",
           "cmd": "super", "cmd_l": "super", "cmd_r": "super", "win": "super", "meta": "super",
           "return": "enter", "esc": "escape"}


class HotkeyError(Exception):
    """The hotkey cannot be used; the message says why and what to do."""


def parse_hotkey(text: str) -> frozenset[str]:
    """"ctrl+alt+space" -> {"ctrl", "alt", "space"} (names as pynput spells them)."""
    keys = [part.strip().lower() for part in text.split("+")]
    if not text.strip() or any(not key for key in keys):
        raise HotkeyError(f"hotkey {text!r} is not of the form ctrl+alt+space")
    return frozenset(ALIASES.get(key, key) for key in keys)


def key_name(key: Any) -> str:
    """A pynput key as a name comparable with parse_hotkey's."""
    name = getattr(key, "name", None)
    if name is None:
        char = getattr(key, "char", None)
        name = char if char else str(getattr(key, "vk", ""))
    name = name.lower()
    return ALIASES.get(name, name)


class Hotkey:
    """Calls on_start when a take should begin and on_stop when it should end."""

    def __init__(self, combo: str, on_start: Callable[[], None], on_stop: Callable[[], None],
                 mode: HotkeyMode = "hold") -> None:
        if mode not in choices(HotkeyMode):
            raise HotkeyError(f"hotkey_mode must be {one_of(choices(HotkeyMode))}, "
                              f"not {mode!r}")
        self.combo = parse_hotkey(combo)
        self.mode = mode
        self._on_start = on_start
        self._on_stop = on_stop
        self._pressed: set[str] = set()
        self._active = False
        self._pending_release: dict[str, threading.Timer] = {}
        self._lock = threading.Lock()
        self._listener: Any = None
        self.listener_thread: Any = None  # the last stopped listener, for joining

    @property
    def active(self) -> bool:
        return self._active

    def start(self) -> None:
        """Listen globally (needs an X display on Linux; pynput is imported only now)."""
        try:
            from pynput import keyboard
        except Exception as exc:  # pynput raises at import without a display
            raise HotkeyError(f"no global hotkey here ({exc}); on Linux it needs an X11 "
                              "session (Wayland blocks global keys)") from None
        self._listener = keyboard.Listener(on_press=self.press, on_release=self.release)
        self._listener.start()
        self._listener.wait()

    def stop(self) -> None:
        """Stop listening. On X11, pynput's listener thread ends at the next key event."""
        if self._listener is not None:
            self._listener.stop()
            self.listener_thread, self._listener = self._listener, None
        for timer in self._pending_release.values():
            timer.cancel()

    def press(self, key: Any) -> None:
        name = key_name(key)
        with self._lock:
            timer = self._pending_release.pop(name, None)
            if timer is not None:
                timer.cancel()  # a repeat: the key never really went up
                return
            was_complete = self.combo <= self._pressed
            self._pressed.add(name)
            if was_complete or not self.combo <= self._pressed:
                return
            starting = self.mode == "hold" or not self._active
            self._active = starting
        (self._on_start if starting else self._on_stop)()

    def release(self, key: Any) -> None:
        name = key_name(key)
        with self._lock:
            if name not in self._pressed or name in self._pending_release:
                return
            timer = threading.Timer(REPEAT_GRACE_S, self._released, (name,))
            self._pending_release[name] = timer
        timer.start()

    def _released(self, name: str) -> None:
        with self._lock:
            if self._pending_release.pop(name, None) is None:
                return
            self._pressed.discard(name)
            ending = self.mode == "hold" and self._active and name in self.combo
            if ending:
                self._active = False
        if ending:
            self._on_stop()
