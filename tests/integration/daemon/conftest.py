"""`assistant daemon` as a real process on the shared Xvfb and PulseAudio, with its own
HOME, config and data folders, talking to the scripted LLM server; watched through its
documented log lines on stderr."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.llm_server import LLMServer
from tests.support.require import require

STATE = re.compile(r"^assistant daemon: state (\w+) -> (\w+)")
HOTKEY = "ctrl+alt+space"


class DaemonProcess:
    """A running daemon; `lines` is its stderr so far, read by a thread."""

    def __init__(self, home: Path, args: list[str], env: dict[str, str]) -> None:
        self.home = home
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "assistant.cli", "daemon", *args], env=env, cwd=home,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))

    def mark(self) -> int:
        return len(self.lines)

    def wait_for(self, check: str | Callable[[str], bool], after: int = 0,
                 timeout: float = 30.0) -> str:
        """The first line from index `after` that contains `check` (or satisfies it)."""
        test = (lambda line: check in line) if isinstance(check, str) else check
        deadline = time.monotonic() + timeout
        seen = after
        while time.monotonic() < deadline:
            while seen < len(self.lines):
                line = self.lines[seen]
                seen += 1
                if test(line):
                    return line
            if self.process.poll() is not None and seen >= len(self.lines):
                break
            time.sleep(0.02)
        native = ""
        if self.process.poll() is None:  # what each thread was doing, for the report
            self.process.send_signal(signal.SIGUSR1)
            time.sleep(1)
            native = native_stacks(self.process.pid)
        raise AssertionError(f"no line with {check!r} within {timeout} s; the log:\n"
                             + "\n".join(self.lines[-200:]) + native)

    def wait_state(self, state: str, after: int = 0, timeout: float = 30.0) -> str:
        return self.wait_for(lambda line: bool((m := STATE.match(line)) and m[2] == state),
                             after, timeout)

    def states(self, after: int = 0) -> list[str]:
        return [m[2] for line in self.lines[after:] if (m := STATE.match(line))]

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self._reader.join(5)
        return self.process.returncode


def native_stacks(pid: int) -> str:
    """Every thread's C stack (gdb), for a report: a hang inside a library (Tk, Xlib)
    shows in Python's stacks only as the call into it."""
    if shutil.which("gdb") is None:
        return ""
    try:
        done = subprocess.run(["gdb", "-batch", "-p", str(pid), "-ex", "thread apply all bt 25"],
                              capture_output=True, text=True, timeout=60, check=False)
    except subprocess.TimeoutExpired:
        return "\ngdb did not answer within 60 s"
    return "\nC stacks (gdb):\n" + "\n".join(
        line for line in done.stdout.splitlines() if line.startswith(("Thread", "#")))


def daemon_env(home: Path) -> dict[str, str]:
    """The test's environment (DISPLAY, PulseAudio) with this daemon's own folders."""
    for name in ("config", "data", "xdg-config"):
        (home / name).mkdir(parents=True, exist_ok=True)
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "xdg-config"),
            "ASSISTANT_CONFIG_DIR": str(home / "config"),
            "ASSISTANT_DATA_DIR": str(home / "data"), "ASSISTANT_API_KEY": "test",
            "ASSISTANT_CODE_STYLE": "tools", "ASSISTANT_INPUT_DEVICE": "pulse",
            "ASSISTANT_OUTPUT_DEVICE": "pulse", "ASSISTANT_TTS_ENGINE": "espeak-ng"}


def start_daemon(home: Path, api_base: str, *extra: str) -> DaemonProcess:
    return DaemonProcess(home, ["--model", "openai/gpt-4o-mini", "--api-base", api_base,
                                *extra], daemon_env(home))


def hold_the_key_while(daemon: DaemonProcess, pulse, audio) -> float:
    """Hold the hotkey while `audio` (float32 16 kHz) plays into the microphone, then let
    go; returns when the key was released (time.monotonic())."""
    start = daemon.mark()
    return float(pulse.hold_key_and_speak(HOTKEY, audio,
                                          lambda: daemon.wait_state("listening", start)))


@pytest.fixture(scope="module")
def llm() -> Iterator[LLMServer]:
    with LLMServer() as server:
        yield server


@contextlib.contextmanager
def ready_daemon(home: Path, llm: LLMServer, config: str = "") -> Iterator[DaemonProcess]:
    """A daemon ready (speech model loaded) and idle, with `config` as its config.toml;
    stopped after, and it must stop cleanly."""
    require(shutil.which("xdotool") is not None, "xdotool is not installed")
    require(shutil.which("espeak-ng") is not None, "espeak-ng is not installed")
    require(shutil.which("parec") is not None, "parec is not installed (pulseaudio-utils)")
    if config:
        (home / "config").mkdir(parents=True, exist_ok=True)
        (home / "config" / "config.toml").write_text(config)
    daemon = start_daemon(home, llm.openai_url)
    try:
        # how fast it gets ready is bench.py's to measure: on a loaded machine (both test
        # workers loading models) it has taken over 90 s
        daemon.wait_for("assistant daemon: ready", timeout=180)
        yield daemon
    finally:
        assert daemon.stop() == 0, "\n".join(daemon.lines[-30:])


@pytest.fixture(scope="module")
def running(display: str, pulse, tmp_path_factory: pytest.TempPathFactory,
            llm: LLMServer) -> Iterator[DaemonProcess]:
    """One daemon for the module's tests, ready (speech model loaded) and idle."""
    with ready_daemon(tmp_path_factory.mktemp("daemon-home"), llm) as daemon:
        yield daemon
