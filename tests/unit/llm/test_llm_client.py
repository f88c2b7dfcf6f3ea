"""The adapter through the real litellm client against the scripted server."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest

from assistant.config import Settings
from assistant.events import CodeDraft
from assistant.llm import LLM, LLMError, Reply
from tests.support.llm_server import (
    LLMServer,
    closed_port_url,
    error,
    fenced,
    hang,
    malformed,
    pieces,
    raw_tool_call,
    text,
    tool_call,
    tool_calls,
)

# litellm reads pydantic fields through instances, which pydantic 2.11 deprecates.
pytestmark = pytest.mark.filterwarnings("ignore:Accessing the 'model_:DeprecationWarning")

USER = [{"role": "system", "content": "You help."}, {"role": "user", "content": "Hi"}]


def run(llm: LLM, messages: list[dict[str, Any]] = USER, **kwargs: Any) -> tuple[list[str], Reply]:
    """Drain a stream; checks that text comes first and exactly one Reply comes last."""
    items = list(llm.stream(messages, **kwargs))
    *streamed, reply = items
    deltas = [piece for piece in streamed if isinstance(piece, str)]
    assert all(isinstance(piece, (str, CodeDraft)) for piece in streamed)
    assert isinstance(reply, Reply)
    return deltas, reply


def test_text_arrives_as_several_deltas(server: LLMServer, openai_settings: Settings) -> None:
    server.add(text("Hello there, how are you today?"))
    deltas, reply = run(LLM(openai_settings.replace(code_style="fenced")))
    assert len(deltas) > 3
    assert "".join(deltas) == reply.text == "Hello there, how are you today?"
    assert reply.calls == []
    assert reply.message == {"role": "assistant", "content": reply.text}
    assert reply.usage is not None and reply.usage[1] > 0
    [request] = server.chat_requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer test"
    assert request.body["messages"] == USER
    assert request.body["stream_options"] == {"include_usage": True}
    assert "tools" not in request.body


def test_streamed_tool_call_is_assembled(server: LLMServer, openai_settings: Settings) -> None:
    server.add(tool_call("python", "import os\nprint(os.getcwd())", text="Let me check."))
    llm = LLM(openai_settings.replace(code_style="tools"))
    deltas, reply = run(llm)
    assert "".join(deltas) == "Let me check."
    [call] = reply.calls
    assert (call.language, call.code) == ("python", "import os\nprint(os.getcwd())")
    assert reply.message["content"] == "Let me check."
    [sent_call] = reply.message["tool_calls"]
    assert sent_call["id"] == call.id and sent_call["function"]["name"] == "execute"
    tools = server.chat_requests[0].body["tools"]
    assert [t["function"]["name"] for t in tools] == ["execute"]
    assert "approve" in tools[0]["function"]["description"]


def test_a_tool_call_s_code_is_shown_as_it_is_written(
    server: LLMServer, openai_settings: Settings
) -> None:
    code = 'import os\nprint("here:", os.getcwd())'
    server.add(tool_call("python", code, text="Let me check."))
    items = list(LLM(openai_settings.replace(code_style="tools")).stream(USER))
    drafts = [item for item in items if isinstance(item, CodeDraft)]
    assert len(drafts) >= 2, "the arguments arrive in parts: the code grows"
    assert all(draft.language == "python" and code.startswith(draft.code) for draft in drafts)
    assert drafts[-1].code == code
    assert isinstance(items[-1], Reply) and items[-1].calls[0].code == code
    server.add(fenced("python", code))
    in_text = list(LLM(openai_settings.replace(code_style="fenced")).stream(USER))
    assert not any(isinstance(item, CodeDraft) for item in in_text)  # it streams as words


def test_two_tool_calls_in_one_reply(server: LLMServer, openai_settings: Settings) -> None:
    server.add(tool_calls(("shell", "ls"), ("javascript", "console.log(2)")))
    _, reply = run(LLM(openai_settings.replace(code_style="tools")))
    assert [(c.language, c.code) for c in reply.calls] == [
        ("shell", "ls"),
        ("javascript", "console.log(2)"),
    ]
    assert len({c.id for c in reply.calls}) == 2
    assert reply.message["content"] is None


def test_tool_results_go_back_as_tool_messages(
    server: LLMServer, openai_settings: Settings
) -> None:
    server.add(tool_calls(("python", "print(6 * 7)"), ("shell", "rm -rf ~")), text("It is 42."))
    llm = LLM(openai_settings.replace(code_style="tools"))
    _, first = run(llm)
    ran, declined = first.calls
    history = [
        *USER,
        first.message,
        *llm.result_messages([(ran, "42\n"), (declined, "The user declined to run this code.")]),
    ]
    _, second = run(llm, history)
    assert second.text == "It is 42."
    sent = server.chat_requests[1].body["messages"]
    assert sent[2]["tool_calls"][0]["id"] == ran.id
    assert sent[3:] == [
        {"role": "tool", "tool_call_id": ran.id, "content": "42\n"},
        {
            "role": "tool",
            "tool_call_id": declined.id,
            "content": "The user declined to run this code.",
        },
    ]


def test_fenced_mode_finds_proposals(server: LLMServer, openai_settings: Settings) -> None:
    server.add(fenced("shell", "ls -la", after="Then I will read it."))
    llm = LLM(openai_settings.replace(code_style="fenced"))
    _, reply = run(llm)
    [call] = reply.calls
    assert (call.language, call.code) == ("shell", "ls -la")
    assert "```shell" in llm.system_addendum()
    assert reply.text.endswith("Then I will read it.")
    # what the history keeps of it is the loop's to judge (rule history.guess)
    assert reply.message == {"role": "assistant", "content": reply.text}


def test_fenced_results_go_back_as_one_user_message(
    server: LLMServer, openai_settings: Settings
) -> None:
    server.add(fenced("python", "print('hi')"), text("Done."))
    llm = LLM(openai_settings.replace(code_style="fenced"))
    _, first = run(llm)
    run(llm, [*USER, first.message, *llm.result_messages([(first.calls[0], "hi\n")])])
    last = server.chat_requests[1].body["messages"][-1]
    assert last["role"] == "user"
    assert last["content"].startswith("Results of the code you proposed:\n\npython block:\nhi")


def test_ollama_chat_in_fenced_mode(server: LLMServer, ollama_settings: Settings) -> None:
    server.add(fenced("python", "print(1)", before="Running it now."))
    llm = LLM(ollama_settings)
    assert llm.uses_tools is False
    deltas, reply = run(llm)
    assert len(deltas) > 2
    assert [(c.language, c.code) for c in reply.calls] == [("python", "print(1)")]
    assert reply.usage is not None
    [request] = server.chat_requests
    assert request.path == "/api/chat"
    assert request.body["model"] == "llama3.2" and "tools" not in request.body


def test_ollama_chat_tool_calls(server: LLMServer, ollama_settings: Settings) -> None:
    server.add(tool_calls(("python", "print(1)"), ("shell", "ls")))
    _, reply = run(LLM(ollama_settings.replace(code_style="tools")))
    assert [(c.language, c.code) for c in reply.calls] == [("python", "print(1)"), ("shell", "ls")]
    assert server.chat_requests[0].body["tools"][0]["function"]["name"] == "execute"


def test_ollama_tool_round_trip_and_window(server: LLMServer, ollama_settings: Settings) -> None:
    server.add(tool_call("python", "print(1)"), text("It printed 1."))
    llm = LLM(ollama_settings.replace(code_style="tools", context_window=16384))
    _, first = run(llm)
    history = [*USER, first.message, *llm.result_messages([(first.calls[0], "1\n")])]
    _, second = run(llm, history)
    assert second.text == "It printed 1."
    sent = server.chat_requests[1].body
    assert sent["options"]["num_ctx"] == 16384
    assert sent["messages"][2]["tool_calls"][0]["function"]["arguments"]["code"] == "print(1)"
    assert sent["messages"][3]["role"] == "tool" and sent["messages"][3]["content"] == "1\n"


def test_ollama_base_from_environment(server: LLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_API_BASE", server.url)
    server.add(text("From the environment."))
    llm = LLM(Settings(model="ollama_chat/llama3.2"))
    assert llm.context_window == 8192
    _, reply = run(llm)
    assert reply.text == "From the environment."


def test_context_window_comes_from_ollama_show(server: LLMServer) -> None:
    with LLMServer(context_length=12288) as big:
        llm = LLM(Settings(model="ollama_chat/llama3.2", api_base=big.url))
        assert llm.context_window == 12288
        assert llm.context_window == 12288
        shows = [r for r in big.requests if r.path == "/api/show"]
        assert [r.body for r in shows] == [{"model": "llama3.2"}]


def test_context_window_setting_and_fallbacks(server: LLMServer) -> None:
    assert LLM(Settings(model="ollama_chat/llama3.2", context_window=1234)).context_window == 1234
    assert LLM(Settings(model="gpt-4o")).context_window == 128000
    unknown = LLM(Settings(model="ollama_chat/missing", api_base=server.url))
    assert unknown.context_window == 8192
    started = time.monotonic()
    assert LLM(Settings(model="ollama_chat/x", api_base=closed_port_url())).context_window == 8192
    assert time.monotonic() - started < 2.5


def test_code_style_choice() -> None:
    assert LLM(Settings(model="ollama_chat/llama3.2", code_style="tools")).uses_tools is True
    assert LLM(Settings(model="gpt-4o", code_style="fenced")).uses_tools is False
    assert LLM(Settings(model="gpt-4o")).uses_tools is True
    assert LLM(Settings(model="ollama_chat/some-local-model")).uses_tools is False
    assert LLM(Settings(model="openai/unknown-model")).uses_tools is False
    assert "`execute`" in LLM(Settings(model="gpt-4o")).system_addendum()


def test_history_is_trimmed_to_the_window(server: LLMServer, openai_settings: Settings) -> None:
    server.add(text("Trimmed."))
    old_turns = [
        message
        for n in range(20)
        for message in (
            {"role": "user", "content": f"old question {n} " + "word " * 200},
            {"role": "assistant", "content": f"old answer {n} " + "word " * 200},
        )
    ]
    history = [USER[0], *old_turns, {"role": "user", "content": "newest"}]
    llm = LLM(openai_settings.replace(code_style="fenced", context_window=3000, max_tokens=500))
    run(llm, history)
    sent = server.chat_requests[0].body["messages"]
    assert sent[0] == USER[0] and sent[-1] == {"role": "user", "content": "newest"}
    assert 3 < len(sent) < len(history)
    assert sent[1]["role"] == "user"
    assert server.chat_requests[0].body["max_tokens"] == 500


def test_images_pass_through(server: LLMServer, openai_settings: Settings) -> None:
    server.add(text("A red dot."))
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
    content = [{"type": "text", "text": "What is this?"}, image]
    run(LLM(openai_settings.replace(code_style="fenced")), [{"role": "user", "content": content}])
    assert server.chat_requests[0].body["messages"][0]["content"] == content


def test_rejected_key(server: LLMServer, openai_settings: Settings) -> None:
    server.add(error(401, "Incorrect API key provided"))
    with pytest.raises(LLMError, match=r"API key was rejected for openai/test-model.*--api-key"):
        run(LLM(openai_settings))
    assert len(server.chat_requests) == 1


def test_missing_key() -> None:
    with pytest.raises(LLMError, match=r"No API key for gpt-4o.*OPENAI_API_KEY"):
        run(LLM(Settings(model="gpt-4o")))


def test_a_server_of_ones_own_needs_no_key(server: LLMServer, openai_settings: Settings) -> None:
    server.add(text("No key needed."))
    _, reply = run(LLM(openai_settings.replace(api_key="", code_style="fenced")))
    assert reply.text == "No key needed."


def test_unknown_model_at_the_server(server: LLMServer, ollama_settings: Settings) -> None:
    server.add(error(404, "model 'nope' not found"))
    with pytest.raises(LLMError, match=r"not found at .*ollama pull"):
        run(LLM(ollama_settings.replace(model="ollama_chat/nope")))


def test_model_without_provider_and_no_model() -> None:
    with pytest.raises(LLMError, match="Unknown model 'nonsense-model'"):
        run(LLM(Settings(model="nonsense-model", code_style="fenced")))
    with pytest.raises(LLMError, match="No model chosen"):
        run(LLM(Settings()))


def test_server_errors_are_retried_then_reported(
    server: LLMServer, openai_settings: Settings
) -> None:
    server.add(error(500, "boom"), error(503, "busy"), error(500, "boom again"))
    with pytest.raises(LLMError, match=r"server error \(500\): boom again") as caught:
        run(LLM(openai_settings))
    assert len(server.chat_requests) == 3
    assert "\n" not in str(caught.value) and "litellm" not in str(caught.value)


def test_a_retry_can_succeed(server: LLMServer, ollama_settings: Settings) -> None:
    server.add(error(503, "loading model"), text("Recovered."))
    _, reply = run(LLM(ollama_settings))
    assert reply.text == "Recovered."
    assert len(server.chat_requests) == 2


def test_connection_refused_fails_fast() -> None:
    base = closed_port_url()
    llm = LLM(Settings(model="openai/test-model", api_base=base + "/v1", api_key="k"))
    started = time.monotonic()
    with pytest.raises(
        LLMError, match=re.escape(f"Cannot reach the LLM at {base}/v1: is the server running?")
    ):
        run(llm)
    assert time.monotonic() - started < 5


def test_no_answer_times_out(server: LLMServer, ollama_settings: Settings) -> None:
    server.add(hang())
    with pytest.raises(
        LLMError, match=re.escape(f"The LLM at {server.url} did not answer within 0.5 s")
    ):
        run(LLM(ollama_settings.replace(llm_timeout=0.5)))
    assert len(server.chat_requests) == 1


def test_malformed_stream(server: LLMServer, openai_settings: Settings) -> None:
    server.add(malformed())
    llm = LLM(openai_settings.replace(code_style="fenced"))
    with pytest.raises(LLMError, match="sent a malformed stream"):
        run(llm)
    assert len(server.chat_requests) == 1


def test_malformed_tool_arguments_come_back_as_a_call_to_correct(
    server: LLMServer, openai_settings: Settings
) -> None:
    server.add(raw_tool_call("print('not json')"))
    _, reply = run(LLM(openai_settings.replace(code_style="tools")))
    [call] = reply.calls
    assert call.problem == "its arguments are not JSON: print('not json')"
    assert reply.message["tool_calls"][0]["function"]["arguments"] == "{}"


def test_should_stop_ends_the_reply_early(server: LLMServer, openai_settings: Settings) -> None:
    words = " ".join(f"word{n}" for n in range(40))
    server.add(text(words + "\n```python\nprint(1)\n```", pace=0.02))
    seen: list[str] = []
    stream = LLM(openai_settings.replace(code_style="fenced")).stream(
        USER, should_stop=lambda: len(seen) >= 3
    )
    for item in stream:
        if isinstance(item, str):
            seen.append(item)
        else:
            reply = item
    assert reply.stopped and reply.calls == []
    assert reply.text == "".join(seen) == "word0 word1 word2 "
    assert reply.message == {"role": "assistant", "content": reply.text}


def test_a_fenced_reply_the_callers_cut_ends_stops_streaming_and_keeps_the_cut_words(
    server: LLMServer, openai_settings: Settings
) -> None:
    block = "```shell\nls -l data | sort\n```\n"
    content = "Let me check.\n" + "Checking again:\n".join([block] * 30)
    server.add(text(content, pace=0.01))
    asked: list[str] = []

    def cut(words: str) -> str | None:
        asked.append(words)
        return words.split("\nChecking again:")[0].rstrip("\n") if words.count("```") >= 4 else None

    seen, reply = run(LLM(openai_settings.replace(code_style="fenced")),
                      should_stop=lambda: False, cut=cut)
    assert not reply.stopped and reply.cut and asked
    assert reply.text == "Let me check.\n```shell\nls -l data | sort\n```"
    assert [(call.language, call.code) for call in reply.calls] == [("shell", "ls -l data | sort")]
    assert len(seen) < len(pieces(content)) // 10  # the stream was cut, not read to its end


def test_should_stop_drops_a_half_written_tool_call(
    server: LLMServer, openai_settings: Settings
) -> None:
    server.add(tool_call("python", "print('a long line')", text="Starting now."))
    stop = threading.Event()
    llm = LLM(openai_settings.replace(code_style="tools"))
    for reply in llm.stream(USER, should_stop=stop.is_set):
        if isinstance(reply, CodeDraft):
            stop.set()  # the call is half written: its first code has arrived
    assert isinstance(reply, Reply) and stop.is_set()
    assert reply.stopped and reply.calls == []
    assert reply.text == "Starting now."
    assert reply.message == {"role": "assistant", "content": "Starting now."}


def test_a_history_near_the_window_loses_its_oldest_turn(
    server: LLMServer, openai_settings: Settings
) -> None:
    """A short history goes whole; one that nears the window is counted by the real
    tokenizer and its oldest turn is dropped (a turn here is 163 tokens, the tool 126)."""
    turn = [{"role": "user", "content": "word " * 150}, {"role": "assistant", "content": "ok"}]
    llm = LLM(openai_settings.replace(code_style="tools", context_window=500, max_tokens=100))
    server.add(text("Short."), text("Trimmed."))
    run(llm)
    run(llm, [USER[0], *turn, *turn, USER[1]])
    short, long = (r.body["messages"] for r in server.chat_requests)
    assert short == USER
    assert long == [USER[0], *turn, USER[1]]
