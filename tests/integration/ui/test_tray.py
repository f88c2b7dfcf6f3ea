"""The tray icon in a real system tray (trayer on Xvfb, a real D-Bus session), driven like a
person would: clicks on the embedded icon with xdotool, menu items found by the project's
own OCR or reached with the keyboard. The daemon's side is a small recording TrayActions.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from assistant.choices import State
from assistant.ui.tray import AUTO_RUN_LABEL, SUMMARY_CHARS, Tray, TrayUnavailable, shorten
from tests.support import tray_host as hosts
from tests.support.display import wait_until, xdotool, xvfb
from tests.support.require import require
from tests.support.tray_host import Box, TrayHost

tray_host = hosts.tray_host
pytestmark = [  # GtkStatusIcon is deprecated in GTK 3 but is what XEmbed trays embed
    pytest.mark.filterwarnings(r"ignore:Gtk\.(StatusIcon|Menu)\.:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:GObject.idle_add is deprecated"),
]
ROOT = Path(__file__).resolve().parents[3]
MODELS = ["openai/gpt-4o-mini", "ollama_chat/qwen2.5-coder"]
PENDING = "make a folder called reports on the desktop, then list what is in it"
# The menu with a pending proposal, in the documented order (separators are skipped).
MENU = ["listen", "run_pending", "cancel_pending", "auto_approval", "screen_context", "model",
        "recent", "type_request", "new_conversation", "undo", "journal", "settings", "pause_hotkey",
        "quit"]

FRESH_MENU = [
    ("Listen", None), (f"Run pending: {shorten(PENDING, SUMMARY_CHARS)}", None),
    ("Cancel pending", None), (AUTO_RUN_LABEL, False), ("Screen context", False),
    ("Model", None), ("Recent conversations", None), ("Type a request…", None),
    ("New conversation", None), ("Undo last run", None), ("Open journal folder", None),
    ("Settings", None), ("Pause hotkey", False), ("Quit", None)]


@dataclass
class RecordingActions:
    """TrayActions that hold the daemon's state and record every call the tray makes (mypy
    checks it against the Protocol: pyproject.toml lists this file)."""

    state: State = "idle"
    detail: str = ""
    pending: str | None = None
    auto_approval: bool = False
    screen_context: bool = False
    hotkey_paused: bool = False
    model: str = MODELS[0]
    conversations: list[tuple[str, str]] = field(default_factory=list)
    calls: list[tuple[Any, ...]] = field(default_factory=list)
    on_quit: Callable[[], None] = lambda: None

    def models(self) -> list[str]:
        return list(MODELS)

    def recent(self) -> list[tuple[str, str]]:
        return list(self.conversations)

    def listen(self) -> None:
        self.calls.append(("listen",))

    def run_pending(self) -> None:
        self.calls.append(("run_pending",))

    def cancel_pending(self) -> None:
        self.calls.append(("cancel_pending",))

    def set_auto_approval(self, on: bool) -> None:
        self.calls.append(("set_auto_approval", on))
        self.auto_approval = on

    def set_screen_context(self, on: bool) -> None:
        self.calls.append(("set_screen_context", on))
        self.screen_context = on

    def set_model(self, name: str) -> None:
        self.calls.append(("set_model", name))
        self.model = name

    def open_conversation(self, conversation_id: str) -> None:
        self.calls.append(("open_conversation", conversation_id))

    def open_journal_folder(self) -> None:
        self.calls.append(("open_journal_folder",))

    def open_settings(self) -> None:
        self.calls.append(("open_settings",))

    def set_hotkey_paused(self, paused: bool) -> None:
        self.calls.append(("set_hotkey_paused", paused))
        self.hotkey_paused = paused

    def type_request(self) -> None:
        self.calls.append(("type_request",))

    def new_conversation(self) -> None:
        self.calls.append(("new_conversation",))

    def undo_last_run(self) -> None:
        self.calls.append(("undo_last_run",))

    def quit(self) -> None:
        self.calls.append(("quit",))
        self.on_quit()


@dataclass
class Shown:
    tray: Tray
    actions: RecordingActions
    host: TrayHost
    icon: Box


def grab(box: Box) -> Any:
    import mss
    from PIL import Image

    with mss.MSS() as screen:
        shot = screen.grab({"left": box.left, "top": box.top, "width": box.width,
                            "height": box.height})
        return Image.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX")


def has_colour(image: Any, hex_colour: str, share: float = 0.2) -> bool:
    """Whether at least `share` of the pixels are (close to) `hex_colour`."""
    target = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    colours = image.getcolors(image.width * image.height)
    close = sum(count for count, pixel in colours
                if max(abs(a - b) for a, b in zip(pixel, target, strict=True)) < 24)
    return close >= share * image.width * image.height


def open_menus(host: TrayHost) -> list[Box]:
    """Pop-up windows (GTK menus) mapped now: override-redirect top-levels of real size."""
    from Xlib import display as xdisplay
    from Xlib.error import BadDrawable, BadWindow

    connection = xdisplay.Display(host.display)
    try:
        root = connection.screen().root
        found = []
        for window in root.query_tree().children:
            try:  # a menu closing is destroyed while the list is read: it is not open
                attributes = window.get_attributes()
                if not attributes.override_redirect or attributes.map_state != 2:
                    continue
                geometry = window.get_geometry()
            except (BadWindow, BadDrawable):
                continue
            if geometry.width > 60 and geometry.height > 60:
                found.append(Box(geometry.x, geometry.y, geometry.width, geometry.height))
        return found
    finally:
        connection.close()


def open_menu(shown: Shown) -> Box:
    """Right-click the icon and wait for its menu."""
    xdotool("mousemove", *map(str, shown.icon.centre), "click", "3")
    return wait_until(lambda: next(iter(open_menus(shown.host)), None), "the tray menu opens")


def pick(shown: Shown, name: str, *then: str) -> None:
    """Open the menu (a proposal pending) and choose `name` with the keyboard."""
    open_menu(shown)
    xdotool("key", *(["Down"] * (MENU.index(name) + 1)), *then, "Return")
    wait_until(lambda: not open_menus(shown.host), "the menu closes")


def recorded(shown: Shown, call: tuple[Any, ...]) -> None:
    wait_until(lambda: call in shown.actions.calls, f"the tray calls {call}")


@pytest.fixture(scope="module")
def host(tray_host: TrayHost) -> TrayHost:
    """The tray host, once the tray's libraries and xdotool are known to be here."""
    missing = [name for name, found in (
        ("xdotool", shutil.which("xdotool")), ("pystray", importlib.util.find_spec("pystray")),
        ("PyGObject", importlib.util.find_spec("gi"))) if not found]
    require(not missing, f"not installed: {', '.join(missing)}")
    return tray_host


