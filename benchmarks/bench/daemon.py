"""The daemon's figures: key release to the panel and to the popup, how long a proposal is
spoken and how soon its effect is, and what the daemon costs while idle.

One `assistant daemon` process serves all of them, on the desktop figures' Xvfb, with the
speech figures' private PulseAudio (its microphone fed the speech fixtures) and a scripted
LLM server that answers at once.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from benchmarks.bench.areas import bench_pulse, desktop_display
from benchmarks.bench.base import Bench, NotMeasurable
from benchmarks.bench.stt import voice_fixtures

HOTKEY = "ctrl+alt+space"
POPUP = "assistant: run this?"
PANEL = "assistant: thinking"  # the panel with the request as heard, before any answer
PROPOSAL_SAID = "Shall I run it?"  # ends the line the daemon says for every proposal
TRIED = "notice Tried in a copy of your files"  # a proposal that failed its preview
LISTING = "ls -l ~/Downloads"  # the proposal the popup figures time: it previews cleanly
LISTING_SAID = "say Changes nothing."  # its previewed effect, said before its approval
# The home's Downloads as a user has it, so LISTING lists something (a proposal whose
# preview fails goes back to the model unasked, and no popup ever comes).
DOWNLOADS = {"report.pdf": "report\n", "photo.jpg": "photo\n", "notes.txt": "notes\n"}
KEEP_ALIVE_S = 20  # keep_alive here: longer than the gaps between a figure's turns
# the embedded model's server, private or shared, on its command line
LLM_SERVERS = ("assistant.servers.chatml", "assistant.servers.keepalive")


class BenchDaemon:
    """A running daemon and the parts around it; stopped at exit."""

    def __init__(self, embedded: bool = False) -> None:
        """With `embedded`, no model is configured and the daemon starts the embedded one
        (base.isolated_environment names the user's weights), as for a new user; else it talks to a
        scripted LLM server that answers at once."""
        for tool in ("xdotool", "pulseaudio", "espeak-ng"):
            if shutil.which(tool) is None:
                raise NotMeasurable(f"{tool} is not installed (scripts/setup --test)")
        from tests.support import tray_host
        from tests.support.llm_server import LLMServer

        display = desktop_display()
        _, self.fixtures = voice_fixtures()
        self.stack = ExitStack()
        atexit.register(self.stack.close)
        if shutil.which("trayer") and shutil.which("dbus-daemon"):  # the tray icon is up
            self.stack.enter_context(tray_host.running(display))
        self.home = Path(self.stack.enter_context(tempfile.TemporaryDirectory()))
        (self.home / "Downloads").mkdir()
        for name, content in DOWNLOADS.items():
            (self.home / "Downloads" / name).write_text(content)
        self.pulse = bench_pulse()
        self.data = self.home / "data"
        model: list[str] = []
        if not embedded:
            self.llm = self.stack.enter_context(LLMServer())
            model = ["--model", "openai/bench", "--api-base", self.llm.openai_url]
        env = {**os.environ, **self.pulse.env, "HOME": str(self.home),
               "ASSISTANT_DATA_DIR": str(self.data),
               "ASSISTANT_CONFIG_DIR": str(self.home / "config"),
               "ASSISTANT_API_KEY": "bench", "ASSISTANT_CODE_STYLE": "tools",
               "ASSISTANT_INPUT_DEVICE": "pulse", "ASSISTANT_OUTPUT_DEVICE": "pulse",
               "ASSISTANT_SCREEN_CONTEXT": "never",
               "ASSISTANT_KEEP_ALIVE": str(KEEP_ALIVE_S),
               # a speech model other than the default: its folder, in BENCH_STT_MODEL
               "ASSISTANT_STT_MODEL": os.environ.get("BENCH_STT_MODEL", "")}
        self.lines: list[str] = []
        self.stamps: list[float] = []  # time.monotonic() when each line arrived
        self.patience = 600.0 if embedded else 60.0  # seconds a turn may take
        self.process = subprocess.Popen(
            [sys.executable, "-m", "assistant.cli", "daemon", *model], env=env, cwd=self.home,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True)
        self.stack.callback(self.stop)
        threading.Thread(target=self._read, daemon=True).start()
        # it loads the model; a busy machine (load 7 on 2 cores) has taken over 120 s
        self.wait_for("assistant daemon: ready", 600 if embedded else 240)

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stamps.append(time.monotonic())
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float, after: int = 0) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.lines[after:]):
            self.not_tried(after)
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the daemon did not log {text!r}: "
                                   + " | ".join(self.lines[-5:]))
            time.sleep(0.01)

    def not_tried(self, after: int) -> None:
        """Fail at once, saying why, when the scripted proposal failed its preview: it went
        back to the model and will never be shown or said."""
        tried = next((line for line in self.lines[after:] if TRIED in line), None)
        if tried is not None:
            raise RuntimeError(f"the proposal failed its preview in the bench's home: {tried}")

    def state(self) -> str:
        from assistant.daemon.instance import ask

        return ask(self.data, "state").split()[0]

    def wait_idle(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while self.state() != "idle":
            if time.monotonic() > deadline:
                raise RuntimeError("the daemon did not come back to idle")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def tree(self, llm_server: bool = True) -> list[int]:
        """The daemon and every process below it (runtimes, the speech engine, the LLM
        client); without `llm_server`, not the embedded model's server and its children."""
        parents: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    command = (entry / "cmdline").read_text()
                    if not llm_server and any(name in command for name in LLM_SERVERS):
                        continue
                except OSError:
                    continue
                parents[int(entry.name)] = int(fields[1])
        found = [self.process.pid]
        for pid in found:
            found.extend(child for child, parent in parents.items() if parent == pid)
        return found

    def cpu_seconds(self) -> float:
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for pid in self.tree():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime + stime
        return total / ticks

    def rss_mb(self) -> float:
        """Resident MB of the daemon and its processes; the embedded model's server is the
        LLM's, not the daemon's, and is left out."""
        total = 0
        for pid in self.tree(llm_server=False):
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            total += next((int(line.split()[1]) for line in status.splitlines()
                           if line.startswith("VmRSS:")), 0)
        return total / 1024

    def say(self, audio: Any) -> int:
        """Hold the hotkey while `audio` plays into the microphone, then let go; the line
        count before, to wait for what the daemon says after."""
        mark = len(self.lines)
        subprocess.run(["xdotool", "keydown", HOTKEY], check=True, timeout=10)
        self.wait_for("-> listening", 10, mark)
        self.pulse.play_into_mic(audio)
        while not self.pulse.mic_idle():
            time.sleep(0.01)
        time.sleep(0.2)
        subprocess.run(["xdotool", "keyup", HOTKEY], check=True, timeout=10)
        return mark

    def visible(self, title: str) -> bool:
        return bool(subprocess.run(["xdotool", "search", "--onlyvisible", "--name", title],
                                   capture_output=True, check=False).stdout.strip())

    def release_to(self, title: str, audio: Any, *replies: Any) -> float:
        """One voice turn: speech while the key is held; seconds from release until a
        window titled `title` is on screen; then the proposal is cancelled, back to idle.
        `replies` are the scripted LLM's (none with the embedded model)."""
        if replies:
            self.llm.add(*replies)
        mark = self.say(audio)
        released = time.perf_counter()
        while not self.visible(title):
            self.not_tried(mark)
            if time.perf_counter() - released > self.patience:
                raise RuntimeError(f"no window {title!r} within {self.patience:g} s")
            time.sleep(0.005)
        seconds = time.perf_counter() - released
        self.wait_for("-> awaiting_approval", self.patience, mark)
        self.cancel()
        self.wait_idle(self.patience)
        return seconds

    def cancel(self) -> None:
        """Escape in the popup, brought forward with the focus."""
        from assistant.daemon.instance import ask

        ask(self.data, "raise")
        window = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", POPUP],
                                capture_output=True, text=True, check=True).stdout.split()[0]
        subprocess.run(["xdotool", "windowfocus", "--sync", window, "key", "Escape"],
                       check=True, timeout=10)

    def release_to_popup(self, audio: Any) -> float:
        """Key release to the proposal on screen, the LLM answering at once; checked to
        have been previewed, as a user's is (its effect said, not its plan)."""
        from assistant.whatif.probe import problem
        from tests.support.llm_server import text, tool_call

        mark = len(self.lines)
        seconds = self.release_to(POPUP, audio, tool_call("shell", LISTING), text("Alright."))
        said = next(line for line in self.lines[mark:] if PROPOSAL_SAID in line)
        if LISTING_SAID not in said:
            raise RuntimeError(f"the proposal was shown without its preview "
                               f"({problem() or said})")
        return seconds


