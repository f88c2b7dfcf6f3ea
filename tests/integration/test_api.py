"""The Python API and the core loop, through real litellm, real runtimes and the journal."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from assistant import Assistant
from assistant.events import (
    Approval,
    CodeDraft,
    Error,
    Notice,
    OutputChunk,
    Proposal,
    RunEnd,
    TextDelta,
    TurnEnd,
    Usage,
)
from assistant.journal import Journal
from tests.support.llm_server import (
    LLMServer,
    closed_port_url,
    delay,
    error,
    text,
    tool_call,
    tool_calls,
)


def make(server: LLMServer, **kwargs: object) -> Assistant:
    return Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                     code_style="tools", **kwargs)


def yes(proposal: Proposal) -> Approval:
    """The person at the keyboard, who says yes to what auto mode leaves to them."""
    return Approval(proposal.id, True, "user", proposal.code)


def test_events_of_a_turn_in_order(server: LLMServer) -> None:
    server.add(tool_call("python", "print(6 * 7)", text="Computing."), text("It is 42."))
    with make(server, approval="auto") as a:
        events = list(a.turn("what is 6*7"))
    kinds = [type(e) for e in events if not isinstance(e, (TextDelta, Usage))]
    drafts = [e for e in events if isinstance(e, CodeDraft)]
    assert drafts and drafts[-1].code == "print(6 * 7)"  # the code as it was written
    kinds = [kind for kind in kinds if kind is not CodeDraft]
    assert kinds[:3] == [Proposal, Approval, OutputChunk]
    assert RunEnd in kinds and kinds[-1] is TurnEnd
    assert "".join(e.text for e in events if isinstance(e, TextDelta)).startswith("Computing.")
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.text == "It is 42." and end.reason == "answered"
    run = next(e for e in events if isinstance(e, RunEnd))
    assert run.exit_status == 0 and run.output.strip() == "42"
    fed_back = server.chat_requests[1].body["messages"]
    tool_message = next(m for m in fed_back if m["role"] == "tool")
    assert "42" in tool_message["content"]


def test_no_approver_declines_and_the_llm_is_told(server: LLMServer, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    server.add(tool_call("shell", f"touch {marker}"), text("Understood, I will not."))
    with make(server) as a:
        events = list(a.turn("make a file"))
    approval = next(e for e in events if isinstance(e, Approval))
    assert not approval.approved and approval.decided_by == "policy"
    assert not marker.exists()
    told = server.chat_requests[1].body["messages"][-1]
    assert told["role"] == "tool" and "declined" in told["content"]
    assert events[-1].text == "Understood, I will not."


def test_caller_approver_sees_each_proposal_and_may_edit(server: LLMServer) -> None:
    seen: list[str] = []

    def approver(proposal: Proposal) -> Approval:
        seen.append(proposal.code)
        return Approval(proposal.id, True, "user", code="print('edited')")

    server.add(tool_call("python", "print('original')"), text("done"))
    with make(server, approver=approver) as a:
        events = list(a.turn("go"))
    assert seen == ["print('original')"]
    run = next(e for e in events if isinstance(e, RunEnd))
    assert run.output.strip() == "edited"


def test_messages_save_and_restore(server: LLMServer, tmp_path: Path) -> None:
    server.add(tool_call("python", "x = 5\nprint(x)"), text("x is 5"), text("still here"))
    with make(server, approval="auto") as a:
        list(a.turn("set x"))
        saved = tmp_path / "conversation.json"
        a.save(saved)
    roles = [m["role"] for m in json.loads(saved.read_text())]
    assert roles == ["user", "assistant", "tool", "assistant"]
    with make(server) as b:
        b.load(saved)
        assert b.ask("and now?") == "still here"
    sent = server.chat_requests[-1].body["messages"]
    assert [m["role"] for m in sent] == ["system", *roles, "user"]


def test_max_runs_breaks_the_loop(server: LLMServer) -> None:
    server.add(*[tool_call("python", f"print({i})") for i in range(5)])
    with make(server, approval="auto", max_runs_per_turn=3) as a:
        events = list(a.turn("loop forever"))
    assert sum(isinstance(e, RunEnd) for e in events) == 3
    assert events[-1].reason == "max_runs"
    assert any(isinstance(e, Notice) and "3 runs" in e.text for e in events)


def test_identical_failing_proposal_runs_once_and_stops_at_the_third(server: LLMServer) -> None:
    server.add(*[tool_call("python", "1/0") for _ in range(5)])
    # a failed preview has not shown what the run does: under auto a person says yes
    with make(server, approval="auto", approver=yes, checks_off="preview") as a:
        events = list(a.turn("divide"))
    assert sum(isinstance(e, RunEnd) for e in events) == 1
    assert events[-1].reason == "repeated_failure"
    assert len(server.chat_requests) == 3  # run, told, stopped: the model is not asked again


def test_every_tool_call_is_answered_when_a_turn_stops(server: LLMServer) -> None:
    server.add(tool_calls(("python", "1/0"), ("shell", "echo never")), text("next turn"))
    with make(server, approval="auto", max_runs_per_turn=1) as a:
        list(a.turn("two things"))
        list(a.turn("again"))
    sent = server.chat_requests[-1].body["messages"]
    answers = [m for m in sent if m["role"] == "tool"]
    assert len(answers) == 2 and "Not run" in answers[1]["content"]


def test_interrupt_from_another_thread_stops_the_run(server: LLMServer) -> None:
    server.add(tool_call("python", "import time\nprint('start', flush=True)\ntime.sleep(30)"))
    with make(server, approval="auto", approver=yes) as a:  # its preview runs out of time
        events = []
        for event in a.turn("sleep"):
            events.append(event)
            if isinstance(event, OutputChunk) and "start" in event.text:
                threading.Timer(0.2, a.interrupt).start()
        started = time.monotonic()
    run = next(e for e in events if isinstance(e, RunEnd))
    assert run.interrupted
    assert events[-1].reason == "interrupted"
    assert time.monotonic() - started < 10
    assert len(server.chat_requests) == 1


def test_interrupt_while_the_model_is_silent_ends_the_turn_at_once(server: LLMServer) -> None:
    """A local model reading a long prompt sends nothing for seconds: a stop must not wait."""
    server.add(delay(20, text("too late")), text("The next turn is answered."))
    interrupted_at: list[float] = []

    def interrupt_once_asked() -> None:
        while not server.chat_requests:
            time.sleep(0.01)
        time.sleep(0.3)
        interrupted_at.append(time.monotonic())
        a.interrupt()

    with make(server) as a:
        threading.Thread(target=interrupt_once_asked, daemon=True).start()
        events = list(a.turn("hi"))
        took = time.monotonic() - interrupted_at[0]
        assert isinstance(events[-1], TurnEnd) and events[-1].reason == "interrupted"
        assert took < 2, took
        assert not [e for e in events if isinstance(e, Error)]
        later = list(a.turn("and now?"))
    assert isinstance(later[-1], TurnEnd) and later[-1].text == "The next turn is answered."


def test_llm_errors_end_the_turn_with_one_line(server: LLMServer) -> None:
    server.add(error(401, "bad key"))
    with make(server) as a:
        events = list(a.turn("hi"))
    errors = [e for e in events if isinstance(e, Error)]
    assert len(errors) == 1 and "\n" not in errors[0].text
    assert events[-1].reason == "error"
    with Assistant(model="openai/gpt-4o-mini", api_base=closed_port_url() + "/v1",
                   api_key="k") as down:
        events = list(down.turn("hi"))
    assert "Cannot reach" in next(e for e in events if isinstance(e, Error)).text


def test_journal_has_every_step_and_resume_continues(server: LLMServer) -> None:
    server.add(tool_call("shell", "echo journaled"), text("Printed it."), text("resumed ok"))
    with make(server, approval="auto") as a:
        list(a.turn("print something"))
        cid = a.conversation_id
        settings = a.settings
    journal = Journal.in_dir(settings.data_path)
    record = journal.conversation(cid)
    kinds = [r["kind"] for r in record["records"]]
    for kind in ("user", "assistant", "proposal", "approval", "run_end", "usage", "turn_end"):
        assert kind in kinds, kind
    approval = next(r for r in record["records"] if r["kind"] == "approval")
    assert approval["decided_by"] == "policy"
    with Assistant.resume(None, api_base=server.openai_url, api_key="k", code_style="tools") as b:
        assert b.conversation_id == cid
        assert b.ask("continue") == "resumed ok"
    sent = server.chat_requests[-1].body["messages"]
    assert any("journaled" in str(m.get("content")) for m in sent)
    assert journal.conversations()[0]["turns"] == 2


def test_two_assistants_keep_separate_state(server: LLMServer) -> None:
    server.add(tool_call("python", "v = 'one'"), text("a"), tool_call("python", "print(v)"),
               text("b"))
    # the second's NameError, failing its preview, would go back without a run
    with make(server, approval="auto") as first, \
            make(server, approval="auto", approver=yes, checks_off="preview") as second:
        list(first.turn("set"))
        events = list(second.turn("read"))
    run = next(e for e in events if isinstance(e, RunEnd))
    assert "NameError" in run.output


def test_results_messages_do_not_count_as_turns(server: LLMServer) -> None:
    from assistant.messages import RESULTS_HEADER

    history = [
        {"role": "user", "content": "list files"},
        {"role": "assistant", "content": "```shell\nls\n```"},
        {"role": "user", "content": f"{RESULTS_HEADER}\nshell output:\na.txt"},
        {"role": "assistant", "content": "There is a.txt."},
    ]
    server.add(text("second turn"))
    with make(server, messages=history) as a:
        list(a.turn("and now?"))
        record = Journal.in_dir(a.settings.data_path).conversation(a.conversation_id)
    assert {r["turn"] for r in record["records"]} == {2}


def test_the_documented_auto_run_keyword_still_means_the_auto_approval_mode(
        server: LLMServer) -> None:
    with pytest.warns(DeprecationWarning, match="auto_run is deprecated"):
        a = make(server, auto_run=True)
    with a:
        assert a.policy.mode == "auto" and a.settings.approval == "auto"


def test_the_documented_chat_is_turn_under_its_old_name(server: LLMServer) -> None:
    server.add(text("Hello."), text("Again."))
    with make(server) as a:
        with pytest.warns(DeprecationWarning, match="use Assistant.turn"):
            events = a.chat("hi")
        assert isinstance(events, list)
        end = events[-1]
        assert isinstance(end, TurnEnd) and end.text == "Hello."
        with pytest.warns(DeprecationWarning):
            streamed = a.chat("again", stream=True)
        assert not isinstance(streamed, list)
        end = list(streamed)[-1]
        assert isinstance(end, TurnEnd) and end.text == "Again."