@pytest.fixture(scope="module")
def shown(host: TrayHost) -> Iterator[Shown]:
    actions = RecordingActions()
    tray = Tray(actions)
    tray.start()
    icon = host.wait_for_icons(1)[0]
    yield Shown(tray, actions, host, icon)
    tray.stop()


@pytest.fixture
def tray(shown: Shown) -> Shown:
    """The shared tray, reset to idle with a proposal pending and no calls recorded."""
    actions = shown.actions
    actions.state, actions.detail, actions.pending = "idle", "", PENDING
    actions.auto_approval = actions.screen_context = actions.hotkey_paused = False
    actions.model = MODELS[0]
    actions.conversations = [("c-42", "Rename the screenshots by date")]
    shown.tray.update()
    wait_until(lambda: shown.tray.tooltip() == "Assistant — idle", "the tray is idle")
    wait_until(lambda: shown.tray.menu_items() == FRESH_MENU, "the menu is reset")
    actions.calls.clear()
    return shown


def test_the_icon_sits_in_the_tray_and_follows_the_state(tray: Shown) -> None:
    panel = tray.host.manager()
    assert panel, "trayer owns the system tray selection"
    assert 0 < tray.icon.width <= 64 and tray.icon.top < 32, f"icon inside the panel: {tray.icon}"
    idle = wait_until(lambda: (lambda image: image if has_colour(image, "#546e7a") else None)(
        grab(tray.icon)), "the idle icon (slate) is drawn")

    tray.actions.state, tray.actions.detail = "error", "the LLM server is down"
    tray.tray.update()
    error = wait_until(lambda: (lambda image: image if has_colour(image, "#212121") else None)(
        grab(tray.icon)), "the error icon (dark) is drawn")
    assert error.tobytes() != idle.tobytes()
    assert tray.tray.tooltip() == "Assistant — error\nthe LLM server is down"

    tray.actions.state, tray.actions.detail = "listening", ""
    tray.tray.update()
    wait_until(lambda: has_colour(grab(tray.icon), "#e53935"), "the listening icon (red)")
    assert tray.tray.tooltip() == "Assistant — listening"


