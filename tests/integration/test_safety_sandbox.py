"""The sandbox, the approval flag and live redaction through the real CLI and real processes:
runs confined by bubblewrap, a clear refusal where it cannot work, no runtime outliving a
killed host, the desktop reachable from inside, and secrets masked on screen."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from assistant.commands.doctor import check_sandbox
from assistant.config import load_settings
from tests.integration.conftest import ROOT, cli_args, spawn
from tests.integration.test_cli import PROMPT, run_cli
from tests.integration.test_safety_cli import CANARY
from tests.support.llm_server import LLMServer, text, tool_call
from tests.support.require import lacking, require
from tests.unit.runtime.test_sandbox import require_sandbox

NO_USER_NAMESPACES = (
    "echo 1 > /proc/sys/user/max_user_namespaces && exec unshare --user \"$@\""
)
"""Run a command where no user namespace can be created: the outer namespace allows one
(the inner `unshare`), so bwrap's own attempt fails as on a machine that forbids them."""


def without_user_namespaces(argv: list[str]) -> subprocess.CompletedProcess[str]:
    wrapped = ["unshare", "--user", "--map-root-user", "sh", "-c", NO_USER_NAMESPACES, "sh",
               *argv]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(wrapped, capture_output=True, text=True, env=env, cwd=ROOT,
                            timeout=60, stdin=subprocess.DEVNULL)
    if any(sign in result.stderr for sign in ("unshare failed", "cannot create")):
        lacking(f"cannot make a user namespace to remove them from: {result.stderr.strip()}")
    return result


def test_approval_flag_never_proposes_only(server: LLMServer, tmp_path: Path) -> None:
    marker = tmp_path / "made"
    server.add(tool_call("python", f"open({str(marker)!r}, 'w')"), text("Proposed only."))
    result = run_cli(cli_args(server, "--approval", "never", "-y", "make a file"))
    assert result.returncode == 0, result.stderr
    assert "declined by policy: approval mode is never" in result.stdout
    assert not marker.exists()


def test_approval_auto_runs_low_risk_unasked_and_a_printed_key_is_masked_on_screen(
    server: LLMServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No terminal to ask, so only `--approval auto` lets it run; the run prints the canary
    key in two pieces (from a file: reading it from the environment is high risk, never
    auto-run), and the screen shows it masked."""
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    copy = tmp_path / "pasted.txt"
    copy.write_text(CANARY)
    slow_print = (f"import sys, time\nkey = open({str(copy)!r}).read()\n"
                  "sys.stdout.write('key is ' + key[:9]); sys.stdout.flush(); time.sleep(0.3)\n"
                  "print(key[9:] + ' end')")
    server.add(tool_call("python", slow_print), text("Done."))
    result = run_cli(cli_args(server, "--approval", "auto", "show the key"))
    assert result.returncode == 0, result.stderr
    assert "approved by policy: auto-run is on" in result.stdout
    assert "key is [redacted] end" in result.stdout
    assert CANARY[:9] not in result.stdout and CANARY not in result.stderr
    bad = run_cli(cli_args(server, "--approval", "sometimes", "x"))
    assert bad.returncode == 2 and "invalid choice: 'sometimes'" in bad.stderr


def test_cli_sandbox_confines_writes(server: LLMServer, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    require_sandbox()
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("ASSISTANT_SANDBOX_WRITABLE", str(work))
    monkeypatch.setenv("ASSISTANT_SANDBOX_NETWORK", "false")
    code = (f"open({str(work / 'ok.txt')!r}, 'w').write('in')\n"
            f"open({str(ROOT / 'sandbox-escape.txt')!r}, 'w')")
    server.add(tool_call("python", code), text("Tried both."))
    # the write its preview could not cover asks even under -y: the person says yes
    child = spawn(cli_args(server, "--sandbox", "-y", "write two files"))
    child.expect(PROMPT)
    child.sendline("y")
    child.expect("Tried both.")
    child.expect(pexpect.EOF)
    assert (work / "ok.txt").read_text() == "in"
    assert not (ROOT / "sandbox-escape.txt").exists()
    fed_back = [m for m in server.chat_requests[1].body["messages"] if m["role"] == "tool"]
    assert "Read-only file system" in fed_back[0]["content"]
    system = server.chat_requests[0].body["messages"][0]["content"]
    assert f"Runs are sandboxed: only {work} and a private /tmp are writable" in system
    assert "There is no network." in system


def test_cli_refuses_when_bwrap_is_missing(server: LLMServer, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH without bwrap (python is absolute)
    result = run_cli(cli_args(server, "--sandbox", "-y", "anything"))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "assistant: the sandbox needs bubblewrap, which is not installed: "
        "apt-get install bubblewrap (or run without --sandbox)"]
    assert server.chat_requests == []


def test_cli_refuses_without_user_namespaces(server: LLMServer) -> None:
    require_sandbox()
    result = without_user_namespaces([sys.executable, *cli_args(server, "--sandbox", "-y", "x")])
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1, result.stderr
    assert "does not allow user namespaces" in lines[0]
    assert "kernel.unprivileged_userns_clone=1" in lines[0]
    assert server.chat_requests == []


def test_runs_are_refused_without_user_namespaces_and_doctor_says_so() -> None:
    require_sandbox()
    program = (
        "from assistant.runtime import Runtimes\n"
        "from assistant.runtime.sandbox import Sandbox\n"
        "from assistant.commands.doctor import check_sandbox\n"
        "from assistant.config import load_settings\n"
        "with Runtimes(sandbox=Sandbox()) as rt:\n"
        "    end = list(rt.run('python', 'print(1)'))[-1]\n"
        "print(end.exit_status, end.output)\n"
        "print(check_sandbox(load_settings()))\n"
    )
    result = without_user_namespaces([sys.executable, "-c", program])
    assert result.returncode == 0, result.stderr
    refusal, doctor = result.stdout.strip().splitlines()
    assert refusal.startswith("None Not run: the sandbox cannot start: this system does not "
                              "allow user namespaces")
    assert "ok=False" in doctor and "does not allow user namespaces" in doctor


def test_doctor_reports_the_sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require_sandbox()
    monkeypatch.setenv("ASSISTANT_SANDBOX", "1")
    monkeypatch.setenv("ASSISTANT_SANDBOX_NETWORK", "0")
    monkeypatch.setenv("ASSISTANT_SANDBOX_WRITABLE", f"{tmp_path}:/srv")
    check = check_sandbox(load_settings())
    assert check.ok and check.detail == f"bwrap works; on; writable: {tmp_path}, /srv; network off"
    monkeypatch.setenv("PATH", str(tmp_path))
    missing = check_sandbox(load_settings())
    assert not missing.ok and missing.fix.endswith("apt-get install -y --no-install-recommends "
                                                   "bubblewrap")


def test_doctor_says_when_runs_can_reach_the_session_bus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An abstract bus cannot be hidden from the guard, and no proxy means no filter: each
    is one line; a bus on a socket file with the proxy at hand is not a problem."""
    require_sandbox()
    require(shutil.which("xdg-dbus-proxy"), "xdg-dbus-proxy is not installed")
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path}/bus")
    assert check_sandbox(load_settings()).ok
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:abstract=/tmp/dbus-x,guid=0")
    abstract = check_sandbox(load_settings())
    assert not abstract.ok and "not a socket file the guard can hide" in abstract.detail
    for program in ("bwrap", "true"):  # the probe's; not the proxy
        (tmp_path / program).symlink_to(str(shutil.which(program)))
    monkeypatch.setenv("PATH", str(tmp_path))
    missing = check_sandbox(load_settings())
    assert not missing.ok and "runs can reach the session bus" in missing.detail
    assert missing.fix.endswith("apt-get install -y --no-install-recommends xdg-dbus-proxy")