def settle(daemon: BenchDaemon) -> None:
    daemon.wait_idle()
    time.sleep(2)  # the warm-up threads and the last turn's speech are over


@functools.cache
def bench_daemon() -> BenchDaemon:
    return BenchDaemon()


@functools.cache
def voice_turns(turns: int) -> tuple[list[float], list[float]]:
    """Seconds from key release to the popup, and the daemon's resident MB after each
    turn (settled), for `turns` voice turns."""
    daemon = bench_daemon()
    audio = daemon.fixtures["piper_disk"]["audio"]
    times, sizes = [], []
    for _ in range(turns):
        times.append(daemon.release_to_popup(audio))
        settle(daemon)
        sizes.append(daemon.rss_mb())
    return times, sizes


def voice_turn_overhead_ms(bench: Bench) -> float:
    """Key release to the popup on screen: the tail of the transcription, the request to a
    scripted LLM that answers at once, the risk check and the popup (median)."""
    return 1000 * statistics.median(voice_turns(bench.reps(6, 3))[0])


def daemon_turn_growth_mb(bench: Bench) -> float:
    """How much the daemon's resident memory grows per voice turn, from the second turn to
    the last (the first loads what turns use): a daemon that runs for days must not creep."""
    sizes = voice_turns(bench.reps(6, 3))[1]
    return (sizes[-1] - sizes[1]) / (len(sizes) - 2)


