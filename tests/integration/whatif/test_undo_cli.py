"""`assistant -y` runs a scripted proposal, then `assistant undo` puts the folder back:
real processes, real litellm against the scripted server, real namespaces."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.conftest import ROOT, cli_args
from tests.integration.whatif.corpus import ENTRIES, lay_out
from tests.support.folders import contents
from tests.support.llm_server import LLMServer, text, tool_call

SAMPLE = ("shell-move-logs", "py-unicode-names", "js-sort-by-extension")


def assistant(args: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=folder,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=180,
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("name", SAMPLE)
def test_yes_then_undo_restores_the_folder_byte_for_byte(name: str, tmp_path: Path) -> None:
    entry = next(e for e in ENTRIES if e["id"] == name)
    folder = tmp_path / "work"
    lay_out(entry, folder)
    before = contents(folder)
    with LLMServer([tool_call(entry["language"], entry["code"]), text("Done.")]) as server:
        ran = assistant(cli_args(server, "-y", "tidy up"), folder)
    assert ran.returncode == 0, ran.stderr
    assert "To take it back: assistant undo" in " ".join(ran.stdout.split())
    assert contents(folder) != before
    undone = assistant(["-m", "assistant.cli", "undo"], folder)
    assert undone.returncode == 0, undone.stderr
    assert undone.stdout.startswith("Undid run ")
    assert contents(folder) == before
    again = assistant(["-m", "assistant.cli", "undo"], folder)
    assert again.returncode == 1
    assert again.stderr.strip() == "assistant undo: there is no run to undo"


def test_undo_refuses_in_one_line_when_a_file_changed_since(tmp_path: Path) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "a.log").write_text("first\n")
    with LLMServer([tool_call("shell", "mkdir old && mv a.log old/"), text("Done.")]) as server:
        assert assistant(cli_args(server, "-y", "tidy up"), folder).returncode == 0
    (folder / "old" / "a.log").write_text("edited since\n")
    after = contents(folder)
    listed = assistant(["-m", "assistant.cli", "undo", "--list", "--json"], folder)
    runs = json.loads(listed.stdout)
    assert [run["summary"] for run in runs] == ["Moves 1 file (a.log) into a new folder, old."]
    refused = assistant(["-m", "assistant.cli", "undo", runs[0]["run"]], folder)
    assert refused.returncode == 1
    assert refused.stderr.count("\n") == 1
    assert "old/a.log changed since run" in refused.stderr
    assert contents(folder) == after
