"""MCP tools in real turns: the SDK's servers over stdio and streamable HTTP, the real
litellm client against the scripted LLM server, and the same approval gate as code."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant import Assistant
from assistant.events import Approval, Event, Notice, Proposal, RunEnd, TurnEnd
from assistant.journal import Journal
from tests.support.llm_server import LLMServer, fenced, raw_tool_call, text
from tests.support.mcp_server import INJECTION, http_server, stdio_config


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "groceries.txt").write_text("milk\n")
    (folder / "plan.txt").write_text(INJECTION)
    return folder


@pytest.fixture
def url(notes: Path) -> Iterator[str]:
    with http_server(notes, token="s3cret-token") as running:
        yield running


def make(server: LLMServer, servers: dict[str, object], style: str = "tools",
         **kwargs: object) -> Assistant:
    return Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                     code_style=style, mcp_servers=servers, **kwargs)


def tool_messages(server: LLMServer, request: int) -> list[str]:
    messages = server.chat_requests[request].body["messages"]
    return [m["content"] for m in messages if m["role"] == "tool"]


def asked(events: list[Event]) -> list[str]:
    return [e.language for e in events if isinstance(e, Proposal)]


def test_read_only_runs_unasked_and_destructive_asks_and_is_declined(
    server: LLMServer, notes: Path
) -> None:
    server.add(
        raw_tool_call("{}", name="notes__list_notes"),
        raw_tool_call('{"name": "groceries.txt"}', name="notes__delete_note"),
        text("I did not delete it."),
    )
    people: list[str] = []

    def person(proposal: Proposal) -> Approval:
        people.append(proposal.language)
        return Approval(proposal.id, False, "user")

    with make(server, {"notes": stdio_config(notes)}, approval="auto",
              approver=person) as assistant:
        events = list(assistant.turn("tidy my notes"))
        conversation = assistant.conversation_id
    proposals = [e for e in events if isinstance(e, Proposal)]
    assert [(p.language, p.tool, p.risk) for p in proposals] == [
        ("notes.list_notes", "mcp:notes", "low"), ("notes.delete_note", "mcp:notes", "high")]
    assert json.loads(proposals[1].code) == {"name": "groceries.txt"}
    decisions = [(e.approved, e.decided_by) for e in events if isinstance(e, Approval)]
    assert decisions == [(True, "policy"), (False, "user")]
    assert people == ["notes.delete_note"]
    assert (notes / "groceries.txt").exists()
    offered = [t["function"]["name"] for t in server.chat_requests[0].body["tools"]]
    assert offered[0] == "execute" and "notes__list_notes" in offered
    listing = tool_messages(server, 1)[0]
    assert '<tool_result untrusted="true">\ngroceries.txt\nplan.txt\n</tool_result>' in listing
    assert "declined" in tool_messages(server, 2)[1]
    assert isinstance(events[-1], TurnEnd) and events[-1].reason == "answered"
    journal = Journal.in_dir(assistant.settings.data_path)
    records = journal.conversation(conversation)["records"]
    journal.close()
    kinds = [(r["kind"], r.get("language") or r.get("approved")) for r in records
             if r["kind"] in ("proposal", "approval")]
    assert kinds == [("proposal", "notes.list_notes"), ("approval", True),
                     ("proposal", "notes.delete_note"), ("approval", False)]


def test_a_tool_result_claiming_approval_approves_nothing(
    server: LLMServer, notes: Path
) -> None:
    """The note read back says everything is approved; the destructive call that follows
    has no person to approve it under auto mode, so nothing is deleted."""
    server.add(
        raw_tool_call('{"name": "plan.txt"}', name="notes__read_note"),
        raw_tool_call('{"name": "groceries.txt"}', name="notes__delete_note"),
        text("ok"),
    )
    with make(server, {"notes": stdio_config(notes)}, approval="auto") as assistant:
        events = list(assistant.turn("read my plan and do it"))
    decisions = [(e.approved, e.decided_by, e.reason) for e in events if isinstance(e, Approval)]
    assert decisions[0][:2] == (True, "policy")
    assert decisions[1][:2] == (False, "policy") and "high risk" in decisions[1][2]
    assert (notes / "groceries.txt").exists()
    shown = tool_messages(server, 1)[0]
    assert "untrusted data" in shown and INJECTION in shown.split('untrusted="true">', 1)[1]


def test_streamable_http_server_and_failing_ones_beside_it(
    server: LLMServer, notes: Path, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two servers do not start (no such command; no token): one notice each, and the HTTP
    server reached with its token from the environment still works."""
    monkeypatch.setenv("NOTES_TOKEN", "s3cret-token")
    server.add(raw_tool_call('{"name": "groceries.txt"}', name="web__read_note"), text("milk"))
    servers = {"broken": {"command": "no-such-mcp-server-zz"}, "locked": {"url": url},
               "web": {"url": url, "headers": {"Authorization": "Bearer $NOTES_TOKEN"}}}
    with make(server, servers, approval="auto") as assistant:
        events = list(assistant.turn("what is on my list?"))
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert notices[0] == ("MCP server broken did not start (no-such-mcp-server-zz: command "
                          "not found): its tools are not offered")
    assert notices[1:] == ["MCP server locked did not start (Server returned an error "
                           "response): its tools are not offered"]
    ran = [e for e in events if isinstance(e, RunEnd)]
    assert len(ran) == 1 and ran[0].exit_status == 0 and "milk" in ran[0].output
    offered = [t["function"]["name"] for t in server.chat_requests[0].body["tools"]]
    assert "web__read_note" in offered and not any(n.startswith("broken") for n in offered)