def daemon_idle_rss_mb(bench: Bench) -> float:
    """Resident memory of the idle daemon and its processes after a voice turn, once its
    LLM client's process has ended (keep_alive: 300 s by default, KEEP_ALIVE_S here):
    the speech model, the voice, the popup, the tray and the hotkey up."""
    daemon = bench_daemon()
    mark = len(daemon.lines)
    daemon.release_to_popup(daemon.fixtures["piper_disk"]["audio"])
    daemon.wait_for("LLM client process stopped", KEEP_ALIVE_S + 60, mark)
    settle(daemon)
    return daemon.rss_mb()


def daemon_idle_cpu_pct(bench: Bench) -> float:
    """CPU the idle daemon uses (percent of one core), over 10 s (3 s with --quick)."""
    daemon = bench_daemon()
    settle(daemon)
    window = bench.reps(10, 3)
    before, start = daemon.cpu_seconds(), time.monotonic()
    time.sleep(window)
    return 100 * (daemon.cpu_seconds() - before) / (time.monotonic() - start)



def voice_first_feedback_ms(bench: Bench) -> float:
    """Key release to the panel on screen with the request as heard (the tail of the
    transcription and the panel; the scripted LLM answers a second later), median."""
    from tests.support.llm_server import delay, text, tool_call

    daemon = bench_daemon()
    audio = daemon.fixtures["piper_disk"]["audio"]
    times = []
    for _ in range(bench.reps(6, 3)):
        times.append(daemon.release_to(PANEL, audio, delay(1.0, tool_call("shell", "df -h")),
                                       text("Alright.")))
        settle(daemon)
    return 1000 * statistics.median(times)


def spoken_length(daemon: BenchDaemon, monitor: Any, audio: Any, *replies: Any) -> float:
    """One spoken request: seconds from the first spoken word after release (the earcon
    before it is not speech) to the last sound before the proposal's read-out ends
    (silence for a second after it was said); then Cancel."""
    from tests.support.audio import speech_times

    daemon.llm.add(*replies)
    mark = daemon.say(audio)
    released = time.monotonic()
    daemon.wait_for(PROPOSAL_SAID, daemon.patience, mark)
    while True:
        heard = [at for at in monitor.loud_times() if at > released]
        if heard and time.monotonic() - heard[-1] > 1.0:
            break
        if time.monotonic() - released > daemon.patience:
            raise RuntimeError("the proposal was not heard")
        time.sleep(0.05)
    daemon.cancel()
    daemon.wait_idle(daemon.patience)
    return heard[-1] - speech_times(monitor, released)[0]


