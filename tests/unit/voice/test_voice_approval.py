"""Spoken replies to a proposal: only a plain yes or no counts as one."""

import pytest

from assistant.voice.approval import classify_answer


@pytest.mark.parametrize("text", ["Yes.", "Run it!", "Go ahead", "yes please", "Okay.",
                                  "Yes, go ahead."])
def test_plain_yes_approves(text) -> None:
    assert classify_answer(text) == "approve"


@pytest.mark.parametrize("text", ["No.", "Cancel", "Stop!", "no thanks", "Never mind.",
                                  "No, don't run it."])
def test_plain_no_declines(text) -> None:
    assert classify_answer(text) == "decline"


@pytest.mark.parametrize("text", ["No, use the documents folder instead.",
                                  "Yes but only the PDF files", "What does it do?", "",
                                  "No, the other folder."])
def test_anything_else_revises(text) -> None:
    assert classify_answer(text) == "revise"


@pytest.mark.parametrize("text", ["Read the code.", "Read me the code, please.",
                                  "Can you read the code?", "say the code"])
def test_asking_for_the_code_reads_it(text) -> None:
    assert classify_answer(text) == "read"


def test_code_in_an_instruction_is_not_a_reading() -> None:
    assert classify_answer("read the code in notes.txt") == "revise"
