"""Answers that repeat the loop's own words back: never asked for again, they end in the
words of what ran, lose the paragraphs that repeat the loop, or are told what falls short
by the answer checks. Through real litellm and real runtimes."""

from __future__ import annotations

from pathlib import Path

from assistant.checks.answers import NO_FIGURE, UNCHANGED
from assistant.events import TurnEnd
from tests.support.llm_server import LLMServer, fenced, text
from tests.support.loop import make, notices, runs, told

# What a small model says after a silent successful run: the loop's closing words.
ECHO = ("Check the results against that, then take the next step, or answer the user if the "
        "task is done.")


def test_an_answer_that_only_echoes_the_loop_is_not_asked_again_and_ends_in_what_ran(
    server: LLMServer, work: Path
) -> None:
    (work / "base.json").write_text('{"a": 1}')
    merge = "import json\njson.dump(json.load(open('base.json')), open('merged.json', 'w'))"
    server.add(fenced("python", merge), text(ECHO), text("Merged."))
    with make(server, "fenced") as a:
        events = list(a.turn("merge base.json into merged.json"))
    assert len(server.chat_requests) == 2 and len(runs(events)) == 1  # no extra call
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "answered"
    assert end.text == "Files written in this turn: merged.json."
    assert a.messages[-1] == {"role": "assistant", "content": end.text}


def test_an_echo_after_a_run_that_falls_short_is_told_what_is_missing(
    server: LLMServer, work: Path
) -> None:
    (work / "a.md").write_text("colour\n")
    server.add(fenced("shell", "cat a.md"), text(ECHO), text("a.md is not changed yet."))
    with make(server, "fenced") as a:
        events = list(a.turn("replace colour with color in a.md"))
    assert told(server, 2).endswith(UNCHANGED.format("a.md"))
    assert "checked against what ran" in notices(events)
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.text == "a.md is not changed yet."


def test_a_final_answer_loses_the_paragraphs_that_repeat_what_the_loop_told(
    server: LLMServer, work: Path
) -> None:
    (work / "numbers.txt").write_text("17\n1106\n")
    code = "print(sum(int(n) for n in open('numbers.txt')))"
    told_back = NO_FIGURE.format("tell me the sum")
    server.add(fenced("python", code), text("The sum is printed above."),
               fenced("python", "print('checked')"), text(f"{told_back}\n\nThe sum is 1123."))
    with make(server, "fenced") as a:
        events = list(a.turn("add up the numbers in numbers.txt and tell me the sum"))
    assert told(server, 2).endswith(told_back)
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.text == "The sum is 1123."
    assert a.messages[-1] == {"role": "assistant", "content": "The sum is 1123."}