def spoken_proposal_s(bench: Bench) -> float:
    """How long a proposal is spoken, from its first sound to the end of "Shall I run it?":
    a model's one-sentence plan, a paragraph after it and one short line of shell (median)."""
    from tests.support.audio import speaker_monitor
    from tests.support.llm_server import text, tool_call

    daemon = bench_daemon()
    audio = daemon.fixtures["piper_disk"]["audio"]
    words = ("I'll check the free disk space. The df command lists every mounted file "
             "system with its size, what is used and what is left, in a readable format:")
    lengths = []
    with speaker_monitor(daemon.pulse) as monitor:
        for _ in range(bench.reps(5, 2)):
            settle(daemon)
            lengths.append(spoken_length(daemon, monitor, audio,
                                         tool_call("shell", "df -h", text=words),
                                         text("Alright.")))
    return statistics.median(lengths)


# A proposal whose preview has an effect to say. In a folder of home's own: the
# assistant's folders live in home, so home's top level stays read-only in a preview
# (uncovered.READ_ONLY) and a write there has no effect to say.
MOVE = "mkdir -p ~/Downloads/old && mv ~/Downloads/notes.log ~/Downloads/old/"


def effect_spoken(daemon: BenchDaemon, monitor: Any, audio: Any) -> tuple[float, float]:
    """One spoken request whose proposal moves a file: seconds from the scripted reply's
    last byte (the proposal complete) to the daemon's saying its effect, and to the first
    spoken word after it; then Cancel. The reply has no words, so that word is the
    effect's."""
    from tests.support.audio import first_word
    from tests.support.llm_server import text, tool_call

    (daemon.home / "Downloads" / "notes.log").write_text("notes\n")
    sent = len(daemon.llm.finished)
    daemon.llm.add(tool_call("shell", MOVE), text("Alright."))
    mark = daemon.say(audio)
    daemon.wait_for(PROPOSAL_SAID, daemon.patience, mark)
    said_at, said = next((at, line) for at, line in zip(daemon.stamps[mark:],
                                                        daemon.lines[mark:], strict=False)
                         if PROPOSAL_SAID in line)
    complete = daemon.llm.finished[sent]
    try:
        if "Moves 1 file" not in said:
            raise RuntimeError(f"the daemon did not say the move's effect: {said}")
        # Sound after the line was said: under load the earcon can be late and no longer
        # tell itself apart from speech, and it is never the effect's sentence.
        while (heard := first_word(monitor, said_at)) is None:
            if time.monotonic() - said_at > 30:
                raise RuntimeError("the effect was not heard within 30 s of being said")
            time.sleep(0.01)
    finally:  # idle again, so the figures after this one start as they should
        daemon.cancel()
        daemon.wait_idle(daemon.patience)
    return said_at - complete, heard - complete


def voice_effect_spoken_s(bench: Bench) -> float:
    """A spoken turn, from the proposal complete (the model's reply with its code sent) to
    the first sound of its effect's sentence ("Moves 1 file … Shall I run it?"): the
    preview in a what-if world, the risk check, and the voice's first audio (median).
    Where the time goes is printed: until the daemon says the sentence, and after."""
    from tests.support.audio import speaker_monitor

    daemon = bench_daemon()
    audio = daemon.fixtures["piper_disk"]["audio"]
    said, heard = [], []
    with speaker_monitor(daemon.pulse) as monitor:
        for _ in range(bench.reps(6, 3)):
            settle(daemon)
            to_said, to_heard = effect_spoken(daemon, monitor, audio)
            said.append(to_said)
            heard.append(to_heard)
    print(f"bench: voice_effect_spoken_s: said {statistics.median(said):.2f} s after the "
          f"proposal was complete, heard {statistics.median(heard):.2f} s after "
          f"(each run: {', '.join(f'{s:.2f}/{h:.2f}' for s, h in zip(said, heard, strict=True))})",
          file=sys.stderr, flush=True)
    return statistics.median(heard)
