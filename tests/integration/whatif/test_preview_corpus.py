"""`assistant preview --json` on every snippet of the blind everyday corpus: the effect's
sets match what was written down before the preview existed, and the real folder is
byte for byte as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import ROOT
from tests.integration.whatif.corpus import ENTRIES, as_sets, lay_out
from tests.support.folders import contents


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_preview_reports_the_effect_written_blind_and_changes_nothing(
        entry: dict[str, Any], tmp_path: Path) -> None:
    folder = tmp_path / "work"
    lay_out(entry, folder)
    before = contents(folder)
    result = subprocess.run(
        [sys.executable, "-m", "assistant.cli", "preview", "--json",
         "--language", entry["language"], "-"],
        input=entry["code"], capture_output=True, text=True, cwd=folder, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr + result.stdout
    effect = json.loads(result.stdout)
    assert effect["unpreviewable"] == []
    assert as_sets(effect) == as_sets(entry["expect"]), effect["output"]
    assert contents(folder) == before