def test_left_click_listens(tray: Shown) -> None:
    xdotool("mousemove", *map(str, tray.icon.centre), "click", "1")
    recorded(tray, ("listen",))
    assert not open_menus(tray.host), "a left click acts; it opens no menu"


def test_run_pending_is_picked_by_its_text(tray: Shown) -> None:
    from assistant import computer

    menu = open_menu(tray)
    found = wait_until(lambda: computer.display.find_text("Run pending: make a folder"),
                       "the menu shows the pending summary")
    assert menu.left <= found[0]["box"][0] < menu.left + menu.width
    assert computer.display.find_text("Cancel pending")
    computer.mouse.click("Run pending")
    recorded(tray, ("run_pending",))
    assert tray.actions.calls == [("run_pending",)]


def test_cancel_pending(tray: Shown) -> None:
    pick(tray, "cancel_pending")
    recorded(tray, ("cancel_pending",))


def test_without_a_proposal_the_pending_items_are_gone(tray: Shown) -> None:
    tray.actions.pending = None
    tray.tray.update()
    wait_until(lambda: [label for label, _ in tray.tray.menu_items()][:2]
               == ["Listen", AUTO_RUN_LABEL], "the pending items leave the menu")
    open_menu(tray)
    xdotool("key", "Down", "Down", "Return")  # Listen, then the next item: Auto-run
    recorded(tray, ("set_auto_approval", True))


def test_checkboxes_toggle_and_show_their_state(tray: Shown) -> None:
    pick(tray, "auto_approval")
    recorded(tray, ("set_auto_approval", True))
    wait_until(lambda: (AUTO_RUN_LABEL, True) in tray.tray.menu_items(), "Auto-run shows ticked")
    pick(tray, "auto_approval")
    recorded(tray, ("set_auto_approval", False))
    pick(tray, "pause_hotkey")
    recorded(tray, ("set_hotkey_paused", True))
    pick(tray, "screen_context")
    recorded(tray, ("set_screen_context", True))


def test_model_and_recent_submenus(tray: Shown) -> None:
    pick(tray, "model", "Right", "Down")  # the submenu opens on its first model
    recorded(tray, ("set_model", MODELS[1]))
    assert tray.actions.model == MODELS[1]
    pick(tray, "recent", "Right")
    recorded(tray, ("open_conversation", "c-42"))


def test_plain_items(tray: Shown) -> None:
    for name, call in (("type_request", "type_request"), ("new_conversation", "new_conversation"),
                       ("undo", "undo_last_run"), ("journal", "open_journal_folder"),
                       ("settings", "open_settings")):
        pick(tray, name)
        recorded(tray, (call,))


def test_quit_lets_the_daemon_stop_the_tray_from_its_own_thread(tray: Shown) -> None:
    tray.actions.on_quit = tray.tray.stop  # what the daemon does: stop() on the tray thread
    pick(tray, "quit")
    recorded(tray, ("quit",))
    tray.host.wait_for_icons(0)


class BrokenActions(RecordingActions):
    def models(self) -> list[str]:
        raise OSError("the model list cannot be read")


def test_a_menu_that_cannot_be_built_is_reported_and_leaves_no_icon(host: TrayHost) -> None:
    with pytest.raises(TrayUnavailable, match="menu cannot be built: the model list"):
        Tray(BrokenActions()).start()
    host.wait_for_icons(0)


def test_no_display_is_refused_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(TrayUnavailable, match="DISPLAY"):
        Tray(RecordingActions()).start()


