"""The tray icon and its menu (pystray on GTK): the assistant's state at a glance, and its
everyday switches one click away.

Threading: GTK lives on a thread of its own, started by `Tray.start()`. Every menu
action calls into `TrayActions` on that thread, so actions must return quickly (hand
long work to another thread). `update()` may be called from any thread; it queues a
refresh on the tray thread and returns at once. GTK is process-wide: one Tray at a time
per process, on the display GTK first opened; and GTK ends the process (status 1) when
that X server goes away.

Backends: where a StatusNotifier host runs (KDE, GNOME with the AppIndicator extension)
the icon is an AppIndicator, whose click opens the menu; elsewhere a GtkStatusIcon, which
every XEmbed system tray embeds (XFCE, MATE, LXDE, trayer, ...): left click is Listen/Stop,
right click the menu. pystray's plain X11 backend is never chosen: it has no menu.
PYSTRAY_BACKEND=gtk|appindicator overrides the choice.
"""

from __future__ import annotations

import importlib
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Protocol, TypeVar

from assistant.choices import STATES, State
from assistant.ui.tray_icons import draw_icon

STOP_STATES = ("listening", "running", "speaking")  # where Listen becomes Stop
AUTO_RUN_LABEL = "Auto-run (never high-risk)"
SUMMARY_CHARS = 50
TITLE_CHARS = 45
ICON_SIZE = 64
SNI_WATCHER = "org.kde.StatusNotifierWatcher"
SETUP_FIX = "./scripts/setup (installs the `tray` extra and its apt packages)"
START_ONLY = {"GDK_GL": "disable", "NO_AT_BRIDGE": "1"}  # GTK's start, not the runs'

log = logging.getLogger(__name__)
T = TypeVar("T")


class TrayActions(Protocol):
    """What the tray asks of the daemon. Properties are read whenever the menu or icon is
    refreshed (the tray never sets them); methods are called on the tray's thread and must
    return quickly."""

    @property
    def state(self) -> State: ...
    @property
    def detail(self) -> str: ...
    @property
    def pending(self) -> str | None: ...
    @property
    def auto_approval(self) -> bool: ...
    @property
    def screen_context(self) -> bool: ...
    @property
    def hotkey_paused(self) -> bool: ...
    @property
    def model(self) -> str: ...

    def models(self) -> list[str]: ...
    def recent(self) -> list[tuple[str, str]]: ...
    def listen(self) -> None: ...
    def run_pending(self) -> None: ...
    def cancel_pending(self) -> None: ...
    def set_auto_approval(self, on: bool) -> None: ...
    def set_screen_context(self, on: bool) -> None: ...
    def set_model(self, name: str) -> None: ...
    def open_conversation(self, conversation_id: str) -> None: ...
    def open_journal_folder(self) -> None: ...
    def open_settings(self) -> None: ...
    def set_hotkey_paused(self, paused: bool) -> None: ...
    def type_request(self) -> None: ...
    def new_conversation(self) -> None: ...
    def undo_last_run(self) -> None: ...
    def quit(self) -> None: ...


class TrayUnavailable(Exception):
    """No tray can be shown here; the message names why and the fix (one line)."""


