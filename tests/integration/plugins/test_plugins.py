"""Plugins installed with pip (the example package in tests/plugins, which
./scripts/setup --test installs): a tool, a language, speech engines and a command, with
no change to the package; a plugin that fails to load is one line and skipped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant import Assistant
from assistant.events import Approval, Proposal, RunEnd, TurnEnd
from assistant.plugins.registry import installed
from tests.integration.conftest import ROOT
from tests.support.llm_server import LLMServer, raw_tool_call, text, tool_call
from tests.support.require import require


@pytest.fixture(autouse=True)
def example_plugin() -> None:
    names = [plugin.name for plugin in installed().loaded]
    require("example" in names, "the example plugin is not installed (./scripts/setup --test "
            "installs tests/plugins/example)")


def assistant_cli(*args: str, env: dict[str, str] | None = None
                  ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, env=env)


def make(server: LLMServer, **kwargs: object) -> Assistant:
    return Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                     code_style="tools", **kwargs)


def test_plugins_lists_what_the_example_adds() -> None:
    shown = assistant_cli("plugins", "--json")
    plugins = {p["name"]: p for p in json.loads(shown.stdout)["plugins"]}
    assert plugins["example"]["package"] == "assistant-example-plugin"
    assert plugins["example"]["adds"] == [
        "language sql", "tool example.word_count", "tts engine beep", "stt engine seconds",
        "command example-hello"]
    listed = {row["name"]: row for row in json.loads(assistant_cli("tools", "--json").stdout)}
    assert listed["example.word_count"] == {"name": "example.word_count",
                                            "source": "plugin:example", "risk": "low",
                                            "description": "Count the words in a text."}


def test_a_plugin_that_fails_to_import_is_one_line_and_skipped(tmp_path: Path) -> None:
    """A real installed distribution (its metadata on the path) whose module raises."""
    info = tmp_path / "broken_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[assistant]\nbroken = broken_plugin\n")
    (tmp_path / "broken_plugin.py").write_text("import no_such_library_zz\n")
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}:{ROOT}"}
    shown = assistant_cli("plugins", env=env)
    assert shown.returncode == 0
    assert shown.stderr.splitlines() == [
        "assistant plugins: plugin broken (broken-plugin) was skipped: it failed to load "
        "(ModuleNotFoundError: No module named 'no_such_library_zz')"]
    assert shown.stdout.startswith("example  assistant-example-plugin 1.0.0")
    hello = assistant_cli("example-hello", "Ada", env=env)
    assert hello.stdout == "hello from the example plugin Ada\n"


def test_the_plugins_tool_runs_through_the_gate_in_a_turn(server: LLMServer) -> None:
    server.add(raw_tool_call('{"text": "one two three"}', name="example__word_count"),
               text("Three words."))
    with make(server, approval="auto") as assistant:
        events = list(assistant.turn("count the words in: one two three"))
    [proposal] = [e for e in events if isinstance(e, Proposal)]
    assert (proposal.language, proposal.tool, proposal.risk) == (
        "example.word_count", "plugin:example", "low")
    [approval] = [e for e in events if isinstance(e, Approval)]
    assert (approval.approved, approval.decided_by) == (True, "policy")
    told = [m for m in server.chat_requests[1].body["messages"] if m["role"] == "tool"]
    assert '<tool_result untrusted="true">\n3 words\n</tool_result>' in told[0]["content"]
    assert isinstance(events[-1], TurnEnd) and events[-1].text == "Three words."


def test_the_plugins_language_is_offered_asked_for_and_run(server: LLMServer) -> None:
    """Code in a plugin's language cannot be read by the risk check: a person is asked."""
    server.add(tool_call("sql", "create table t(n); insert into t values (20), (22);"
                                "select sum(n) from t"), text("42."))
    asked: list[str] = []

    def person(proposal: Proposal) -> bool:
        asked.append(f"{proposal.language} {proposal.risk}")
        return True

    with make(server, approval="auto", approver=person) as assistant:
        events = list(assistant.turn("add 20 and 22 in SQL"))
    assert asked == ["sql medium"]
    [end] = [e for e in events if isinstance(e, RunEnd)]
    assert (end.exit_status, end.output) == (0, "42\n")
    request = server.chat_requests[0].body
    execute = request["tools"][0]["function"]["parameters"]["properties"]["language"]
    assert "sql" in execute["enum"]
    assert "Languages available: python, shell" in request["messages"][0]["content"]
    assert ", sql" in request["messages"][0]["content"]


def test_the_plugins_speech_engines_speak_and_hear(tmp_path: Path) -> None:
    wav = tmp_path / "beeps.wav"
    said = assistant_cli("say", "one two three four", "--engine", "beep", "--out", str(wav))
    assert said.returncode == 0, said.stderr
    heard = assistant_cli("transcribe", str(wav), "--model", "seconds", "--json")
    assert json.loads(heard.stdout)["text"] == "0.4 seconds of sound"
