"""The API a page or a program drives: turns, their events, decisions, interrupts, history;
against an `assistant serve` the module's tests share, unless a test is about its start,
its stop or its model."""

from __future__ import annotations

import hashlib
import http.client
import json
import re
import signal
import threading
import time
from pathlib import Path

import pytest

from assistant.config import Settings
from tests.integration.web.conftest import Served, serve, stop
from tests.support.llm_server import LLMServer, hang, text, tool_call
from tests.support.require import require


def digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def decide(served: Served, proposal: dict, **body: object) -> dict:
    reply = served.request("POST", f"/api/proposals/{proposal['id']}/decision",
                           {"sha256": digest(proposal["code"]), **body})
    assert reply.status == 200, reply.body
    return reply.json()


def test_a_turn_with_an_edit_runs_the_edited_code_and_is_in_history(
        shared_served: Served, shared_server: LLMServer) -> None:
    shared_server.add(tool_call("python", "print('original')", text="Printing."),
                      text("It printed."))
    turn = shared_served.start_turn("print something")
    proposal = shared_served.events(turn, until="proposal")[-1]
    assert proposal["language"] == "python" and proposal["risk"] == "low"
    assert 'class="s1"' in proposal["html"] and proposal["code"] == "print('original')"
    approval = decide(shared_served, proposal, approved=True, code="print('edited')")
    assert approval["approved"] and approval["code"] == "print('edited')"
    events = shared_served.events(turn)
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "user" and kinds[-1] == "turn_end"
    assert kinds.index("proposal") < kinds.index("approval") < kinds.index("run_end")
    run = next(e for e in events if e["kind"] == "run_end")
    assert run["output"].strip() == "edited" and run["exit_status"] == 0
    assert "".join(e["text"] for e in events if e["kind"] == "text").endswith("It printed.")
    conversation = events[-1]["conversation_id"]
    rows = shared_served.request("GET", "/api/conversations?q=print%20something").json()
    assert [row["id"] for row in rows] == [conversation]
    assert shared_served.request("GET", "/api/conversations?q=no%20such%20words").json() == []
    found = shared_served.request("GET", f"/api/conversations/{conversation}").json()
    records = [r["kind"] for r in found["records"]]
    assert records[0] == "user" and "proposal" in records and "run_end" in records
    approved = next(r for r in found["records"] if r["kind"] == "approval")
    assert approved["decided_by"] == "caller" and approved["code"] == "print('edited')"
    assert "html" in next(r for r in found["records"] if r["kind"] == "proposal")


def test_a_conversation_continues_and_one_turn_at_a_time(shared_served: Served,
                                                         shared_server: LLMServer) -> None:
    shared_server.add(text("First."))
    first = shared_served.start_turn("remember the number 7")
    conversation = shared_served.events(first)[-1]["conversation_id"]
    shared_server.add(text("Second.", pace=0.3))
    second = shared_served.start_turn("what was the number?", conversation)
    busy = shared_served.request("POST", "/api/turns", {"text": "again",
                                                 "conversation_id": conversation})
    assert busy.status == 409
    assert shared_served.events(second)[-1]["conversation_id"] == conversation
    history = shared_server.chat_requests[-1].body["messages"]
    assert any("remember the number 7" in str(m.get("content")) for m in history)
    assert shared_served.request("GET", f"/api/conversations/{conversation}").json()["records"][-1][
        "kind"] == "turn_end"
    missing = shared_served.request("POST", "/api/turns", {"text": "hi", "conversation_id": "2020"})
    assert missing.status == 404


def test_interrupt_stops_an_answer_a_silent_model_and_a_waiting_proposal(
        shared_served: Served, shared_server: LLMServer) -> None:
    shared_server.add(text(" ".join(["word"] * 200), pace=0.1))
    turn = shared_served.start_turn("talk for a while")
    shared_served.events(turn, until="text")
    started = time.monotonic()
    assert shared_served.request("POST", f"/api/turns/{turn}/interrupt").status == 202
    events = shared_served.events(turn, timeout=30)
    assert events[-1]["reason"] == "interrupted" and time.monotonic() - started < 5
    shared_server.add(hang())
    asked = len(shared_server.chat_requests)
    turn = shared_served.start_turn("wait for a silent model")
    while len(shared_server.chat_requests) == asked:
        time.sleep(0.05)
    started = time.monotonic()
    assert shared_served.request("POST", f"/api/turns/{turn}/interrupt").status == 202
    assert shared_served.events(turn, timeout=30)[-1]["reason"] == "interrupted"
    assert time.monotonic() - started < 5
    shared_server.add(tool_call("shell", "echo never"), text("ok"))
    turn = shared_served.start_turn("propose something")
    proposal = shared_served.events(turn, until="proposal")[-1]
    assert shared_served.request("POST", f"/api/turns/{turn}/interrupt").status == 202
    events = shared_served.events(turn)
    approval = next(e for e in events if e["kind"] == "approval")
    assert approval["approved"] is False and approval["proposal_id"] == proposal["id"]
    assert events[-1]["reason"] == "interrupted"
    assert not any(e["kind"] == "run_end" for e in events)
    assert shared_served.request("POST", f"/api/turns/{turn}/interrupt").status == 404


