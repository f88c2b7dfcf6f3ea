"""The checks of a final answer's words: one that only repeats the loop gives way to the
record's words, one that begins with the loop's words loses them, and each is a rule that
can be turned off."""

from __future__ import annotations

from pathlib import Path

from assistant.actions.apply import applies, chosen, first
from assistant.checks.reply import finish, guessed, review
from assistant.checks.state import TurnState
from assistant.checks.verdicts import Edit, SendBack, StandIn
from assistant.events import RunEnd
from assistant.llm import CodeCall, Reply
from assistant.messages import NEXT_STEP, fenced_message
from tests.support.turns import ran
from tests.support.turns import turn as state

REQUEST = "show me notes.txt"
FAILED = "cat: notes.txt: No such file or directory\n"


def keep(text: str) -> str:
    return text


def turn(folder: Path, off: str = "") -> tuple[TurnState, list[dict]]:
    record = state(REQUEST, folder, off=off)
    ran(record, FAILED, status=1, code="cat notes.txt")
    messages = [{"role": "user", "content": REQUEST},
                {"role": "assistant", "content": "```shell\ncat notes.txt\n```"},
                fenced_message([(CodeCall("1", "shell", "cat notes.txt"), "Exit status 1 "
                                 "(failed).\nOutput:\n```\n" + FAILED + "```")])]
    return record, messages


def test_an_answer_of_the_loops_words_only_gives_way_to_what_ran(tmp_path: Path) -> None:
    record, messages = turn(tmp_path)
    done = first(record.rules, finish(NEXT_STEP, record, messages, keep))
    assert isinstance(done, StandIn) and done.rule == "echo.replace"
    assert done.words == ("1 run in this turn; the last failed (exit status 1): cat: "
                          "notes.txt: No such file or directory")


def test_the_loops_words_before_the_models_own_are_left_out(tmp_path: Path) -> None:
    record, messages = turn(tmp_path)
    done = first(record.rules, finish(f"{NEXT_STEP}\n\nnotes.txt is not here.", record,
                                      messages, keep))
    assert done == Edit("echo.trim", "notes.txt is not here.")
    assert first(record.rules, finish("notes.txt is not here.", record, messages, keep)) is None
    assert [(each.rule, each.action) for each in record.rules.fired] == [("echo.trim", "edit")]


def test_with_the_echo_rules_off_the_words_stand_as_given(tmp_path: Path) -> None:
    record, messages = turn(tmp_path, off="echo")
    assert first(record.rules, finish(NEXT_STEP, record, messages, keep)) is None
    assert record.rules.fired == []  # a verdict whose rule is off is never applied


def fenced_reply(text: str, calls: int = 1) -> Reply:
    proposals = [CodeCall(str(n), "shell", "ls") for n in range(calls)]
    return Reply(text, proposals, {"role": "assistant", "content": text}, None, "m")


def test_what_follows_the_last_block_is_left_out_of_the_history_as_a_guess() -> None:
    done = guessed(fenced_reply("```shell\nhostname\n```\nThe hostname is `localhost`."))
    assert done == Edit("history.guess", "```shell\nhostname\n```")
    two = "```python\nopen('a', 'w')\n```\nThen:\n```shell\nls\n```\nDone, a is there."
    assert guessed(fenced_reply(two, 2)) == Edit(
        "history.guess", "```python\nopen('a', 'w')\n```\nThen:\n```shell\nls\n```")
    assert guessed(fenced_reply("```json\n{}\n```\nNo code.", 0)) is None
    assert guessed(fenced_reply("```shell\nls\n```")) is None  # nothing follows


def test_an_answer_right_after_a_failed_preview_goes_back_once(tmp_path: Path) -> None:
    record = state("which category cost the most?", tmp_path)
    code = "import csv\nrows = list(csv.reader(open('transactions.csv')))"
    record.code.append(code)
    record.foresaw(RunEnd("1", 1, "FileNotFoundError: 'transactions.csv'\n", 0.1),
                   ("python", code), "FileNotFoundError")
    guess = fenced_reply("The category that cost the most is groceries.", 0)
    back = chosen(record.rules, review(guess, record))
    assert isinstance(back, SendBack) and back.rule == "answer.failed_last"
    assert "never ran: it failed (exit status 1) when tried" in str(back.told["content"])
    assert back.notice.startswith("The model answered right after its code failed in a preview")
    assert applies(record.rules, back) and record.stuck  # the next reply is asked warmer
    assert chosen(record.rules, review(guess, record)) is None  # once a turn: it stands


def test_a_preview_failure_before_a_successful_run_does_not_hold_back_its_answer(
        tmp_path: Path) -> None:
    record = state("which category cost the most?", tmp_path)
    record.foresaw(RunEnd("1", 1, "FileNotFoundError: 'transactions.csv'\n", 0.1),
                   ("python", "open('transactions.csv')"), "FileNotFoundError")
    ran(record, "groceries 412.50\n")
    assert record.failed_preview is None and record.runs == 1
    assert [each.previewed for each in record.tries] == [True, False]
    assert chosen(record.rules, review(fenced_reply("Groceries cost the most: 412.50.", 0),
                                       record)) is None
