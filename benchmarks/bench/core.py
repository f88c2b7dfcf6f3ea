"""The core's figures: a command's start, a run through the runtime, a typed turn, and
the first word of `assistant -y` cold and warm with the embedded model."""

from __future__ import annotations

import functools
import os
import shutil
import statistics
import subprocess
import time

from benchmarks.bench.base import VENV_BIN, Bench, NotMeasurable, median_time

CLI_LIMIT_S = 3600  # the cold and warm commands, on a model read from scratch each round

def help_s(bench: Bench) -> float:
    """A fresh `assistant --help`: what every command pays before doing anything."""
    exe = VENV_BIN / "assistant"
    if not exe.exists():
        raise NotMeasurable(f"{exe} is missing: run scripts/setup first")

    def once() -> None:
        done = subprocess.run(
            [str(exe), "--help"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"assistant --help exited {done.returncode}: {done.stderr[-300:]}")

    return median_time(once, bench.reps(20, 5))


def run_round_trip_ms(bench: Bench, language: str, code: str) -> float:
    """A warm run through the runtime as the core drives it, checked to end cleanly."""
    from assistant.events import RunEnd

    runtimes = bench.runtimes()

    def once() -> None:
        events = list(runtimes.run(language, code, proposal_id="b"))
        last = events[-1] if events else None
        if not isinstance(last, RunEnd) or last.exit_status != 0 or "1" not in last.output:
            raise RuntimeError(f"{language} run did not end cleanly: {last!r}")

    return 1000 * median_time(once, bench.reps(20, 10))


def run_python_ms(bench: Bench) -> float:
    return run_round_trip_ms(bench, "python", "print(1)")


def run_shell_ms(bench: Bench) -> float:
    return run_round_trip_ms(bench, "shell", "echo 1")


def run_js_ms(bench: Bench) -> float:
    if shutil.which("node") is None:
        raise NotMeasurable("node is not installed, so JavaScript runs are unavailable")
    return run_round_trip_ms(bench, "javascript", "console.log(1)")


def turn_overhead_ms(bench: Bench) -> float:
    """One typed turn (a tool call that runs print(1), then words) against an instant LLM,
    with the preview a user gets (undo on): the figure fails where previews are off, since
    it would measure a turn no user with previews has.

    The server answers at once, so the figure is what the assistant itself adds per turn.
    The history is cleared before each turn so every turn is the same size.
    """
    from assistant import Assistant
    from assistant.events import Proposal, RunEnd, TurnEnd
    from assistant.whatif.probe import problem
    from tests.support.llm_server import LLMServer, text, tool_call

    if problem():
        raise RuntimeError(problem())

    with (
        LLMServer() as server,
        Assistant(
            model="openai/gpt-4o-mini",
            api_base=server.url + "/v1",
            api_key="test",
            approval="auto",
            journal=False,
        ) as assistant,
    ):

        def once() -> None:
            server.add(tool_call("python", "print(1)"), text("It printed 1."))
            assistant.messages = []
            events = list(assistant.turn("print one"))
            ran = [e for e in events if isinstance(e, RunEnd)]
            end = events[-1] if events else None
            if (
                not isinstance(end, TurnEnd)
                or end.reason != "answered"
                or not ran
                or any(e.exit_status != 0 for e in ran)
            ):
                raise RuntimeError(f"the turn did not run print(1) and answer: {events!r}"[:600])
            if not any(isinstance(e, Proposal) and e.effect is not None for e in events):
                raise RuntimeError(f"print(1) was proposed without its preview: {events!r}"[:600])

        return 1000 * median_time(once, bench.reps(20, 3))


@functools.cache
def cli_first_tokens(bench: Bench) -> tuple[float, float, float]:
    """`assistant -y "..."` with nothing configured, as a new user runs it: seconds from
    the command to the first word of the answer with no server loaded (cold: the shared
    server starts and reads the whole prompt) and with the server of the command before
    still kept (warm: only the new request is read), each a median; and the resident MB
    of the shared server after the warm runs."""
    from assistant.config import load_settings
    from assistant.servers import embedded, shared

    settings = load_settings()
    if not embedded.available(settings):
        raise NotMeasurable(f"the embedded model is not installed ({embedded.missing(settings)})")
    exe = VENV_BIN / "assistant"
    env = {**os.environ, "ASSISTANT_MAX_TOKENS": "16", "ASSISTANT_EMBEDDED_KEEP_ALIVE": "300"}

    def first_token(request: str) -> float:
        """Seconds to the first byte of the answer; then the command is ended, since what
        it does next is not this figure."""
        began = time.perf_counter()
        process = subprocess.Popen([str(exe), "-y", request], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        assert process.stdout is not None
        first = process.stdout.read(1)
        seconds = time.perf_counter() - began
        process.terminate()
        try:
            _, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            _, err = process.communicate()
        if not first:
            raise RuntimeError(f"assistant -y exited {process.returncode}: {err[-300:]!r}")
        return seconds

    colds, warms = [], []
    for round_ in range(bench.reps(3, 1)):
        for running in shared.records():
            shared.stop(running)
        colds.append(first_token(f"How many legs do {round_ + 2} spiders have?"))
        for ask in range(bench.reps(4, 2)):
            warms.append(first_token(f"What is {round_ + 3} times {ask + 7}?"))
    [running] = shared.records()
    said = shared.status(running) or {}
    shared.stop(running)
    return (statistics.median(colds), statistics.median(warms),
            said.get("rss_bytes", 0) / 1e6)


def cli_first_token_cold_s(bench: Bench) -> float:
    return cli_first_tokens(bench)[0]


def cli_first_token_warm_s(bench: Bench) -> float:
    return cli_first_tokens(bench)[1]


def embedded_server_rss_mb(bench: Bench) -> float:
    """What the shared embedded server holds, apart from any program that uses it (the
    daemon's own figure leaves it out)."""
    return cli_first_tokens(bench)[2]
