"""The task runner's turn of ours against the scripted model: at its time limit the turn is
stopped as a person stops one, and ends in words that say what ran."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.tasks import run as tasks_run
from tests.integration.conftest import MODEL
from tests.support.llm_server import LLMServer, tool_call


def test_a_turn_at_its_time_limit_is_stopped_and_ends_in_words_that_name_the_unfinished_run(
        server: LLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import litellm  # noqa: F401 - loaded before the limit's clock starts, as a warm process has it

    server.add(tool_call("python", "import time\nprint('counting sheep', flush=True)\n"
                                   "time.sleep(120)", text="I will count."))
    folder = tmp_path / "work"
    tasks_run.lay_out(folder, {"a.txt": "a"})
    monkeypatch.chdir(folder)
    log = tmp_path / "events.jsonl"
    tasks_run.ours_in_process({
        "settings": {"model": MODEL, "api_base": server.openai_url, "api_key": "k",
                     "code_style": "tools", "undo": False},
        "request": "count the sheep", "log": str(log), "limit_s": 3})
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert any(r.get("proposal") == "python" for r in records), records
    end = records[-1]
    assert end["end"] and end["reason"] == "interrupted"
    assert end["answer"].startswith(
        "1 run in this turn; the last was stopped before it finished: "), records
    assert 3 <= end["seconds"] < 20
