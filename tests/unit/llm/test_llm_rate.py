"""The limit on LLM calls counts each call of a turn, through the real adapter (litellm)
against the scripted server: a turn that would make a third call in the minute ends in
one line, and the model never sees that call."""

from __future__ import annotations

from pathlib import Path

from assistant import Assistant
from assistant.events import Error, RunEnd, TurnEnd
from assistant.llm.rate import shared
from tests.support.llm_server import LLMServer, text, tool_call


def test_each_call_inside_a_turn_counts_and_the_third_is_refused_in_one_line(
        server: LLMServer) -> None:
    server.add(tool_call("python", "print(1)"), tool_call("python", "print(2)"),
               text("Both printed."))
    with Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                   code_style="tools", approval="auto", llm_calls_per_minute=2) as assistant:
        events = list(assistant.turn("print one, then two"))
    assert [e.output for e in events if isinstance(e, RunEnd)] == ["1\n", "2\n"]
    [error] = [e for e in events if isinstance(e, Error)]
    assert error.text.startswith("2 LLM calls in a minute is the limit, and it is reached: "
                                 "ask again in ")
    assert "\n" not in error.text
    assert isinstance(events[-1], TurnEnd)
    assert len(server.chat_requests) == 2


def test_the_conversations_of_one_data_folder_share_the_strictest_limit(
        tmp_path: Path) -> None:
    everyone = shared(tmp_path / "one", 0)
    page = shared(tmp_path / "one", 3)
    assert page is everyone and everyone.per_minute == 3
    assert shared(tmp_path / "one", 10).per_minute == 3
    for _ in range(3):
        everyone.take()
    assert page.wait_s() > 50
    assert shared(tmp_path / "other", 0).wait_s() == 0