def test_the_stream_of_every_turn_and_a_resumed_stream(shared_served: Served,
                                                       shared_server: LLMServer) -> None:
    lines: list[str] = []
    connected = threading.Event()

    def listen() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", shared_served.port, timeout=30)
        connection.request("GET", "/api/events", headers={
            "Host": f"127.0.0.1:{shared_served.port}",
            "Authorization": f"Bearer {shared_served.token}"})
        response = connection.getresponse()
        connected.set()
        while line := response.readline().decode():
            lines.append(line)
            if line.startswith("data: ") and '"turn_end"' in line:
                break
        connection.close()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert connected.wait(10)
    shared_server.add(text("Hello there."))
    turn = shared_served.start_turn("hi")
    events = shared_served.events(turn)
    listener.join(30)
    ids = [line[4:].strip() for line in lines if line.startswith("id: ")]
    assert ids == [f"{turn}.{n}" for n in range(len(events))]
    assert [json.loads(line[6:]) for line in lines if line.startswith("data: ")] == events
    connection = http.client.HTTPConnection("127.0.0.1", shared_served.port, timeout=30)
    connection.request("GET", f"/api/turns/{turn}/events", headers={
        "Host": f"127.0.0.1:{shared_served.port}", "Authorization": f"Bearer {shared_served.token}",
        "Last-Event-ID": f"{turn}.2"})
    rest = [json.loads(line[6:]) for line in connection.getresponse().read().decode()
            .splitlines() if line.startswith("data: ")]
    assert rest == events[3:]
    assert shared_served.request("GET", "/api/turns/nope/events").status == 404


def test_bad_requests_are_explained(shared_served: Served, tmp_path: Path) -> None:
    for body in ({}, {"text": ""}, {"text": 5}, {"text": "hi", "conversation_id": 3}):
        reply = shared_served.request("POST", "/api/turns", body)
        assert reply.status == 400 and "text" in reply.json()["error"]
    reply = shared_served.request("POST", "/api/proposals/p1/decision", {"approved": "yes"})
    assert reply.status == 400 and "sha256" in reply.json()["error"]
    reply = shared_served.request("POST", "/api/proposals/p1/decision",
                           {"approved": True, "sha256": digest("ls")})
    assert reply.status == 404
    assert shared_served.request("GET", "/api/conversations/none").status == 404


@pytest.mark.slow
def test_with_no_model_configured_the_page_runs_on_the_embedded_model(tmp_path: Path) -> None:
    """As the chat does: the embedded model (here the small demo one) when nothing is set
    and Ollama has nothing; it stops with the server."""
    from assistant.servers import embedded

    require(embedded.available(Settings(embedded_model=embedded.SMOLLM2)),
            "the embedded demo model is not installed: ./scripts/setup --test")
    running = serve(None, tmp_path, env={"ASSISTANT_EMBEDDED_MODEL": embedded.SMOLLM2,
                                         "ASSISTANT_MAX_TOKENS": "16"}, timeout=180)
    try:
        assert f"starting the embedded {embedded.SMOLLM2}" in running.log()
        assert running.request("GET", "/", token="", headers={
            "Cookie": f"assistant_token_{running.port}={running.token}"}).status == 200
        turn = running.start_turn("Say hello.")
        end = running.events(turn, timeout=180)[-1]
        assert end["kind"] == "turn_end" and end["reason"] == "answered", end
    finally:
        assert stop(running) == 0, running.log()
    assert "Traceback" not in running.log()


def test_serve_prints_one_line_and_stops_on_sigint(server: LLMServer, tmp_path: Path) -> None:
    running = serve(server, tmp_path)
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]{40,}", running.url)
    assert running.request("GET", "/api/conversations").status == 200
    running.process.send_signal(signal.SIGINT)
    assert running.process.wait(20) == 0
    assert running.process.stdout is not None and running.process.stdout.read() == ""


def test_stopping_with_a_proposal_waiting_declines_it_and_asks_the_llm_nothing_more(
        server: LLMServer, tmp_path: Path) -> None:
    from tests.integration.web.conftest import stop

    running = serve(server, tmp_path)
    server.add(tool_call("shell", "echo never"), text("should not be asked"))
    turn = running.start_turn("propose something")
    running.events(turn, until="proposal")
    asked = len(server.chat_requests)
    assert stop(running) == 0
    assert len(server.chat_requests) == asked
    from assistant.journal import Journal

    journal = Journal.in_dir(running.data)
    try:
        records = journal.conversation(None)["records"]
    finally:
        journal.close()
    approval = next(r for r in records if r["kind"] == "approval")
    assert approval["approved"] is False and "stopping" in approval["reason"]
    assert records[-1]["kind"] == "turn_end" and records[-1]["reason"] == "interrupted"