NO_HOST = """
import time
from assistant.ui.tray import Tray, TrayUnavailable
from tests.integration.ui.test_tray import RecordingActions
started = time.monotonic()
try:
    Tray(RecordingActions()).start(timeout=1.5)
except TrayUnavailable as exc:
    print(f"{time.monotonic() - started:.2f}|{exc}")
"""


def test_no_tray_host_is_reported_within_the_timeout(host: TrayHost) -> None:
    """GTK is bound to one display per process: a child process on a bare Xvfb."""
    with xvfb() as bare:
        env = {**os.environ, "DISPLAY": bare, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-c", NO_HOST], env=env, capture_output=True,
                              text=True, timeout=30, cwd=ROOT)
    elapsed, _, message = done.stdout.strip().partition("|")
    assert message, f"no TrayUnavailable: {done.stdout}{done.stderr[-500:]}"
    assert "\n" not in message and "within 1.5 s" in message and "trayer" in message
    assert 1.5 <= float(elapsed) < 3.0


def test_doctor_sees_the_tray(host: TrayHost) -> None:
    from assistant.commands.doctor import check_tray
    from assistant.config import load_settings

    found = check_tray(load_settings())
    assert found.ok and "XEmbed" in found.detail, found


SNI_CHILD = """
import json, time
from assistant.ui.tray import Tray
from tests.integration.ui.test_tray import RecordingActions
actions = RecordingActions(pending="make a folder")
tray = Tray(actions)
tray.start()
print(json.dumps([tray.backend, tray.tooltip()]), flush=True)
deadline = time.monotonic() + 20
while len(actions.calls) < 2 and time.monotonic() < deadline:
    time.sleep(0.05)
print(json.dumps(actions.calls), flush=True)
tray.stop()
"""


def icon_by_colour(strip: Box, hex_colour: str) -> Box | None:
    """Where the pixels of `hex_colour` are in `strip`, as a box; None when there are few."""
    from PIL import Image, ImageChops

    image = grab(strip)
    difference = ImageChops.difference(image, Image.new("RGB", image.size, hex_colour))
    mask = difference.convert("L").point(lambda value: 255 if value < 12 else 0)
    if mask.histogram()[255] < 50:
        return None
    box = mask.getbbox()
    assert box is not None  # at least 50 pixels are set
    left, top, right, bottom = box
    return Box(strip.left + left, strip.top + top, right - left, bottom - top)


def test_a_status_notifier_host_gets_an_appindicator_with_the_same_menu(
        host: TrayHost, monkeypatch: pytest.MonkeyPatch) -> None:
    """KDE and GNOME (AppIndicator extension) show StatusNotifier items, not XEmbed icons:
    there the tray is an AppIndicator whose menu travels over D-Bus (dbusmenu)."""
    hosts.require(("gtk-sni-tray-standalone", "haskell-gtk-sni-tray-utils"), ("dbus-send", "dbus"))
    with xvfb() as bare, hosts.status_notifier_host(bare) as sni:
        monkeypatch.setenv("DISPLAY", bare)
        env = {**os.environ, "DBUS_SESSION_BUS_ADDRESS": sni.bus_address,
               "PYTHONPATH": str(ROOT)}
        child = subprocess.Popen([sys.executable, "-c", SNI_CHILD], env=env, cwd=ROOT,
                                 stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None
            backend, tip = json.loads(child.stdout.readline())
            assert (backend, tip) == ("appindicator", "Assistant — idle")
            icon = wait_until(lambda: icon_by_colour(Box(0, 0, 1280, 32), "#546e7a"),
                              "the idle icon shows in the StatusNotifier tray")
            for keys in (["Down", "Down"], ["Down"] * 4):  # Run pending, then Auto-run
                xdotool("mousemove", *map(str, icon.centre), "click", "3")
                wait_until(lambda: open_menus(sni), "the dbusmenu menu opens")
                xdotool("key", *keys, "Return")
                wait_until(lambda: not open_menus(sni), "the menu closes")
            calls = json.loads(child.stdout.readline())
            assert calls == [["run_pending"], ["set_auto_approval", True]]
        finally:
            child.kill()
            child.wait(10)
