"""The embedded model's shared server for real (SmolLM2 on llama.cpp): programs of one
user share it, it stops after its keep-alive, a killed one is replaced, and no other user
can use it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from assistant.commands import doctor
from assistant.config import load_settings
from assistant.servers import embedded, shared
from tests.integration.conftest import ROOT
from tests.support.llm_server import closed_port_url
from tests.support.models import require_embedded
from tests.support.require import lacking

pytestmark = pytest.mark.slow
OTHER_USER = "assistant-other"


def cli(request: str, keep_alive: str = "120", *args: str, cwd: Path = ROOT,
        env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """`assistant REQUEST` (or `assistant ARGS` when given) as a user runs it, with nothing
    configured, so the embedded SmolLM2 answers; started, not waited for."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OLLAMA_API_BASE": closed_port_url(),
           "ASSISTANT_EMBEDDED_MODEL": embedded.SMOLLM2, "ASSISTANT_MAX_TOKENS": "12",
           "ASSISTANT_EMBEDDED_KEEP_ALIVE": keep_alive, **(env or {})}
    command = list(args) or ["--code-style", "fenced", request]
    return subprocess.Popen([sys.executable, "-m", "assistant.cli", *command], env=env, cwd=cwd,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def run(request: str, keep_alive: str = "120", *args: str, cwd: Path = ROOT,
        env: dict[str, str] | None = None) -> tuple[str, str]:
    """The output and the messages of `cli`, which must succeed."""
    process = cli(request, keep_alive, *args, cwd=cwd, env=env)
    out, err = process.communicate(timeout=240)
    assert process.returncode == 0, err
    assert "Traceback" not in err
    return out, err


def the_server() -> shared.Running:
    """The one live shared server."""
    [running] = shared.records()
    assert shared.status(running) is not None
    return running


def gone(pid: int, within: float) -> bool:
    """Whether `pid` ends within `within` seconds."""
    deadline = time.monotonic() + within
    while shared.alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_two_programs_at_once_share_one_server_and_keep_their_conversations_apart() -> None:
    require_embedded()
    words = ("pumpkin", "glacier")
    programs = [cli(f"Repeat this one word: {word}.") for word in words]
    said = [program.communicate(timeout=240) for program in programs]
    assert [program.returncode for program in programs] == [0, 0], said
    # one started the server; the other waited on the start lock and found it
    assert [("starting the embedded" in err) for _, err in said].count(True) == 1, said
    running = the_server()
    for (out, _), other in zip(said, reversed(words), strict=True):
        assert other not in out.lower()
    out, err = run("Say hello.")
    assert "starting the embedded" not in err and out.strip()
    assert the_server().pid == running.pid


def test_a_command_to_the_kept_server_loads_no_litellm_and_reads_only_its_request(
        tmp_path: Path) -> None:
    """The next command, in another folder with files of its own, is spoken to directly
    (llm/direct.py: litellm's import took seconds before its first word), and its prompt
    begins as the one before did, so the server reads only the new request."""
    require_embedded()
    run("Say hello.")
    (tmp_path / "notes.txt").write_text("a file the first command's folder has not\n")
    log = the_server().record.with_suffix(".log")
    before = log.read_text(errors="replace")
    out, err = run("Say goodbye.", cwd=tmp_path, env={"PYTHONPROFILEIMPORTTIME": "1"})
    imported = {line.rsplit("|", 1)[-1].strip() for line in err.splitlines()
                if line.startswith("import time:")}
    assert "assistant.llm.direct" in imported and out.strip()
    assert not {"litellm", "openai", "httpx"} & imported
    hits = re.findall(r"(\d+) prefix-match hit, remaining (\d+) prompt tokens",
                      log.read_text(errors="replace")[len(before):])
    cached, read = (int(n) for n in hits[0])
    assert cached > 200 and read < 30, hits


def test_the_server_stays_for_its_keep_alive_then_stops_and_says_so_in_status() -> None:
    require_embedded()
    run("Say hello.", "10")
    running = the_server()
    out, _ = run("", "10", "models", "status")
    assert "loaded since" in out and f"pid {running.pid}" in out and "stops at" in out, out
    assert gone(running.pid, 10 + 40), "the server outlived its keep-alive"
    assert not running.record.exists()
    out, _ = run("", "10", "models", "status")
    assert "not loaded" in out and "10 s after its last request" in out, out


def test_the_latest_programs_keep_alive_applies_and_models_stop_stops_the_server() -> None:
    require_embedded()
    run("Say hello.", "120")
    running = the_server()
    run("Say hello again.", "-1")  # as Ollama's keep_alive: the latest request's applies
    assert the_server().pid == running.pid
    assert "kept until `assistant models stop`" in run("", "-1", "models", "status")[0]
    check = doctor.check_embedded_server(load_settings())
    assert check.ok and f"pid {running.pid}" in check.detail and "loaded since" in check.detail
    out, _ = run("", "-1", "models", "stop")
    assert out.strip() == f"stopped the embedded {embedded.SMOLLM2} (pid {running.pid})"
    assert gone(running.pid, 15) and not shared.records()


def test_a_killed_server_is_noticed_and_replaced_by_the_next_command() -> None:
    require_embedded()
    run("Say hello.")
    killed = the_server()
    os.kill(killed.pid, signal.SIGKILL)
    assert gone(killed.pid, 10)
    out, err = run("Say hello again.")
    lines = [line for line in err.splitlines() if "stopped unexpectedly" in line]
    assert lines == [f"assistant: the embedded model's server (pid {killed.pid}) has stopped "
                     "unexpectedly; starting it again"], err
    assert "starting the embedded" not in err  # that one line, not two
    replaced = the_server()
    assert replaced.pid != killed.pid and replaced.port == killed.port and out.strip()


def test_a_program_that_stays_gets_its_killed_server_back_on_the_next_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Python API (as the daemon, the terminal and `serve`): the settings it holds stay
    valid, the server comes back on the same port with the same token."""
    require_embedded()
    from assistant.api import Assistant

    monkeypatch.setenv("OLLAMA_API_BASE", closed_port_url())
    with Assistant(embedded_model=embedded.SMOLLM2, max_tokens=12, journal=False,
                   embedded_keep_alive=120) as assistant:
        assert assistant.ask("Say hello.").strip()
        killed = the_server()
        os.kill(killed.pid, signal.SIGKILL)
        assert gone(killed.pid, 10)
        assert assistant.ask("Say hello again.").strip()
        assert f"the embedded model's server (pid {killed.pid}) has stopped unexpectedly; " \
               "starting it again" in assistant.notices
        assert the_server().pid != killed.pid
    assert the_server()  # the program's end leaves it to its keep-alive


def other_user() -> str:
    """A user of this machine who is not us (made once, as root)."""
    if os.getuid() != 0:
        lacking("a second user is needed: run as root, which creates one")
    known = subprocess.run(["id", "-u", OTHER_USER], capture_output=True, check=False)
    if known.returncode != 0:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                        OTHER_USER], check=True, capture_output=True)
    return OTHER_USER


PROBE = """
import sys, urllib.request, urllib.error
record, token, url = sys.argv[1:]
for name, path in (("record", record), ("token", token)):
    try:
        open(path).read()
        print(name, "read")
    except OSError as exc:
        print(name, type(exc).__name__)
for key in ("", "guessed"):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = "Bearer " + key
    request = urllib.request.Request(url + "/v1/chat/completions", method="POST",
        data=b'{"messages": [{"role": "user", "content": "hi"}]}', headers=headers)
    try:
        urllib.request.urlopen(request, timeout=30)
        print("chat answered")
    except urllib.error.HTTPError as exc:
        print("chat", exc.code)
"""


def test_another_user_can_neither_read_the_token_nor_use_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    require_embedded()
    user = other_user()
    parent = Path(tempfile.mkdtemp(prefix="assistant-shared-"))  # others may pass through it
    parent.chmod(0o755)
    monkeypatch.setenv("ASSISTANT_RUNTIME_DIR", str(parent / "run"))
    try:
        run("Say hello.")
        running = the_server()
        token = running.record.parent / shared.TOKEN_FILE
        probe = subprocess.run(["/usr/bin/python3", "-c", PROBE, str(running.record), str(token),
                                running.url], user=user, cwd="/", capture_output=True, text=True,
                               timeout=60, check=False)
        assert probe.stdout.split("\n")[:4] == [
            "record PermissionError", "token PermissionError", "chat 401", "chat 401"], probe
        out, _ = run("Say hello again.")  # while we still can
        assert out.strip()
    finally:
        for running in shared.records():
            shared.stop(running)
        subprocess.run(["rm", "-rf", str(parent)], check=False)
