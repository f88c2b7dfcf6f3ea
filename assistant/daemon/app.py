"""Building and running the daemon: what starts in which order, and how each missing part
degrades.

The hotkey is armed first (within a second), the speech model and the LLM client load in
the background, Tk runs on the main thread until Quit, SIGTERM or SIGINT. Without a tray
host, a microphone or a speech engine the daemon says so once and goes on with the rest.
The LLM client (litellm) lives in a process of its own that ends after `keep_alive`
seconds without a request, and the voice is dropped with it, so an idle daemon holds
neither (llm/process.py, voice.tts.OnDemand); the hotkey loads both again.
"""

from __future__ import annotations

import faulthandler
import functools
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from assistant import warming
from assistant.config import ConfigError, Settings
from assistant.daemon import memory
from assistant.daemon.controller import Daemon
from assistant.daemon.instance import AlreadyRunning, Instance
from assistant.daemon.notices import Notifier
from assistant.daemon.parts import RecorderLike, TranscriberLike
from assistant.daemon.state import State
from assistant.journal import JournalError

if TYPE_CHECKING:
    from assistant.servers.started import Servers
    from assistant.voice.hotkey import Hotkey

EXIT_RUNNING = 3  # another daemon is running
EXIT_NO_DISPLAY = 2
EXIT_SETTINGS = 2  # no model, bad settings: restarting cannot help either


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run(settings: Settings, *, quiet: bool = False, tray: bool = True) -> int:
    """The daemon for these settings, until it is told to quit; returns the exit status."""
    started = time.monotonic()
    memory.limit_arenas()
    commands: dict[str, Callable[[], str]] = {}
    instance = Instance(settings.data_path, commands)
    try:
        instance.claim()
    except AlreadyRunning as exc:
        asked = "asked it to come forward" if exc.answered else "it did not answer"
        log(f"assistant daemon: already running (pid {exc.pid}); {asked}")
        return EXIT_RUNNING
    from assistant.servers import embedded, local
    from assistant.servers.started import Servers

    try:
        with Servers(lambda line: log(f"assistant daemon: {line}")) as servers:
            ready = local.ready(settings, servers)
            if not ready.model:
                log("assistant daemon: no model chosen: pass --model NAME or set model in "
                    "config.toml")
                return EXIT_SETTINGS
            return _run(ready, servers, commands, started, quiet=quiet, tray=tray)
    except local.LocalError as exc:
        log(f"assistant daemon: {exc}")
        return EXIT_SETTINGS
    except embedded.EmbeddedError as exc:
        log(f"assistant daemon: {exc}")
        return 1
    finally:
        instance.release()


def _run(  # noqa: PLR0913 - what run() readied, then keyword-only switches
        settings: Settings, servers: Servers, commands: dict[str, Callable[[], str]],
        started: float, *, quiet: bool, tray: bool) -> int:
    from assistant.api import Assistant
    from assistant.llm.process import LLMProcess
    from assistant.ui.popup import Popup

    popup = Popup()
    try:
        popup.open()  # before any other thread starts (Popup.open says why)
    except Exception as exc:  # Tk cannot open the display
        log(f"assistant daemon: cannot open the display ({exc}): use `assistant voice` "
            "in a terminal")
        return EXIT_NO_DISPLAY
    notifier = Notifier(log)
    transcriber, recorder, problem = _microphone(settings)
    llm = LLMProcess(settings.keep_alive, lambda line: log(f"assistant daemon: {line}"))
    try:
        daemon = Daemon(settings, popup=popup,
                        make_assistant=functools.partial(Assistant, backend=llm,
                                                         servers=servers),
                        transcriber=transcriber, recorder=recorder, notifier=notifier, log=log)
    except (ConfigError, JournalError) as exc:
        log(f"assistant daemon: {exc}")
        llm.close()
        return EXIT_SETTINGS
    llm.on_stop = daemon.rest
    if problem:
        daemon.tell_once("microphone", problem)
    commands["raise"] = daemon.bring_forward
    commands["state"] = lambda: daemon.state
    stop_web = None
    if settings.serve:
        from assistant.daemon import web

        stop_web = web.serve(daemon, log)
    hotkey = _arm_hotkey(daemon, started)
    daemon.machine.listen(_trim_when_idle)
    daemon.start()
    if tray:
        threading.Thread(target=_start_tray, args=(daemon,), name="tray-start",
                         daemon=True).start()
    else:
        log("assistant daemon: no tray icon (--no-tray)")
    warming.start(lambda: _warm_up(daemon, settings, notifier, quiet, started))
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: popup.stop())
    faulthandler.register(signal.SIGUSR1)  # `kill -USR1 PID`: every thread's stack to stderr
    try:
        popup.run()
    finally:
        if stop_web is not None:
            stop_web()
        if hotkey is not None:
            hotkey.stop()
        if daemon.tray is not None:
            daemon.tray.stop()
        daemon.close()
        llm.close()
    log("assistant daemon: stopped")
    return 0


