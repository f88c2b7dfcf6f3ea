"""Text turned into speech-sized pieces: proposals into words, streamed text into sentences."""

from __future__ import annotations

import pytest

from assistant.voice.sentences import SentenceSplitter
from assistant.voice.speakable import speak_proposal

LONG_PYTHON = "\n".join(
    ["import os", "from pathlib import Path", "folder = Path.home() / 'Desktop'"]
    + [f"# step {n}" for n in range(34)]
    + ["for path in folder.glob('Screenshot*.png'):",
       "    os.rename(path, path.with_name(path.stem[-10:] + '.png'))"]
)


def test_with_a_plan_the_plan_is_said_and_the_code_left_on_screen() -> None:
    words = speak_proposal("shell", "ls -la ~/Downloads", plan="I'll look in your downloads")
    assert words == "I'll look in your downloads."


def test_without_a_plan_one_short_line_is_read_as_words() -> None:
    assert speak_proposal("shell", "ls -la ~/Downloads") == (
        "Run shell: list files, long format, including hidden, in downloads.")


def test_longer_code_is_not_read_the_plan_says_what_it_does() -> None:
    assert speak_proposal("python", LONG_PYTHON, plan="This renames the screenshots.") == (
        "This renames the screenshots.")
    assert speak_proposal("shell", "cd ~/x\nls -l") == (
        "A 2-line shell command.")


def test_without_a_plan_long_code_is_summarised_by_size_and_effect() -> None:
    assert speak_proposal("python", LONG_PYTHON) == "A 39-line Python script that renames files."
    assert speak_proposal("python", LONG_PYTHON, mode="summary", plan="Renaming.") == (
        "Renaming. A 39-line Python script that renames files.")


def test_one_line_is_read_only_when_short() -> None:
    line = "print(open('notes.txt').read().splitlines()[0] if True else 'nothing at all')"
    assert speak_proposal("python", line) == "A 1-line Python script."


@pytest.mark.parametrize(("mode", "expected"), [
    ("summary", "Deleting it. A 1-line shell command that deletes files."),
    ("code", "Deleting it."),
    ("both", "Deleting it. A 1-line shell command that deletes files. "
             "Run shell: delete, recursively, forced, build."),
])
def test_modes_choose_summary_code_or_both(mode, expected) -> None:
    assert speak_proposal("shell", "rm -rf ~/build", plan="Deleting it", mode=mode) == expected


def test_short_python_loses_its_punctuation() -> None:
    assert speak_proposal("python", 'print("hello")') == "Run Python: print hello."


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="code, summary, both"):
        speak_proposal("python", "1", mode="loud")


def test_streamed_text_comes_out_sentence_by_sentence_without_code() -> None:
    splitter = SentenceSplitter()
    text = "Sure. I will list them:\n\n```bash\nls -l. ~/x\n```\nThat shows them! Done"
    pieces = [text[i:i + 3] for i in range(0, len(text), 3)]
    seen = []
    for piece in pieces:
        seen += splitter.feed(piece)
    assert seen == ["Sure.", "I will list them:", "That shows them!"]
    assert splitter.flush() == ["Done"]
    assert splitter.flush() == []


def test_markdown_marks_are_not_spoken() -> None:
    splitter = SentenceSplitter()
    assert splitter.feed("**Done**: the `build` folder is gone. ") == ["Done:",
                                                                       "the build folder is gone."]


@pytest.mark.parametrize(("sentence", "pieces"), [
    ("Sure, I can do that for you.", ["Sure,", "I can do that for you."]),
    ("Here is what I found.", ["Here is", "what I found."]),
    ("The backup finished; nothing was deleted.", ["The backup finished;",
                                                   "nothing was deleted."]),
    ("Yes, done.", ["Yes, done."]),
    ("Done.", ["Done."]),
])
def test_first_sentence_is_cut_so_its_first_words_are_heard_sooner(sentence, pieces) -> None:
    from assistant.voice.sentences import first_piece

    assert first_piece(sentence) == pieces
    assert " ".join(first_piece(sentence)) == sentence
