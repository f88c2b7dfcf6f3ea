"""litellm in its own process: the adapter through a real child process and the real
litellm client against the scripted server; the parent never imports litellm, an idle
child ends, and a child that dies fails the call in one line."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assistant.config import Settings
from assistant.llm import LLM, LLMError, Reply
from assistant.llm.process import LLMProcess
from tests.support.llm_server import LLMServer, closed_port_url, error, hang, text, tool_call

USER = [{"role": "system", "content": "You help."}, {"role": "user", "content": "Hi"}]
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def shared() -> Iterator[LLMProcess]:
    backend = LLMProcess()
    try:
        yield backend
    finally:
        backend.close()


def run(llm: LLM, **kwargs: Any) -> tuple[list[str], Reply]:
    *deltas, reply = list(llm.stream(USER, **kwargs))
    assert isinstance(reply, Reply)
    return [str(d) for d in deltas], reply


def gone(pid: int, timeout: float = 10.0) -> bool:
    """Whether the process ended and was reaped (no zombie left) within `timeout`."""
    deadline = time.monotonic() + timeout
    while Path(f"/proc/{pid}").exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_text_and_a_tool_call_arrive_through_the_process(
        shared: LLMProcess, server: LLMServer, openai_settings: Settings) -> None:
    server.add(text("Hello there, how are you today?"),
               tool_call("python", "print(6 * 7)", text="Let me count."))
    deltas, reply = run(LLM(openai_settings.replace(code_style="fenced"), backend=shared))
    assert len(deltas) > 3 and "".join(deltas) == reply.text == "Hello there, how are you today?"
    assert reply.usage is not None and reply.usage[1] > 0
    _, reply = run(LLM(openai_settings.replace(code_style="tools"), backend=shared))
    [call] = reply.calls
    assert (reply.text, call.language, call.code) == ("Let me count.", "python", "print(6 * 7)")
    assert server.chat_requests[0].body["messages"] == USER


def test_failures_are_one_line_as_in_process(
        shared: LLMProcess, server: LLMServer, openai_settings: Settings) -> None:
    server.add(error(500, "boom"), error(503, "busy"), error(500, "boom again"))
    with pytest.raises(LLMError, match=r"server error \(500\): boom again") as caught:
        run(LLM(openai_settings, backend=shared))
    assert len(server.chat_requests) == 3 and "\n" not in str(caught.value)
    base = closed_port_url()
    llm = LLM(Settings(model="openai/test-model", api_base=base + "/v1", api_key="k"),
              backend=shared)
    with pytest.raises(LLMError, match=re.escape(f"Cannot reach the LLM at {base}/v1")):
        run(llm)


def test_a_stop_ends_a_silent_reply_and_the_child_serves_the_next(
        shared: LLMProcess, server: LLMServer, openai_settings: Settings) -> None:
    server.add(hang(), text("Next."))
    llm = LLM(openai_settings.replace(code_style="fenced", llm_timeout=30), backend=shared)
    asked = time.monotonic()
    _, reply = run(llm, should_stop=lambda: time.monotonic() - asked > 1.0)
    assert reply.stopped and time.monotonic() - asked < 5
    _, reply = run(llm)
    assert reply.text == "Next."


def test_the_parent_never_imports_litellm(server: LLMServer) -> None:
    server.add(text("From the child."))
    script = textwrap.dedent(f"""
        import json, sys
        from assistant.config import Settings
        from assistant.llm import LLM
        from assistant.llm.process import LLMProcess
        backend = LLMProcess()
        llm = LLM(Settings(model="openai/test-model", api_base={server.openai_url!r},
                           api_key="test", code_style="fenced"), backend=backend)
        *_, reply = llm.stream([{{"role": "user", "content": "Hi"}}])
        backend.close()
        print(json.dumps({{"text": reply.text, "litellm": "litellm" in sys.modules,
                          "openai": "openai" in sys.modules}}))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, check=True)
    assert json.loads(done.stdout) == {"text": "From the child.", "litellm": False,
                                       "openai": False}


def test_an_idle_child_ends_is_reaped_and_the_next_call_starts_another() -> None:
    lines: list[str] = []
    backend = LLMProcess(keep_alive=1.0, log=lines.append)
    try:
        assert backend.knows("gpt-4o-mini") and not backend.knows("no-such-model")
        first = backend.pid
        assert first is not None and gone(first), "the idle child is still there"
        assert backend.pid is None
        assert backend.max_input_tokens("gpt-4o-mini") == 128000
        assert backend.pid not in (None, first)
    finally:
        backend.close()
    assert lines[0] == f"LLM client process started (pid {first})"
    assert any(re.fullmatch(r"LLM client process stopped after \d+ s idle", line)
               for line in lines), lines


def test_a_child_that_dies_fails_the_call_in_one_line(
        server: LLMServer, openai_settings: Settings) -> None:
    server.add(hang(), text("Back."))
    backend = LLMProcess()
    llm = LLM(openai_settings.replace(code_style="fenced", llm_timeout=60), backend=backend)
    try:
        assert backend.knows("gpt-4o-mini")  # started and loaded
        pid = backend.pid
        assert pid is not None
        killer = threading.Timer(1.0, os.kill, (pid, signal.SIGKILL))
        killer.start()
        with pytest.raises(LLMError) as caught:
            run(llm)
        killer.join()
        assert re.fullmatch(r"The LLM call to openai/test-model failed: the LLM client "
                            r"process ended \(exit -9\): [^\n]+", str(caught.value))
        assert gone(pid)
        _, reply = run(llm)
        assert reply.text == "Back." and backend.pid != pid
    finally:
        backend.close()


def test_a_child_that_cannot_start_fails_the_call_in_one_line_and_the_next_starts_it(
        server: LLMServer, openai_settings: Settings, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm-up of a start the kernel refused returns (the daemon still gets ready)."""
    server.add(text("Started."))
    backend = LLMProcess()
    llm = LLM(openai_settings.replace(code_style="fenced", llm_timeout=60), backend=backend)
    try:
        with monkeypatch.context() as patch:
            patch.setattr(sys, "executable", str(tmp_path / "no-python"))
            backend.warm_up()
            assert backend.pid is None and not backend.knows("gpt-4o-mini")
            with pytest.raises(LLMError) as caught:
                run(llm)
        assert re.fullmatch(r"The LLM call to openai/test-model failed: the LLM client "
                            r"process did not start \(No such file or directory\); the next "
                            r"request starts it again", str(caught.value)), str(caught.value)
        _, reply = run(llm)
        assert reply.text == "Started." and backend.pid is not None
    finally:
        backend.close()