def _trim_when_idle(state: State, _detail: str) -> None:
    """A turn is over: what it freed goes back to the system (see memory.py)."""
    if state == "idle":
        memory.trim()


def _microphone(
        settings: Settings) -> tuple[TranscriberLike | None, RecorderLike | None, str]:
    """The speech model (loading in the background) and the microphone, or what is
    missing."""
    instead = "meanwhile use Type a request… in the tray menu (or press the hotkey)"
    try:
        from assistant.voice.recorder import AudioDeviceError, Recorder
        from assistant.voice.stt import Transcriber
    except ImportError as exc:
        return None, None, f"no voice input ({exc}): pip install 'assistant[voice]'; {instead}"
    try:
        recorder = Recorder(settings.input_device or None)
    except AudioDeviceError as exc:
        return None, None, f"{exc}; {instead}"
    transcriber = Transcriber.from_settings(settings)
    transcriber.load_in_background()
    return transcriber, recorder, ""


def _arm_hotkey(daemon: Daemon, started: float) -> Hotkey | None:
    from assistant.voice.hotkey import Hotkey, HotkeyError

    try:
        hotkey = Hotkey(daemon.settings.hotkey, daemon.key_down, daemon.key_up,
                        mode=daemon.settings.hotkey_mode)
        hotkey.start()
    except HotkeyError as exc:
        daemon.tell_once("hotkey", f"{exc}; use the tray menu or Type a request…")
        return None
    log(f"assistant daemon: hotkey {daemon.settings.hotkey} armed "
        f"({time.monotonic() - started:.1f} s after start)")
    return hotkey


def _start_tray(daemon: Daemon) -> None:
    """The tray icon, or one message saying why there is none (hotkey and popup go on)."""
    try:
        from assistant.ui.tray import Tray, TrayUnavailable
    except ImportError as exc:
        daemon.tell_once("tray", f"no tray icon ({exc}); the hotkey and the popup still work")
        return
    icon = Tray(daemon, title="Assistant")
    try:
        icon.start(timeout=5.0)
    except TrayUnavailable as exc:
        daemon.tell_once("tray", f"no tray icon: {exc}; the hotkey and the popup still work")
        return
    daemon.tray = icon
    icon.update()
    log("assistant daemon: tray icon shown")


def _warm_up(daemon: Daemon, settings: Settings, notifier: Notifier, quiet: bool,
             started: float) -> None:
    """Load the voice and the LLM client while the user is still deciding what to say."""
    if not quiet:
        try:
            from assistant.voice.player import Player
            from assistant.voice.recorder import AudioDeviceError
            from assistant.voice.speaker import Speaker
            from assistant.voice.tts import OnDemand, TTSError, make_engine

            try:
                voice = OnDemand(lambda: make_engine(settings.tts_engine, settings.tts_voice))
                daemon.attach_speaker(Speaker(
                    voice, Player(settings.output_device or None),
                    on_error=lambda exc: log(f"assistant daemon: speech failed: {exc}")))
                daemon.voice = voice
            except (AudioDeviceError, TTSError) as exc:
                notifier.once("speech", f"answers are not spoken: {exc}")
        except ImportError as exc:
            notifier.once("speech", f"answers are not spoken ({exc}): "
                                    "pip install 'assistant[voice]'")
    daemon.assistant.warm_up()  # the LLM client's process, while the speech model loads
    if daemon.transcriber is not None:
        from assistant.voice.stt import ModelError

        try:  # waits for the background load begun at start, which warms model and filter
            daemon.transcriber.load()
        except ModelError as exc:
            daemon.tell_once("speech-model", f"speech is not recognised: {exc}")
    _warm_popup()
    _discover_models(daemon, settings)
    memory.trim()  # what loading and warming freed
    log(f"assistant daemon: ready in {time.monotonic() - started:.1f} s: hold "
        f"{settings.hotkey} and speak")


def _warm_popup() -> None:
    """Load the code highlighters now, not when the first proposal is shown."""
    from assistant.ui.popup_widgets import code_lexer

    for language in ("python", "shell", "javascript"):
        list(code_lexer(language).get_tokens("x = 1\n"))


def _discover_models(daemon: Daemon, settings: Settings) -> None:
    """Models Ollama has, for the tray's Model menu (nothing when it is not running)."""
    from assistant.servers import ollama

    try:
        found = ollama.installed(ollama.base_url(settings.api_base if ollama.is_ollama(
            settings.model) else ""), timeout=1.0)
    except ollama.OllamaUnavailable:
        return
    daemon.discovered = [f"ollama_chat/{model.name}" for model in found]
