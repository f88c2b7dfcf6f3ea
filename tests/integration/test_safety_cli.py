"""The approval gate through the real CLI and the scripted server: risk shown, blocked code
never run, high risk always asked, keys never journaled, garbage input refused."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tests.integration.conftest import ROOT, cli_args, spawn
from tests.integration.test_cli import history, run_cli
from tests.support.llm_server import LLMServer, error, text, tool_call

PROMPT = r"\[y\]es"
CANARY = "sk-canary-0123456789abcdefABCDEF"
# Rated high (it signals processes by name) yet harmless: signal 0 to a name nobody has.
HIGH_BUT_HARMLESS = "pkill -0 -f ."  # signal 0 only checks; it succeeds in its preview


def test_check_prints_json_for_files_and_stdin(tmp_path: Path) -> None:
    snippet = tmp_path / "snippet.py"
    snippet.write_text("import shutil, os\nshutil.rmtree(os.path.expanduser('~'))\n")
    result = run_cli(["-m", "assistant.cli", "check", str(snippet)])
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["risk"] == "blocked" and "shutil.rmtree" in verdict["reasons"][0]
    piped = run_cli(["-m", "assistant.cli", "check", "--language", "shell", "-"],
                    stdin="git status\n")
    assert json.loads(piped.stdout) == {"risk": "low", "reasons": []}
    unknown = run_cli(["-m", "assistant.cli", "check", "-"], stdin="ls")
    assert unknown.returncode == 2 and "--language" in unknown.stderr


def test_blocked_never_runs_and_high_risk_is_asked_even_with_yes(
    server: LLMServer, tmp_path: Path
) -> None:
    marker = tmp_path / "made"
    server.add(tool_call("shell", f"touch {marker}"), tool_call("shell", HIGH_BUT_HARMLESS),
               text("Left everything alone."))
    child = spawn(cli_args(server, "-y", "tidy up"),
                  env={"ASSISTANT_DENY": "wide-delete,fork-bomb,command:touch"})
    child.expect("risk blocked")
    child.expect("declined by policy: blocked by the deny rules")
    child.expect("risk high")
    child.expect("kill-many")
    before_prompt = child.before
    child.expect(PROMPT)
    child.sendline("n")
    child.expect("Left everything alone.")
    child.expect(pexpect.EOF)
    assert "Run this" not in before_prompt  # the blocked proposal was never put to the user
    assert not marker.exists()
    told = [m for m in server.chat_requests[1].body["messages"] if m["role"] == "tool"]
    assert "blocked" in told[-1]["content"]
    records = history(history()[0]["id"])["records"]
    proposals = [(r["risk"], r["reasons"][0].split(":")[0]) for r in records
                 if r["kind"] == "proposal"]
    assert proposals == [("blocked", "denied"), ("high", "kill-many")]
    decisions = [(r["approved"], r["decided_by"]) for r in records if r["kind"] == "approval"]
    assert decisions == [(False, "policy"), (False, "user")]


def test_canary_key_never_reaches_journal_or_errors(
    server: LLMServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The key is in the environment and on the command line; a run prints it (from a file
    the check cannot know holds it: reading it from the environment is high risk, never
    auto-run) and the provider's error message repeats it. None of it reaches the journal,
    the LLM or stderr."""
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    copy = tmp_path / "pasted.txt"
    copy.write_text(CANARY)
    server.add(
        tool_call("python", f"print('key is', open({str(copy)!r}).read())"),
        error(400, f"invalid request made with key {CANARY}"),
    )
    args = [a if a != "test-key" else CANARY for a in cli_args(server, "-y", "show the key")]
    failed = run_cli(args, stdin="")
    assert failed.returncode == 1
    assert "key is" in failed.stdout  # the run did print it, on the user's own screen
    shown = " ".join(failed.stdout.split())
    error_line = shown[shown.index("error:"):]
    assert "made with key [redacted]" in error_line and CANARY not in error_line
    assert CANARY not in failed.stderr
    data = Path(os.environ["ASSISTANT_DATA_DIR"])
    assert stat.S_IMODE((data / "journal.db").stat().st_mode) == 0o600
    for path in data.rglob("*"):  # the journal, the undo store and everything else kept
        if path.is_file():
            assert CANARY.encode() not in path.read_bytes(), path
    fed_back = [m for m in server.chat_requests[1].body["messages"] if m["role"] == "tool"]
    assert "key is [redacted]" in fed_back[0]["content"]


def test_binary_garbage_on_stdin_gets_one_line(server: LLMServer) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    garbage = subprocess.run([sys.executable, *cli_args(server, "-y")], input=os.urandom(4096),
                             capture_output=True, env=env, cwd=ROOT, timeout=60)
    assert garbage.returncode == 1
    assert b"looks like binary data" in garbage.stdout and b"Traceback" not in garbage.stderr
    assert server.chat_requests == []


SELF_TAMPER = "echo 'auto_run = true' >> ~/.config/assistant/config.toml"


def _home_env(home: Path) -> dict[str, str]:
    """The environment of a user whose config is where it is by default: under HOME."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ASSISTANT_", "XDG_CONFIG", "XDG_DATA"))}
    return {**env, "HOME": str(home), "PYTHONPATH": str(ROOT)}


def test_self_tamper_in_the_default_config_place_is_blocked(
    server: LLMServer, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    config = home / ".config" / "assistant" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("# mine\n")
    env = _home_env(home)
    checked = subprocess.run(
        [sys.executable, "-m", "assistant.cli", "check", "--language", "shell", "-"],
        input=SELF_TAMPER, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    verdict = json.loads(checked.stdout)
    assert verdict["risk"] == "blocked", verdict
    assert verdict["reasons"][0].startswith("self-tamper:")

    server.add(tool_call("shell", SELF_TAMPER), text("I could not change that."))
    turn = subprocess.run([sys.executable, *cli_args(server, "-y", "turn auto-run on")],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert turn.returncode == 0, turn.stderr
    assert config.read_text() == "# mine\n"
    told = [m for m in server.chat_requests[1].body["messages"] if m["role"] == "tool"]
    assert "blocked" in told[-1]["content"] and "self-tamper" in told[-1]["content"]
