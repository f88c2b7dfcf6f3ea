"""What is said of long text: the plan, an answer's first sentence, an error without its URL."""

import pytest

from assistant.voice.brief import ON_SCREEN, brief_answer, brief_error, plain, plan_of


def test_the_plan_is_the_first_sentence_before_the_code_without_markdown() -> None:
    text = ("I'll read the first line of `notes.txt`. To do this, **open** it in Python:\n\n"
            "```python\nprint(open('notes.txt').readline())\n```\nThen I'll tell you.")
    assert plan_of(text) == "I'll read the first line of notes.txt."


@pytest.mark.parametrize(("text", "plan"), [
    ("You can use the following code:\n```shell\ndf -h\n```", "You can use the following code."),
    ("## Checking disk space\n\n", "Checking disk space."),
    ("", ""),
    ("```shell\nls\n```", ""),
])
def test_plans_from_what_models_write(text, plan) -> None:
    assert plan_of(text) == plan


def test_plain_keeps_underscores_in_names() -> None:
    assert plain("Open `my_notes_2.txt` and __look__ at *it*") == (
        "Open my_notes_2.txt and look at it")


def test_a_short_answer_is_said_whole() -> None:
    assert brief_answer("There are 12 files. The largest is a.zip.") == (
        "There are 12 files. The largest is a.zip.")


def test_a_long_answer_is_its_first_sentence_and_where_the_rest_is() -> None:
    answer = ("Your disk has 41 GB free. " + "The largest folders are these. " * 5
              + "\n\n- Downloads: 12 GB\n- Videos: 9 GB")
    assert brief_answer(answer) == f"Your disk has 41 GB free. {ON_SCREEN}"


def test_an_unreachable_model_is_one_sentence_without_its_address() -> None:
    said = brief_error("Cannot reach the LLM at http://127.0.0.1:9/v1: is the server running? "
                       "(set --api-base)")
    assert said == "I can't reach the language model; details are on screen."


@pytest.mark.parametrize("text", [
    "The LLM at http://127.0.0.1:8080/v1 did not answer within 60 s (raise llm_timeout)",
    "Something odd at 10.0.0.2:8080 happened: see https://example.org/x for the reasons why",
    "An error nobody foresaw, with a very long explanation of what happened and why it did",
])
def test_errors_are_short_and_never_a_url(text) -> None:
    said = brief_error(text)
    assert "://" not in said and "127.0" not in said and "10.0" not in said
    assert said.endswith("details are on screen.") and len(said.split()) <= 14, said
