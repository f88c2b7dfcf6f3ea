"""Who approved, as the journal keeps it: a program's "always" stays the program's, through
the Python API, real litellm against the scripted server, real runtimes and the journal."""

from __future__ import annotations

from assistant import Assistant
from assistant.events import Approval, Proposal
from assistant.journal import Journal
from tests.support.llm_server import LLMServer, text, tool_call


def test_an_always_set_by_a_program_is_journaled_as_the_programs(server: LLMServer) -> None:
    asked: list[str] = []

    def program(proposal: Proposal) -> Approval:
        asked.append(proposal.code)
        return Approval(proposal.id, True, "caller", proposal.code, always=True)

    server.add(tool_call("shell", "echo again"), text("Said."),
               tool_call("shell", "echo again"), text("Said again."))
    with Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                   code_style="tools", approver=program) as assistant:
        list(assistant.turn("say again"))
        list(assistant.turn("once more"))
        journal = Journal.in_dir(assistant.settings.data_path)
        records = journal.conversation(None)["records"]
        journal.close()
    approvals = [r for r in records if r["kind"] == "approval"]
    assert asked == ["echo again"]  # the second run went by the program's "always"
    assert [a["approved"] for a in approvals] == [True, True]
    assert [a["decided_by"] for a in approvals] == ["caller", "caller"]
    assert approvals[1]["reason"] == "allowed always in this conversation by the caller"
    assert sum(r["kind"] == "run_end" for r in records) == 2
