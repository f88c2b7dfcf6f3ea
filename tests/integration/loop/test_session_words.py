"""Every turn ends in words that say what happened: when the model gives none, or only
the loop's own instructions back, they are written from the turn's record (what ran,
what it printed, what it wrote). Through real litellm and real runtimes."""

from __future__ import annotations

from pathlib import Path

from assistant.checks.answers import NO_FIGURE
from assistant.events import Event, RuleFired, TextDelta, TurnEnd
from tests.support.llm_server import LLMServer, fenced, text
from tests.support.loop import make, runs

COUNT = "ls *.txt | wc -l"


def test_a_repeat_stop_ends_with_what_the_run_printed_said_as_well_as_recorded(
    server: LLMServer, work: Path
) -> None:
    (work / "monday.txt").write_text("")
    (work / "tuesday.txt").write_text("")
    server.add(*[fenced("shell", COUNT) for _ in range(3)])
    with make(server, "fenced") as a:
        events = list(a.turn("how many text files are here?"))
    assert len(runs(events)) == 1 and len(server.chat_requests) == 3
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "repeated_success"
    assert end.text == "The last run printed:\n2"
    streamed = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert streamed.endswith(end.text)  # said, not only recorded


def test_an_answer_that_is_only_the_loops_instruction_gives_way_to_what_ran(
    server: LLMServer, work: Path
) -> None:
    (work / "tuesday.txt").write_text("")
    told_back = NO_FIGURE.format("how many")
    # not asked for again: it gives way to words from the record (rule echo.replace)
    server.add(fenced("shell", "ls | grep tues"), text("Here it is."), text(told_back))
    with make(server, "fenced") as a:
        events = list(a.turn("how many files have a name with tues in it?"))
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "answered"
    assert end.text == "The last run printed:\ntuesday.txt"
    assert len(server.chat_requests) == 3
    assert ("echo.replace", "stand_in") in [(e.rule, e.action) for e in events
                                            if isinstance(e, RuleFired)]


def stopped_at(server: LLMServer, request: str, word: str) -> list[Event]:
    """The turn's events, stopped as a person would once the streamed words hold `word`."""
    with make(server, "fenced") as a:
        events = []
        for event in a.turn(request):
            events.append(event)
            if isinstance(event, TextDelta) and word in event.text:
                a.interrupt()
    return events


def test_a_reply_cut_short_by_a_stop_after_a_run_gives_way_to_what_the_run_printed(
    server: LLMServer, work: Path
) -> None:
    """A stop in the middle of the model's words about a run ends the turn on what the run
    found, not on the half sentence that was streaming."""
    (work / "tuesday.txt").write_text("")
    words = "The results of the code you proposed are as follows: " + "and so on " * 40
    server.add(fenced("shell", "ls | grep tues"), text(words, pace=0.05))
    events = stopped_at(server, "which file has tues in its name?", "results")
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "interrupted"
    assert end.text == "The last run printed:\ntuesday.txt"
    streamed = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert streamed.endswith(end.text) and "and so on " * 40 not in streamed


def test_a_reply_cut_short_by_a_stop_before_anything_ran_keeps_its_words(
    server: LLMServer, work: Path
) -> None:
    server.add(text("Paris is the capital of France, " + "and so on " * 40, pace=0.05))
    events = stopped_at(server, "what is the capital of France?", "capital")
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "interrupted"
    assert end.text.startswith("Paris is the capital") and "and so on " * 40 not in end.text
