"""A tool call in the web page's API (`assistant serve`): the proposal event names the tool
and its source, a decision through the API runs it, and the answer comes back as output."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.integration.web.conftest import serve, stop
from tests.integration.web.test_api import decide
from tests.support.llm_server import LLMServer, raw_tool_call, text
from tests.support.mcp_server import config_toml, stdio_config


def test_a_tool_call_is_proposed_decided_and_run_through_the_api(
    server: LLMServer, tmp_path: Path
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "todo.txt").write_text("call the plumber")
    Path(os.environ["ASSISTANT_CONFIG_DIR"], "config.toml").write_text(
        config_toml({"notes": stdio_config(notes)}))
    server.add(raw_tool_call('{"name": "todo.txt"}', name="notes__read_note"),
               text("Call the plumber."))
    served = serve(server, tmp_path)
    try:
        turn = served.start_turn("what is on my todo list?")
        proposal = served.events(turn, until="proposal")[-1]
        assert (proposal["language"], proposal["tool"], proposal["risk"]) == (
            "notes.read_note", "mcp:notes", "low")
        assert json.loads(proposal["code"]) == {"name": "todo.txt"}
        assert decide(served, proposal, approved=True)["approved"]
        events = served.events(turn)
        run = next(e for e in events if e["kind"] == "run_end")
        assert run["exit_status"] == 0 and "call the plumber" in run["output"]
        assert '<tool_result untrusted="true">' in run["output"]
    finally:
        assert stop(served) == 0, served.log()
