"""Fitting history into the window: the rules, with a character counter instead of a tokenizer."""

from __future__ import annotations

import copy
import re
from typing import Any

from assistant.llm.context import cut_middle, fit, reply_tokens, split_turns
from assistant.llm.reply import CodeCall
from assistant.messages import fenced_message


def chars(message: dict[str, Any]) -> int:
    content = message.get("content")
    return len(content) if isinstance(content, str) else 10


def system() -> dict[str, Any]:
    return {"role": "system", "content": "S" * 10}


def tool_turn(n: int, output: str = "out") -> list[dict[str, Any]]:
    call = {"id": f"c{n}", "type": "function", "function": {"name": "execute", "arguments": "{}"}}
    return [
        {"role": "user", "content": f"question {n}"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": f"c{n}", "content": output},
        {"role": "assistant", "content": f"answer {n}"},
    ]


def test_history_that_fits_is_returned_unchanged_as_a_copy() -> None:
    history = [system(), *tool_turn(1), *tool_turn(2)]
    before = copy.deepcopy(history)
    fitted = fit(history, 10_000, chars)
    assert fitted == history
    fitted[1]["content"] = "changed"
    assert history == before


def test_oldest_whole_turns_go_first_and_the_system_message_stays() -> None:
    history = [system(), *tool_turn(1), *tool_turn(2), *tool_turn(3)]
    one_turn = sum(chars(m) for m in tool_turn(3))
    fitted = fit(history, chars(system()) + 2 * one_turn, chars)
    assert fitted == [system(), *tool_turn(2), *tool_turn(3)]


def test_tool_calls_never_lose_their_results() -> None:
    history = [system(), *tool_turn(1), *tool_turn(2)]
    for budget in range(0, 200, 7):
        fitted = fit(history, budget, chars)
        call_ids = {c["id"] for m in fitted for c in m.get("tool_calls", [])}
        answered = {m["tool_call_id"] for m in fitted if m["role"] == "tool"}
        assert call_ids == answered


def test_the_last_turn_is_kept_even_when_alone_it_is_too_big() -> None:
    history = [system(), *tool_turn(1), {"role": "user", "content": "Q" * 500}]
    fitted = fit(history, 50, chars)
    assert fitted == [system(), {"role": "user", "content": "Q" * 500}]


def test_long_output_in_the_last_turn_is_cut_in_the_middle() -> None:
    big = "HEAD" + "x" * 20_000 + "TAIL"
    history = [system(), *tool_turn(1), *tool_turn(2, output=big)]
    fitted = fit(history, 3_000, chars)
    assert [m["role"] for m in fitted] == ["system", "user", "assistant", "tool", "assistant"]
    output = fitted[3]["content"]
    assert output.startswith("HEAD") and output.endswith("TAIL")
    assert "characters cut" in output
    assert sum(chars(m) for m in fitted) <= 3_000
    assert history[-2]["content"] == big


def test_the_longest_output_is_cut_before_shorter_ones() -> None:
    turn = [
        {"role": "user", "content": "do two things"},
        {"role": "tool", "tool_call_id": "a", "content": "a" * 1_000},
        {"role": "tool", "tool_call_id": "b", "content": "b" * 9_000},
    ]
    fitted = fit(turn, 5_000, chars)
    assert fitted[1]["content"] == "a" * 1_000
    assert len(fitted[2]["content"]) < 4_000


def test_fenced_results_belong_to_the_turn_they_answer() -> None:
    results = fenced_message([(CodeCall("x", "python", "print(1)"), "1")])
    history = [
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": "```python\nprint(1)\n```"},
        results,
        {"role": "assistant", "content": "It printed 1."},
        {"role": "user", "content": "second"},
    ]
    assert [len(t) for t in split_turns(history)] == [4, 1]


def test_the_screen_a_turn_starts_with_belongs_to_it_though_it_comes_first() -> None:
    def screen() -> dict:
        return {"role": "user", "kind": "screen", "content": [{"type": "text", "text": "s"}]}

    history = [screen(), {"role": "user", "content": "click Yes"},
               {"role": "assistant", "content": "Pressed."}, screen(),
               {"role": "user", "content": "now No"}, screen(),
               {"role": "assistant", "content": "Pressed No."}]
    assert [[m["content"] if isinstance(m["content"], str) else "screen" for m in turn]
            for turn in split_turns(history)] == [
        ["screen", "click Yes", "Pressed."], ["screen", "now No", "screen", "Pressed No."]]


def test_fenced_results_in_the_last_turn_are_shortened_not_dropped() -> None:
    big = fenced_message([(CodeCall("x", "shell", "ls"), "f\n" * 5_000)])
    history = [system(), {"role": "user", "content": "list"}, big]
    fitted = fit(history, 2_000, chars)
    assert len(fitted) == 3
    assert "characters cut" in fitted[2]["content"]
    assert fitted[1] == {"role": "user", "content": "list"}


def test_reply_tokens() -> None:
    assert reply_tokens(500, 8192) == 500
    assert reply_tokens(0, 8192) == 2048
    assert reply_tokens(0, 128_000) == 4096
    assert reply_tokens(0, 2) == 1


def test_cut_middle_keeps_both_ends() -> None:
    text = "start-" + "m" * 1000 + "-end"
    cut = cut_middle(text, 100)
    assert cut.startswith("start-") and cut.endswith("-end")
    assert "[... 910 characters cut ...]" in cut
    assert cut_middle("short", 100) == "short"


def test_repeated_cuts_report_what_is_really_missing() -> None:
    original = "".join(f"line {n}\n" for n in range(5_000))
    turn = [
        {"role": "user", "content": "go"},
        {"role": "tool", "tool_call_id": "a", "content": original},
    ]

    def uneven(message: dict[str, Any]) -> int:
        """Long texts look cheap per character: the first cut falls short, a second follows."""
        size = len(message["content"])
        return size // 4 if size > 20_000 else size

    fitted = fit(turn, 3_000, uneven)
    assert 2_000 < len(fitted[1]["content"]) < 3_000
    output = fitted[1]["content"]
    marker = re.search(r"\[\.\.\. (\d+) characters cut \.\.\.\]", output)
    assert marker is not None
    head, tail = output[: marker.start() - 1], output[marker.end() + 1 :]
    assert original.startswith(head) and original.endswith(tail)
    assert int(marker[1]) == len(original) - len(head) - len(tail)


def test_the_bound_without_a_tokenizer_is_never_below_the_real_count() -> None:
    from assistant.llm.backend import load_litellm
    from assistant.llm.context import surely_fits

    samples = [
        [system(), *tool_turn(1, "total 48\ndrwxr-xr-x  2 zoë staff  4096 ./Ünïcode 東京\n" * 20)],
        [{"role": "user", "content": "def f(x):\n    return {k: v for k, v in x.items()}\n" * 40}],
        [{"role": "user", "content": "🙂 " * 200 + "\x00\t\r"}],
    ]
    count = load_litellm().token_counter
    for messages in samples:
        real = count(model="gpt-4o-mini", messages=messages)
        assert surely_fits(messages, 10**6)
        assert not surely_fits(messages, real - 1), "the bound claimed a fit below the count"
