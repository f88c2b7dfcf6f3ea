"""The `assistant` command as a person meets it: a real process on a pseudo-terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from assistant.config import load_settings
from assistant.servers import embedded, shared
from tests.integration.conftest import ROOT, cli_args, spawn
from tests.support.llm_server import (
    LLMServer,
    closed_port_url,
    error,
    hang,
    malformed,
    text,
    tool_call,
)
from tests.support.require import require

PROMPT = r"\[y\]es"


def run_cli(
    args: list[str], stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """The CLI without a terminal, as a script or CI would call it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=timeout, start_new_session=True)


def history(conversation: str | None = None) -> dict | list:
    args = ["-m", "assistant.cli", "history", *([conversation] if conversation else []), "--json"]
    result = run_cli(args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_approve_shell_and_python_then_answer_and_history(server: LLMServer) -> None:
    server.add(
        tool_call("shell", "echo shell-says-hi", text="First the shell."),
        tool_call("python", "print(sum(range(10)))"),
        text("The shell greeted and the sum is 45."),
    )
    child = spawn(cli_args(server, "greet and add"))
    child.expect("First the shell.")
    child.expect(PROMPT)
    child.sendline("y")
    child.expect("shell-says-hi")
    child.expect(PROMPT)
    child.sendline("y")
    child.expect("45")
    child.expect("The shell greeted and the sum is 45.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    fed_back = [m for m in server.chat_requests[2].body["messages"] if m["role"] == "tool"]
    assert "shell-says-hi" in fed_back[0]["content"] and "45" in fed_back[1]["content"]
    listed = history()
    assert listed[0]["title"] == "greet and add"
    shown = history(listed[0]["id"])
    decisions = [r for r in shown["records"] if r["kind"] == "approval"]
    assert [d["decided_by"] for d in decisions] == ["user", "user"]


def test_decline_tells_the_llm(server: LLMServer, tmp_path: Path) -> None:
    marker = tmp_path / "made"
    server.add(tool_call("shell", f"touch {marker}"), text("Fine, I left it alone."))
    child = spawn(cli_args(server, "make a file"))
    child.expect(PROMPT)
    child.sendline("n")
    child.expect("Fine, I left it alone.")
    child.expect(pexpect.EOF)
    assert not marker.exists()
    told = server.chat_requests[1].body["messages"][-1]
    assert told["role"] == "tool" and "declined" in told["content"]


def test_edit_runs_edited_code_and_journal_keeps_both(server: LLMServer, tmp_path: Path) -> None:
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\nsed -i 's/original/edited/' \"$1\"\n")
    editor.chmod(0o755)
    server.add(tool_call("python", "print('original')"), text("ok"))
    child = spawn(cli_args(server, "print it"), env={"EDITOR": str(editor)})
    child.expect(PROMPT)
    child.sendline("e")
    child.expect("edited")
    child.expect("ok")
    child.expect(pexpect.EOF)
    tool_message = server.chat_requests[1].body["messages"][-1]
    assert "Output:\n```\nedited\n```" in tool_message["content"]
    records = history(history()[0]["id"])["records"]
    assert next(r for r in records if r["kind"] == "proposal")["code"] == "print('original')"
    assert next(r for r in records if r["kind"] == "approval")["code"] == "print('edited')"


def test_always_skips_the_prompt_for_identical_code(server: LLMServer) -> None:
    server.add(tool_call("shell", "echo same"), tool_call("shell", "echo same"),
               tool_call("shell", "echo other"), text("all done"))
    child = spawn(cli_args(server, "repeat"))
    child.expect(PROMPT)
    child.sendline("a")
    child.expect(PROMPT)
    before = child.before
    assert before.count("same") >= 2 and "other" in before
    child.sendline("y")
    child.expect("all done")
    child.expect(pexpect.EOF)


def test_auto_run_with_piped_stdin_needs_no_terminal(server: LLMServer) -> None:
    server.add(tool_call("shell", "wc -w"), text("counted"))
    result = run_cli(cli_args(server, "-y", "count the words below"), stdin="alpha beta gamma\n")
    assert result.returncode == 0, result.stderr
    assert "counted" in result.stdout
    sent = server.chat_requests[0].body["messages"][-1]["content"]
    assert "count the words below" in sent and "alpha beta gamma" in sent


def test_without_terminal_or_yes_nothing_runs(server: LLMServer, tmp_path: Path) -> None:
    marker = tmp_path / "made"
    server.add(tool_call("shell", f"touch {marker}"), text("skipped"))
    result = run_cli(cli_args(server, "make it"))
    assert result.returncode == 0
    assert not marker.exists()
    assert "use -y to auto-run" in result.stdout


def test_ctrl_c_stops_the_run_not_the_assistant(server: LLMServer) -> None:
    server.add(
        tool_call("python", "import time\nx = 7\nprint('sleeping', flush=True)\ntime.sleep(60)"),
        tool_call("python", "print(x * 6)"),
        text("x survived"),
    )
    child = spawn(cli_args(server))
    child.expect("> ")
    child.sendline("sleep a while")
    child.expect(PROMPT)
    child.sendline("y")
    child.expect("sleeping")
    child.sendcontrol("c")
    child.expect("interrupted")
    child.expect("> ")
    child.sendline("is x still there")
    child.expect(PROMPT)
    child.sendline("y")
    child.expect("42")
    child.expect("x survived")
    child.expect("> ")
    child.sendcontrol("c")
    child.expect("again to exit")
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_while_the_llm_hangs_returns_to_the_prompt(server: LLMServer) -> None:
    server.add(hang(), text("back again"))
    child = spawn(cli_args(server))
    child.expect("> ")
    child.sendline("hello?")
    deadline = time.monotonic() + 15
    while not server.chat_requests and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.chat_requests, "the request never reached the server"
    started = time.monotonic()
    child.sendcontrol("c")
    child.expect("stopping")
    child.expect("> ")
    assert time.monotonic() - started < 5
    child.sendline("are you there")
    child.expect("back again")
    child.sendeof()
    child.expect(pexpect.EOF)


def test_ctrl_d_right_after_the_first_answer_exits(server: LLMServer) -> None:
    """The warm-up may still be importing then (it hung the exit in about one run of three)."""
    server.add(text("hi there"))
    child = spawn(cli_args(server), timeout=30)
    child.expect("> ")
    child.sendline("hello")
    child.expect("hi there")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_timeout_stops_a_long_run(server: LLMServer) -> None:
    server.add(tool_call("shell", "sleep 30"), text("too slow"))
    # its preview ran out of time too, so even under -y the person says yes
    child = spawn(cli_args(server, "-y", "--timeout", "1", "wait"))
    child.expect(PROMPT)
    child.sendline("y")
    child.expect("time limit")
    child.expect(pexpect.EOF)
    assert "exceeded the time limit" in server.chat_requests[1].body["messages"][-1]["content"]


def test_program_waiting_on_stdin_is_surfaced(server: LLMServer) -> None:
    server.add(tool_call("python", "name = input('name? ')"), text("I will not ask."))
    result = run_cli(cli_args(server, "-y", "ask my name"))
    assert "waited for input" in " ".join(result.stdout.split())  # its preview says so first
    assert "waited for input" in server.chat_requests[1].body["messages"][-1]["content"]


def test_missing_node_is_explained(server: LLMServer, tmp_path: Path) -> None:
    server.add(tool_call("javascript", "console.log(1)"), text("no node then"))
    env_path = tmp_path / "bin"
    env_path.mkdir()
    # with no node there is no preview: even under -y the person says yes
    child = spawn(cli_args(server, "-y", "js please"), env={"PATH": str(env_path)})
    child.expect(PROMPT)
    child.sendline("y")
    child.expect("Node.js")
    child.expect(pexpect.EOF)
    told = server.chat_requests[1].body["messages"][-1]["content"]
    assert "Node.js" in told


def test_llm_down_is_one_line() -> None:
    result = run_cli(["-m", "assistant.cli", "--model", "openai/gpt-4o-mini", "--api-base",
                      closed_port_url() + "/v1", "--api-key", "k", "hello"])
    assert result.returncode == 1
    assert "Cannot reach" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_llm_500_and_malformed_stream_are_errors_not_tracebacks(server: LLMServer) -> None:
    server.add(error(500, "kaput"), error(500, "kaput"), error(500, "kaput"), malformed())
    first = run_cli(cli_args(server, "hello"))
    second = run_cli(cli_args(server, "hello"))
    for result in (first, second):
        assert result.returncode == 1
        assert "error:" in result.stdout
        assert "Traceback" not in result.stdout + result.stderr


def test_no_model_says_how_to_choose_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSISTANT_EMBEDDED", "0")  # else the embedded demo model starts
    result = run_cli(["-m", "assistant.cli", "hello"])
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "--model" in result.stderr and "config.toml" in result.stderr


def test_malformed_config_is_one_line(isolated_dirs: Path) -> None:
    (isolated_dirs / "config" / "config.toml").write_text("model = \n")
    result = run_cli(["-m", "assistant.cli", "hello"])
    assert result.returncode == 2
    assert "config.toml" in result.stderr and "line 1" in result.stderr
    assert "Traceback" not in result.stderr


def test_resume_continues_the_latest_conversation(server: LLMServer) -> None:
    server.add(text("Noted: your name is Ada."), text("You are Ada."))
    assert run_cli(cli_args(server, "my name is Ada")).returncode == 0
    result = run_cli(cli_args(server, "--resume", "who am I"))
    assert "You are Ada." in result.stdout
    sent = [m["content"] for m in server.chat_requests[1].body["messages"]]
    assert "my name is Ada" in sent and "who am I" in sent
    assert history()[0]["turns"] == 2


def test_help_does_not_import_heavy_modules() -> None:
    code = ("import sys, contextlib, io\nfrom assistant import cli\n"
            "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
            "    cli.main(['--help'])\n"
            "heavy = [m for m in ('litellm', 'rich', 'faster_whisper', 'pyautogui', 'tkinter')"
            " if m in sys.modules]\nprint(heavy)")
    result = run_cli(["-c", code])
    assert result.stdout.strip() == "[]", result.stdout + result.stderr


# What only a reply needs; a command to the kept embedded server sends its request first.
AFTER_THE_REQUEST = ("assistant.safety.risk", "assistant.safety.shell_risk",
                     "assistant.safety.python_risk", "assistant.safety.js_risk",
                     "assistant.loop.act", "assistant.actions.pipeline", "assistant.checks.reply",
                     "assistant.checks.answers", "assistant.whatif.preview",
                     "asyncio", "rich.syntax", "pygments", "litellm")


def stand_in_for_the_shared_server(server: LLMServer, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> subprocess.Popen[bytes]:
    """Make the scripted server the user's kept embedded server: a record in the runtime
    folder naming its port and weights (an empty .gguf set as ASSISTANT_EMBEDDED_MODEL),
    and its status naming the record's pid, a process that lives while the test does.
    Returns that process, for the test to end."""
    weights = tmp_path / "stand-in.gguf"
    weights.write_bytes(b"GGUF")
    monkeypatch.setenv("ASSISTANT_EMBEDDED_MODEL", str(weights))
    model = embedded.chosen(load_settings())
    holder = subprocess.Popen(["sleep", "600"])
    server.status = {"pid": holder.pid}
    record = {"pid": holder.pid, "port": int(server.url.rsplit(":", 1)[1]), "model": model.name,
              "path": str(model.path), "n_ctx": model.n_ctx, "keep_alive": 300,
              "started": time.time()}
    shared.token()
    shared.record_path(model.name).write_text(json.dumps(record))
    return holder


def test_a_command_to_the_kept_embedded_server_asks_before_loading_what_a_reply_needs(
        server: LLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The risk check's checkers, acting on calls, the reply checks, asyncio and pygments
    load only once a reply is in (the risk check still rates every proposal before it can
    run): what was imported when the request reached the server is what the first word
    waited for."""
    require(not embedded.server_missing(), "the embedded server's packages are not installed")
    holder = stand_in_for_the_shared_server(server, tmp_path, monkeypatch)
    server.add(hang())
    imports = tmp_path / "imports"
    try:
        with imports.open("wb") as err:
            command = subprocess.Popen(
                [sys.executable, "-m", "assistant.cli", "-y", "How many legs do spiders have?"],
                env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONPROFILEIMPORTTIME": "1"},
                cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
            deadline = time.monotonic() + 60
            while not server.chat_requests and command.poll() is None:
                assert time.monotonic() < deadline, "the request never reached the server"
                time.sleep(0.02)
            command.kill()  # it waits for the first word; what it imported is on record
            command.wait()
    finally:
        holder.kill()
        holder.wait()
    said = imports.read_text()
    assert server.chat_requests, said[-2000:]
    loaded = {line.rsplit("|", 1)[-1].strip() for line in said.splitlines()
              if line.startswith("import time:")}
    assert {"assistant.llm.direct", "assistant.api", "assistant.safety.policy"} <= loaded, said
    assert [name for name in AFTER_THE_REQUEST if name in loaded] == []


def test_flags_reach_the_request_and_the_journal(server: LLMServer, isolated_dirs: Path) -> None:
    profiles = isolated_dirs / "config" / "profiles"
    profiles.mkdir()
    (profiles / "terse.toml").write_text('system_message = "Answer in five words."\n')
    server.add(tool_call("python", "print('x' * 5000)"), text("Printed many x."))
    result = run_cli(cli_args(server, "-y", "--profile", "terse", "--max-output", "200",
                          "--no-journal", "print x"))
    assert result.returncode == 0, result.stderr
    system = server.chat_requests[0].body["messages"][0]["content"]
    assert system.startswith("Answer in five words.")
    fed_back = server.chat_requests[1].body["messages"][-1]["content"]
    assert len(fed_back) < 400 and "characters cut" in fed_back
    assert history() == []
    server.add(text("ok"))
    run_cli(cli_args(server, "--system-message", "Be brief.", "hi"))
    assert server.chat_requests[2].body["messages"][0]["content"].startswith("Be brief.")


def test_kill_9_mid_run_loses_nothing_and_leaves_no_runaway(server: LLMServer) -> None:
    server.add(
        tool_call("python", "import os, time\nprint('runtime', os.getpid(), flush=True)\n"
                            "time.sleep(120)"),
        text("You asked me to wait before."),
    )
    child = spawn(cli_args(server, "-y", "wait for two minutes"))
    child.expect(PROMPT)  # its preview ran out of time: even under -y the person says yes
    child.sendline("y")
    child.expect(r"runtime (\d+)")
    runtime_pid = int(child.match.group(1))
    os.kill(child.pid, 9)
    child.expect(pexpect.EOF)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{runtime_pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(f"/proc/{runtime_pid}").exists(), "the run outlived the assistant"
    records = history(history()[0]["id"])["records"]
    kinds = [r["kind"] for r in records if r["kind"] != "usage"]
    assert kinds[:4] == ["user", "assistant", "proposal", "approval"]
    result = run_cli(cli_args(server, "--resume", "what was I doing?"))
    assert "You asked me to wait before." in result.stdout, result.stderr
    sent = [m.get("content") for m in server.chat_requests[-1].body["messages"]]
    assert "wait for two minutes" in sent and "what was I doing?" in sent