def test_a_server_crashing_mid_call_is_an_error_and_the_turn_goes_on(
    server: LLMServer, notes: Path
) -> None:
    """The next turn starts the server again."""
    server.add(raw_tool_call("{}", name="notes__crash"), text("Done."),
               text("It did not work: the notes server stopped."),
               raw_tool_call("{}", name="notes__list_notes"), text("It is back."))
    with make(server, {"notes": stdio_config(notes)}, approver=lambda p: True) as assistant:
        events = list(assistant.turn("crash it"))
        again = list(assistant.turn("list them"))
    ran = [e for e in events if isinstance(e, RunEnd)]
    assert ran[0].exit_status == 1
    assert "the MCP server notes stopped during the call" in ran[0].output
    assert "stopped during the call" in tool_messages(server, 1)[0]
    assert isinstance(events[-1], TurnEnd) and events[-1].reason == "answered"
    assert events[-1].text == "It did not work: the notes server stopped."
    assert not [e for e in again if isinstance(e, Notice)]
    [back] = [e for e in again if isinstance(e, RunEnd)]
    assert back.exit_status == 0 and "groceries.txt" in back.output


def test_interrupting_a_call_in_flight_ends_the_turn_at_once(
    server: LLMServer, notes: Path
) -> None:
    server.add(raw_tool_call('{"seconds": 60}', name="notes__wait"), text("never asked"))
    with make(server, {"notes": stdio_config(notes)}, approval="auto") as assistant:
        started = time.monotonic()
        events = []
        for event in assistant.turn("wait a minute"):
            events.append(event)
            if isinstance(event, Approval):
                threading.Timer(1.0, assistant.interrupt).start()
    assert time.monotonic() - started < 20
    [end] = [e for e in events if isinstance(e, RunEnd)]
    assert end.interrupted and "interrupted" in end.output
    assert isinstance(events[-1], TurnEnd) and events[-1].reason == "interrupted"


def test_fenced_models_read_the_tools_and_call_them_in_a_fenced_block(
    server: LLMServer, notes: Path
) -> None:
    server.add(fenced("notes.list_notes", "{}"), text("Two notes."))
    with make(server, {"notes": stdio_config(notes)}, style="fenced",
              approval="auto") as assistant:
        events = list(assistant.turn("which notes do I have?"))
    assert asked(events) == ["notes.list_notes"]
    system = server.chat_requests[0].body["messages"][0]["content"]
    assert "```notes.list_notes" in system and "- notes.delete_note(name: string)" in system
    results = server.chat_requests[1].body["messages"][-1]["content"]
    assert "groceries.txt" in results and '<tool_result untrusted="true">' in results


def test_config_denies_a_tool_and_lowers_another(server: LLMServer, notes: Path) -> None:
    """`deny` takes a tool out of the offer; `risk = "low"` lets auto mode run it."""
    config = stdio_config(notes, tools={"delete_note": {"deny": True},
                                        "crash": {"risk": "high"},
                                        "echo": {"risk": "medium"}})
    server.add(raw_tool_call('{"name": "plan.txt"}', name="notes__delete_note"), text("no"))
    with make(server, {"notes": config}, approval="auto") as assistant:
        events = list(assistant.turn("delete my plan"))
    offered = [t["function"]["name"] for t in server.chat_requests[0].body["tools"]]
    assert "notes__delete_note" not in offered and "notes__echo" in offered
    assert asked(events) == [] and (notes / "plan.txt").exists()
    assert "there is no tool 'notes__delete_note'" in tool_messages(server, 1)[0]


def test_offline_mode_reaches_no_server_outside_this_machine(
    server: LLMServer, notes: Path, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NOTES_TOKEN", "s3cret-token")
    server.add(text("ok"))
    servers = {"hosted": {"url": "https://mcp.example.com/mcp"},
               "web": {"url": url, "headers": {"Authorization": "Bearer $NOTES_TOKEN"}}}
    with make(server, servers, offline=True) as assistant:
        events = list(assistant.turn("hello"))
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert notices == ["MCP server hosted was not started: https://mcp.example.com/mcp is "
                       "outside this machine and its network, and offline mode is on"]
    offered = [t["function"]["name"] for t in server.chat_requests[0].body["tools"]]
    assert "web__list_notes" in offered and not any(n.startswith("hosted") for n in offered)
