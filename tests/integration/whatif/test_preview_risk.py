"""`assistant preview --json` rates code by its effect too: a loop that deletes twelve
files reads as an everyday loop to the static check, and as high risk from its preview."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.integration.conftest import ROOT


def test_preview_json_rates_a_loop_deleting_twelve_files_high_and_changes_nothing(
        tmp_path: Path, isolated_dirs: Path) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    for n in range(12):
        (folder / f"{n}.log").write_text("x")
    code = "import os\nfor name in os.listdir('.'):\n    os.remove(name)\n"
    result = subprocess.run(
        [sys.executable, "-m", "assistant.cli", "preview", "--json", "--language", "python",
         "-"], input=code, capture_output=True, text=True, cwd=folder, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr + result.stdout
    effect = json.loads(result.stdout)
    assert effect["risk"] == "high"
    assert len(effect["deleted"]) == 12
    assert len(list(folder.iterdir())) == 12
