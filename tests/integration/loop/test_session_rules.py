"""Which checks ran in a turn, by rule id: a request in French skips the rules that read
English, visibly, while those that work on structure still hold the answer to what ran;
a rule turned off stays silent; a turn the model leaves without words still ends in
words. Through real litellm, real runtimes and the journal."""

from __future__ import annotations

from pathlib import Path

from assistant.events import Event, RuleFired, TextDelta, TurnEnd
from assistant.journal import Journal
from assistant.rulebook import catalogue
from tests.support.llm_server import LLMServer, fenced, text
from tests.support.loop import make, told

REQUEST = "Combien de lignes contient notes.txt ?"
ENGLISH = {rule.id for rule in catalogue().values() if rule.english}


def fired(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.rule, e.action) for e in events if isinstance(e, RuleFired)]


def test_a_french_request_skips_the_english_checks_and_keeps_the_others(
    server: LLMServer, work: Path
) -> None:
    (work / "notes.txt").write_text("lundi\nmardi\nmercredi\n")
    server.add(fenced("shell", "wc -l < notes.txt"), text("notes.txt contient 42 lignes."),
               text("notes.txt contient 3 lignes."))
    with make(server, "fenced") as a:
        events = list(a.turn(REQUEST, "fr"))
        cid, settings = a.conversation_id, a.settings
    actions = fired(events)
    assert {rule for rule, action in actions if action == "skipped"} == ENGLISH
    assert ("peek.request", "annotate") in actions  # the file's first lines went with it
    assert ("answer.numbers", "send_back") in actions  # 42: no run printed it
    assert "(Answer in French.)" in str(server.chat_requests[0].body["messages"][-1])
    sent = [m for r in server.chat_requests for m in r.body["messages"]]
    assert not any("kind" in m for m in sent)  # the history's typed kinds stay here
    assert "Your answer gives 42, which appears in no output of your runs" in told(server, 2)
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.text == "notes.txt contient 3 lignes."
    # each firing comes before the event it led to, and the journal holds them all
    first = next(i for i, e in enumerate(events) if isinstance(e, RuleFired))
    assert first == 0
    records = Journal.in_dir(settings.data_path).conversation(cid)["records"]
    journaled = [(r["rule"], r["action"]) for r in records if r["kind"] == "rule"]
    assert journaled == actions


def test_the_same_request_in_english_skips_nothing(server: LLMServer, work: Path) -> None:
    (work / "notes.txt").write_text("monday\ntuesday\nwednesday\n")
    server.add(fenced("shell", "wc -l < notes.txt"), text("notes.txt has 3 lines."))
    with make(server, "fenced") as a:
        events = list(a.turn("How many lines does notes.txt have?"))
    assert [rule for rule, action in fired(events) if action == "skipped"] == []
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.text == "notes.txt has 3 lines."


def test_a_rule_turned_off_lets_the_answer_stand(server: LLMServer, work: Path) -> None:
    (work / "notes.txt").write_text("lundi\nmardi\nmercredi\n")
    server.add(fenced("shell", "wc -l < notes.txt"), text("notes.txt contient 42 lignes."))
    with make(server, "fenced", checks_off="answer.numbers,peek") as a:
        events = list(a.turn(REQUEST, "fr"))
    assert not {"answer.numbers", "peek.request"} & {rule for rule, _ in fired(events)}
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.text == "notes.txt contient 42 lignes."
    assert len(server.chat_requests) == 2


def test_a_turn_stopped_by_declines_ends_in_words_from_the_record(server: LLMServer,
                                                                  work: Path) -> None:
    for n in range(3):
        (work / f"old{n}.log").write_text("old")
    server.add(*[fenced("shell", f"rm -f old{n}.log") for n in range(3)])
    with make(server, "fenced", approver=lambda proposal: False) as a:
        events = list(a.turn("clean up the logs"))
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "declined"
    assert end.text == "Nothing ran: 3 proposals declined."
    # streamed too, so every front end shows it and a voice says it
    streamed = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert streamed.endswith("\n\nNothing ran: 3 proposals declined.")


def test_the_hosted_profile_skips_what_only_a_small_model_needs(server: LLMServer,
                                                                work: Path) -> None:
    (work / "data.csv").write_text("a,b\n1,2\n")
    for profile, peeked in (("small", True), ("hosted", False)):
        start = len(server.chat_requests)
        server.add(fenced("shell", "wc -l < data.csv"), text("data.csv has 2 lines."))
        with make(server, "fenced", checks_profile=profile) as a:
            events = list(a.turn("how many lines does data.csv have?"))
        asked = str(server.chat_requests[start].body["messages"][-1]["content"])
        assert ("data.csv (2 lines), first lines:\na,b\n" in asked) is peeked, profile
        assert (("peek.request", "annotate") in fired(events)) is peeked, profile


def test_a_reply_writing_its_block_again_is_cut_after_the_first_unless_the_rule_is_off(
    server: LLMServer, work: Path
) -> None:
    block = "```shell\necho checked\n```\n"
    looped = "Checking.\n" + "Again:\n".join([block] * 3)
    for off, kept in (("", 1), ("repeat.in_reply", 3)):
        server.add(text(looped), text("Checked."))
        with make(server, "fenced", checks_off=off) as a:
            events = list(a.turn("check the folder"))
        reply = next(m for m in a.messages if m["role"] == "assistant")
        assert reply["content"].count("echo checked") == kept, off
        assert (("repeat.in_reply", "edit") in fired(events)) is (not off), off


def test_a_guess_after_the_code_is_left_out_of_the_history_unless_the_rule_is_off(
    server: LLMServer, work: Path
) -> None:
    guess = "```shell\necho 5117\n```\nThe sum is 15."
    for off, kept in (("", "```shell\necho 5117\n```"), ("history", guess)):
        server.add(text(guess), text("The sum is 5117."))
        with make(server, "fenced", checks_off=off) as a:
            events = list(a.turn("add up the numbers"))
        reply = next(m for m in a.messages if m["role"] == "assistant")
        assert reply["content"] == kept, off
        assert (("history.guess", "edit") in fired(events)) is (not off), off
        streamed = "".join(e.text for e in events if isinstance(e, TextDelta))
        # the user saw the words as they came, the code as its proposal, not as words
        assert streamed.startswith("The sum is 15.") and "echo 5117" not in streamed


def test_a_reply_writing_on_long_after_its_code_ends_as_it_streams(
    server: LLMServer, work: Path
) -> None:
    """The words after the code (the screen written out again, here) are cut at the
    code's end once past GUESS_CHARS: the server is left before the rest is sent."""
    echo = "".join(f"Window {n} has a button and a field.\n" for n in range(60))
    rambling = f"```shell\necho pressed\n```\n{echo}"
    server.add(text(rambling, pace=0.01), text("Pressed."))
    # no screen, whether the session has a display or not: the shell's echo presses nothing
    with make(server, "fenced", screen_context="never") as a:
        events = list(a.turn("press the button"))
    reply = next(m for m in a.messages if m["role"] == "assistant")
    assert reply["content"] == "```shell\necho pressed\n```"
    assert ("history.guess", "edit") in fired(events)
    streamed = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert "Window 1 has" in streamed and "Window 30 has" not in streamed
    assert isinstance(events[-1], TurnEnd) and events[-1].text == "Pressed."
