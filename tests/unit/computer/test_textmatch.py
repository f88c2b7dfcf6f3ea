"""Choosing the text the caller meant among OCR results."""

from __future__ import annotations

import pytest

from assistant.computer.textmatch import AmbiguousText, TextNotFound, find, normalize, pick


def items(*entries: tuple[str, int, int]) -> list[dict]:
    return [{"id": n, "text": text, "box": [x, y, 40, 20], "score": 0.9}
            for n, (text, x, y) in enumerate(entries, start=1)]


SCREEN = items(("Save draft", 10, 10), ("Save", 200, 10), ("Confirm export", 10, 100),
               ("OK", 20, 140), ("Delete all", 300, 100), ("OK", 310, 140))


def test_exact_text_beats_text_that_contains_it() -> None:
    assert pick(SCREEN, "Save")["id"] == 2
    assert pick(SCREEN, "save")["match"] == "exact"


def test_a_whole_word_inside_a_longer_text_is_found_with_a_narrowed_box() -> None:
    found = find(items(("Open  Recent files", 0, 0)), "recent")
    assert [f["match"] for f in found] == ["word"]
    assert 0 < found[0]["box"][0] < 40 and found[0]["box"][2] < 40


def test_equal_matches_raise_with_indexes_and_index_picks_one() -> None:
    with pytest.raises(AmbiguousText) as raised:
        pick(SCREEN, "OK")
    message = str(raised.value)
    assert "[0] 'OK' at (40, 150)" in message and "[1] 'OK' at (330, 150)" in message
    assert "index=N" in message
    assert pick(SCREEN, "OK", index=1)["id"] == 6
    with pytest.raises(IndexError, match="matches 2"):
        pick(SCREEN, "OK", index=5)


def test_near_prefers_the_match_closest_to_another_text() -> None:
    assert pick(SCREEN, "OK", near="Delete all")["id"] == 6
    assert pick(SCREEN, "OK", near="Confirm export")["id"] == 4
    with pytest.raises(TextNotFound, match="near='Nowhere'"):
        pick(SCREEN, "OK", near="Nowhere")


def test_missing_text_lists_what_is_there_and_lookalikes_are_a_last_resort() -> None:
    with pytest.raises(TextNotFound, match="seen: 'Save draft', 'Save'"):
        pick(SCREEN, "Print")
    assert pick(items(("Cance1", 0, 0)), "Cancel")["match"] == "lookalike"
    with pytest.raises(ValueError, match="empty text"):
        find(SCREEN, "  ")


def test_normalize_ignores_case_spacing_and_trailing_punctuation() -> None:
    assert normalize("  Customer:  Name… ") == "customer: name"
    assert normalize("File name:") == "file name"
