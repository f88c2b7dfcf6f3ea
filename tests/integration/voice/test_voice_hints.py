"""The screen's words for a take come from a real window on Xvfb, read by the real OCR;
the assistant's own window (its panel, which shows the last request) gives none."""

from __future__ import annotations

from pathlib import Path

from tests.support.tk_app import TkApp


def test_hints_read_the_labels_on_screen_once_the_ocr_engine_is_loaded(display: str,
                                                                      tmp_path: Path) -> None:
    from assistant.computer import display as screen
    from assistant.computer import ocr
    from assistant.voice.hints import Hints

    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "kestrel_budget.ods").write_text("x")
    with TkApp(tmp_path / "events.jsonl", layout="dialog"), \
            TkApp(tmp_path / "own.jsonl", x=700, title="assistant: thinking"):
        if not ocr.warm():  # a take never pays for loading it: only titles, then
            hints = Hints(tmp_path / "work")
            assert hints.wait(30)
            assert "Cancel" not in hints.text().removesuffix(".").split(", ")
            screen.text_map()  # what a screen-aware turn does first
        assert ocr.warm()
        hints = Hints(tmp_path / "work")
        assert hints.wait(60)
        words = hints.text().removesuffix(".").split(", ")
    assert {"Export finished", "OK", "Cancel"} <= set(words), words
    assert not {"assistant: thinking", "Save draft", "Apply"} & set(words), words  # its own
    assert words[-1] == "kestrel_budget.ods"  # the screen first: it is what is named most