def shorten(text: str, limit: int) -> str:
    """One line of at most `limit` characters, with an ellipsis when cut."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def tooltip_text(title: str, state: str, detail: str) -> str:
    """"Assistant — awaiting approval", and the detail on a second line when there is one."""
    text = f"{title} — {state.replace('_', ' ')}"
    return f"{text}\n{shorten(detail, 120)}" if detail.strip() else text


def _load_gtk() -> Any:
    """GLib, with GTK initialised, or TrayUnavailable naming what to install."""
    try:
        import gi
    except ImportError:
        raise TrayUnavailable(f"PyGObject is not installed: run {SETUP_FIX}") from None
    # An icon and a menu need no OpenGL; without GDK_GL GDK loads Mesa (LLVM, on a machine
    # without a GPU) at start-up: over 50 MB of the daemon's memory. Nor do they belong on
    # the accessibility bus: there the daemon, busy in Python, answered every tree read
    # (its own, and each desktop run's) late or never, and a read spent its time budget
    # waiting on it. Only GTK's start reads these, so programs the runs start later see
    # the environment as it was.
    previous = {name: os.environ.get(name) for name in START_ONLY}
    os.environ.update(START_ONLY)
    try:
        gi.require_version("Gtk", "3.0")
        from gi.repository import GLib, Gtk

        started = Gtk.init_check()[0]
    except (ImportError, ValueError) as exc:
        raise TrayUnavailable(f"GTK 3 cannot be loaded ({exc}): apt-get install "
                              "gir1.2-gtk-3.0") from None
    finally:
        for name, value in previous.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value
    if not started:
        raise TrayUnavailable(f"GTK cannot open the display {os.environ.get('DISPLAY', '')!r}: "
                              "check DISPLAY and that the X server runs")
    return GLib


def status_notifier_host() -> bool:
    """Whether a StatusNotifier host (KDE, GNOME's AppIndicator extension) is on the
    session bus; TrayUnavailable when there is no session bus."""
    from gi.repository import Gio, GLib

    try:
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    except GLib.Error:
        raise TrayUnavailable("no D-Bus session bus: run inside a desktop session "
                              "(or under dbus-run-session)") from None
    reply = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus",
                          "org.freedesktop.DBus", "NameHasOwner",
                          GLib.Variant("(s)", (SNI_WATCHER,)), None,
                          Gio.DBusCallFlags.NONE, 2000, None)
    return bool(reply.unpack()[0])


def _choose_backend() -> str:
    """appindicator where a StatusNotifier host listens, else gtk (XEmbed)."""
    chosen = os.environ.get("PYSTRAY_BACKEND", "")
    if chosen:
        return chosen
    return "appindicator" if status_notifier_host() else "gtk"


def _load_pystray(backend: str) -> tuple[Any, Any]:
    """The pystray package and the Icon class of `backend`."""
    try:
        pystray = importlib.import_module("pystray")
        module = importlib.import_module(f"pystray._{backend}")
    except ImportError as exc:
        raise TrayUnavailable(f"the {backend} tray backend cannot load ({exc}): run "
                              f"{SETUP_FIX}") from None
    return pystray, module.Icon


class Tray:
    """The tray icon: shown by start(), refreshed by update(), removed by stop()."""

    def __init__(self, actions: TrayActions, title: str = "Assistant") -> None:
        self.actions = actions
        self.title = title
        self.backend = ""  # "gtk" or "appindicator" once started
        self._icon: Any = None
        self._pystray: Any = None
        self._glib: Any = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: TrayUnavailable | None = None
        self._lock = threading.Lock()
        self._refresh_queued = False
        self._stopped = False
        self._shown_state = ""

    # -- the daemon's side: any thread --------------------------------------------------

    def start(self, timeout: float = 5.0) -> None:
        """Show the icon from the tray thread; TrayUnavailable when no tray shows it."""
        if self._thread is not None:
            raise RuntimeError("this Tray was started already; make a new one")
        if not os.environ.get("DISPLAY"):
            raise TrayUnavailable("no display (DISPLAY is not set): the tray needs a desktop "
                                  "session; `assistant voice` works in a terminal")
        deadline = time.monotonic() + timeout
        self._thread = threading.Thread(target=self._main, name="tray", daemon=True)
        self._thread.start()
        if not self._ready.wait(max(0.0, deadline - time.monotonic())):
            self.stop()
            raise TrayUnavailable(f"the tray did not start within {timeout:g} s")
        if self._error is not None:
            self.stop()
            raise self._error
        while not self._embedded_by(deadline):
            if time.monotonic() > deadline:
                self.stop()
                raise TrayUnavailable(
                    f"no system tray showed the icon within {timeout:g} s: start the "
                    "desktop's panel or a tray (e.g. trayer); on GNOME install "
                    "gnome-shell-extension-appindicator")
            time.sleep(0.05)

    def update(self) -> None:
        """Re-read the actions and redraw icon, tooltip and menu (queued; returns at once)."""
        with self._lock:
            if self._icon is None or self._glib is None or self._refresh_queued:
                return
            self._refresh_queued = True
        self._glib.idle_add(self._refresh_queued_once)

    def stop(self) -> None:
        """Remove the icon and end the tray thread (waits for it unless called on it)."""
        with self._lock:
            self._stopped = True
            icon, self._icon = self._icon, None
        thread = self._thread
        if icon is not None and self._glib is not None:
            self._glib.idle_add(self._close, icon)
        if thread is not None and thread is not threading.current_thread():
            thread.join(5)

    def call(self, function: Callable[[], T], timeout: float = 5.0) -> T:
        """Run `function` on the tray thread and return its result (for tests and probes)."""
        if threading.current_thread() is self._thread:
            return function()
        if self._glib is None:
            raise RuntimeError("the tray is not running")
        future: Future[T] = Future()

        def run() -> bool:
            try:
                future.set_result(function())
            except BaseException as exc:
                future.set_exception(exc)
            return False

        self._glib.idle_add(run)
        return future.result(timeout)

    def tooltip(self) -> str:
        """The tooltip the desktop shows now (read from the widget itself)."""
        return self.call(lambda: self._status_icon().get_tooltip_text()
                         if self.backend == "gtk" else self._icon.title)

    def menu_items(self) -> list[tuple[str, bool | None]]:
        """The menu as GTK holds it now: (label, checked or None), separators left out.

        Updates reach the menu a moment after update(); wait on this to know they did.
        """
        def read() -> list[tuple[str, bool | None]]:
            from gi.repository import Gtk

            handle = getattr(self._icon, "_menu_handle", None)
            children = handle.get_children() if handle is not None else []
            return [(child.get_child().get_text(),
                     child.get_active() if isinstance(child, Gtk.CheckMenuItem) else None)
                    for child in children if not isinstance(child, Gtk.SeparatorMenuItem)]
        return self.call(read)

    # -- the tray thread ----------------------------------------------------------------

    def _main(self) -> None:
        try:
            glib = _load_gtk()
            self.backend = _choose_backend()
            self._pystray, icon_class = _load_pystray(self.backend)
            icon = icon_class("assistant", draw_icon("idle", ICON_SIZE), self.title,
                              self._pystray.Menu())
        except Exception as exc:
            self._error = (exc if isinstance(exc, TrayUnavailable)
                           else TrayUnavailable(f"the tray cannot start: {exc}"))
            self._ready.set()
            return
        self._glib = glib
        with self._lock:
            if self._stopped:  # start() gave up while GTK was loading
                return
            self._icon = icon
        try:
            icon.run(setup=self._show)
        except Exception as exc:
            if self._ready.is_set():  # pystray closing with no notification service
                log.debug("the tray loop ended: %s", exc)
            else:
                self._error = TrayUnavailable(f"the tray cannot start ({exc}): it needs a "
                                              "desktop session with a D-Bus session bus")
        finally:
            self._ready.set()

    def _show(self, icon: Any) -> None:
        """pystray's setup hook (its own thread): fill the icon, then make it visible."""
        try:
            self.call(self._refresh)
            icon.visible = True
        except Exception as exc:
            self._error = TrayUnavailable(f"the tray menu cannot be built: {exc}")
        self._ready.set()

    def _embedded_by(self, deadline: float) -> bool:
        """Whether a tray shows the icon (asked on the tray thread, waiting until deadline)."""
        if self.backend != "gtk":
            return True  # a StatusNotifier host listens: it shows every registered item
        try:
            return self.call(lambda: bool(self._status_icon().is_embedded()),
                             max(0.1, deadline - time.monotonic()))
        except FutureTimeout:
            return False

    def _status_icon(self) -> Any:
        return self._icon._status_icon

    def _close(self, icon: Any) -> bool:
        if self.backend == "gtk":
            icon._status_icon.set_visible(False)
            from gi.repository import Gdk

            Gdk.flush()  # the loop ends next: unmap the icon before it does
        else:
            icon.visible = False  # the indicator goes passive; hosts hide it
        icon.stop()
        return False

    def _refresh_queued_once(self) -> bool:
        with self._lock:
            self._refresh_queued = False
        self._refresh()
        return False

    def _refresh(self) -> None:
        icon = self._icon
        if icon is None:
            return
        actions = self.actions
        state = actions.state if actions.state in STATES else "error"
        if state != self._shown_state:
            icon.icon = draw_icon(state, ICON_SIZE)
            self._shown_state = state
        text = tooltip_text(self.title, state, actions.detail or "")
        icon.title = text
        if self.backend == "gtk":
            self._status_icon().set_tooltip_text(text)
        icon.menu = self._menu(state)

    def _act(self, function: Callable[..., None], *args: Any) -> Callable[[], None]:
        """A menu callback: call the action, log (not raise) its failure, then refresh."""
        def callback() -> None:
            try:
                function(*args)
            except Exception:
                log.exception("the tray action %s failed", getattr(function, "__name__", ""))
            self._refresh()
        return callback

    def _menu(self, state: str) -> Any:
        """The menu for the actions as they are now, in the documented order."""
        menu, item = self._pystray.Menu, self._pystray.MenuItem
        actions = self.actions

        def check(label: str, on: bool, toggle: Callable[[bool], None]) -> Any:
            return item(label, self._act(toggle, not on), checked=lambda _: on)

        entries = [item("Stop" if state in STOP_STATES else "Listen",
                        self._act(actions.listen), default=True)]
        if actions.pending is not None:
            summary = shorten(actions.pending, SUMMARY_CHARS)
            entries += [item(f"Run pending: {summary}", self._act(actions.run_pending)),
                        item("Cancel pending", self._act(actions.cancel_pending))]
        entries += [
            menu.SEPARATOR,
            check(AUTO_RUN_LABEL, actions.auto_approval, actions.set_auto_approval),
            check("Screen context", actions.screen_context, actions.set_screen_context),
            item("Model", menu(*self._models())),
            item("Recent conversations", menu(*self._recent())),
            menu.SEPARATOR,
            item("Type a request…", self._act(actions.type_request)),
            item("New conversation", self._act(actions.new_conversation)),
            item("Undo last run", self._act(actions.undo_last_run)),
            item("Open journal folder", self._act(actions.open_journal_folder)),
            item("Settings", self._act(actions.open_settings)),
            check("Pause hotkey", actions.hotkey_paused, actions.set_hotkey_paused),
            menu.SEPARATOR,
            item("Quit", self._act(actions.quit)),
        ]
        return menu(*entries)

    def _models(self) -> list[Any]:
        item, current = self._pystray.MenuItem, self.actions.model
        names = list(dict.fromkeys([*self.actions.models(), *([current] if current else [])]))
        if not names:
            return [item("(none)", None, enabled=False)]
        return [item(name, self._act(self.actions.set_model, name),
                     checked=lambda _, name=name: name == current, radio=True)
                for name in names]

    def _recent(self) -> list[Any]:
        item = self._pystray.MenuItem
        found = self.actions.recent()[:8]
        if not found:
            return [item("(none)", None, enabled=False)]
        return [item(shorten(title or conversation_id, TITLE_CHARS),
                     self._act(self.actions.open_conversation, conversation_id))
                for conversation_id, title in found]
