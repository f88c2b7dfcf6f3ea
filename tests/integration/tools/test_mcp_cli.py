"""A typed turn in the terminal uses an MCP tool from config.toml: the person is asked in
words that name the tool, answers on a real pseudo-terminal, and the journal keeps it all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pexpect

from tests.integration.conftest import ROOT, cli_args, spawn
from tests.support.llm_server import LLMServer, raw_tool_call, text
from tests.support.mcp_server import config_toml, stdio_config


def write_config(notes: Path) -> None:
    Path(os.environ["ASSISTANT_CONFIG_DIR"], "config.toml").write_text(
        config_toml({"notes": stdio_config(notes)}))


def test_a_typed_turn_asks_before_a_tool_call_and_the_journal_shows_it(
    server: LLMServer, tmp_path: Path
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "old.txt").write_text("x")
    write_config(notes)
    server.add(raw_tool_call('{"name": "old.txt"}', name="notes__delete_note"),
               text("Deleted old.txt."))
    child = spawn(cli_args(server, "delete my old note"))
    child.expect("notes.delete_note · risk high")
    child.expect(r"Call notes\.delete_note\? ")
    child.sendline("y")
    child.expect("deleted old.txt")
    child.expect("Deleted old.txt.")
    child.expect(pexpect.EOF)
    assert not (notes / "old.txt").exists()
    shown = subprocess.run([sys.executable, "-m", "assistant.cli", "history", "--json"],
                           capture_output=True, text=True, cwd=ROOT, check=True).stdout
    latest = json.loads(shown)[0]["id"]
    one = subprocess.run([sys.executable, "-m", "assistant.cli", "history", latest, "--json"],
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout
    records = json.loads(one)["records"]
    proposal = next(r for r in records if r["kind"] == "proposal")
    approval = next(r for r in records if r["kind"] == "approval")
    assert (proposal["language"], proposal["tool"], proposal["risk"]) == (
        "notes.delete_note", "mcp:notes", "high")
    assert (approval["approved"], approval["decided_by"]) == (True, "user")