def test_killing_the_host_kills_the_sandboxed_runtime(tmp_path: Path) -> None:
    require_sandbox()
    host = (
        "import sys, time\n"
        "from assistant.runtime import Runtimes\n"
        "from assistant.runtime.sandbox import Sandbox\n"
        f"rt = Runtimes(cwd={str(tmp_path)!r}, sandbox=Sandbox())\n"
        "list(rt.run('shell', 'sleep 987.25 &'))\n"
        "print('ready', flush=True)\n"
        "time.sleep(60)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", host], stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT),
                                    "TMPDIR": str(tmp_path)},  # its scratch files stay here
                               cwd=ROOT)
    try:
        assert process.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 5  # the background sleep may start a moment later
        while not _pids_running("sleep\x00987.25") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_pids_running("sleep\x00987.25")) == 1
        process.send_signal(signal.SIGKILL)
        process.wait()
        deadline = time.monotonic() + 5
        while _pids_running("sleep\x00987.25") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _pids_running("sleep\x00987.25") == []
    finally:
        process.kill()
        process.wait()
        process.stdout.close()


def _pids_running(command: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "cmdline").read_text().startswith(command):
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_computer_reaches_the_display_from_inside(display: str, tmp_path: Path) -> None:
    """With the network off too: X is reached through its socket file, and a view taken
    inside lands in the folder the host reads views from."""
    require_sandbox()
    from assistant.runtime import Runtimes
    from assistant.runtime.sandbox import Sandbox

    views = tmp_path / "views"
    views.mkdir()
    env = {**os.environ, "ASSISTANT_VIEW_DIR": str(views), "DISPLAY": display}
    code = ("from assistant import computer\nprint(computer.display.size())\n"
            "computer.mouse.move(40, 30)\nimport pyautogui\nprint(tuple(pyautogui.position()))\n"
            "computer.display.view()")
    with Runtimes(timeout=60, cwd=str(tmp_path), env=env,
                  sandbox=Sandbox(network=False)) as runtimes:
        end = list(runtimes.run("python", code))[-1]
    assert end.exit_status == 0, end.output
    assert end.output.startswith("(1280, 800)\n(40, 30)\n[screen 1280x800"), end.output
    assert sorted(p.suffix for p in views.iterdir()) == [".json", ".png"]


def test_an_installation_under_tmp_still_runs_inside(tmp_path: Path) -> None:
    """The sandbox's private /tmp must not hide the interpreter the runtimes start: a
    checkout or virtual environment under /tmp (as a CI clone may be) works too."""
    require_sandbox()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=60)
    assert str(venv).startswith("/tmp/")
    program = (
        "import sys\n"
        "from assistant.runtime import Runtimes\n"
        "from assistant.runtime.sandbox import Sandbox\n"
        "with Runtimes(sandbox=Sandbox()) as rt:\n"
        "    end = list(rt.run('python', 'import sys; print(sys.prefix)'))[-1]\n"
        "print(end.exit_status, end.output.strip())\n"
    )
    work = tmp_path / "work"  # the runs' folder, which is bound: not the one above venv
    work.mkdir()
    result = subprocess.run([str(venv / "bin" / "python"), "-c", program], cwd=work,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                            text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"0 {venv}"
