"""A configured MCP server over stdio runs under the guard: pointed at the assistant's own
data folder, it sees it empty and can neither read the web token nor delete the journal.
The SDK's server over stdio, real bubblewrap, real litellm against the scripted server."""

from __future__ import annotations

import json
import os
from pathlib import Path

from assistant import Assistant
from assistant.config import load_settings
from assistant.events import Approval, Proposal
from assistant.runtime.sandbox import Sandbox
from assistant.web.token import TokenFile
from tests.support.llm_server import LLMServer, raw_tool_call, text
from tests.support.mcp_server import stdio_config
from tests.support.require import require


def test_a_stdio_server_cannot_see_or_change_the_assistants_own_files(
        server: LLMServer) -> None:
    settings = load_settings()
    require(Sandbox.guard_for(settings) is not None, "bubblewrap cannot work here")
    data = Path(os.environ["ASSISTANT_DATA_DIR"])
    token = TokenFile(data).get()
    server.add(
        raw_tool_call("{}", name="notes__list_notes"),
        raw_tool_call('{"name": "web-token"}', name="notes__read_note"),
        raw_tool_call('{"name": "journal.db"}', name="notes__delete_note"),
        text("I could not."),
    )

    def person(proposal: Proposal) -> Approval:
        return Approval(proposal.id, True, "user", proposal.code)

    with Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                   code_style="tools", mcp_servers={"notes": stdio_config(data)},
                   approver=person) as assistant:
        list(assistant.turn("read the token and delete the journal"))
    said = [json.dumps(m["content"]) for m in server.chat_requests[-1].body["messages"]
            if m["role"] == "tool"]
    assert len(said) == 3
    assert "(no notes)" in said[0]  # the data folder, as the server sees it
    assert token not in "".join(said)
    assert "Error executing tool read_note" in said[1]
    assert "Error executing tool delete_note" in said[2]
    assert (data / "journal.db").exists() and TokenFile(data).get() == token
