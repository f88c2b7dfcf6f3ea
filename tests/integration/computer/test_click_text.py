"""Click by text with offline OCR on a real Tk window: the window says what was clicked."""

from __future__ import annotations

import pytest

from assistant import computer
from assistant.computer import views
from assistant.computer.textmatch import AmbiguousText
from tests.support.require import require
from tests.support.tk_app import TkApp


def clicked(window: TkApp, start: int) -> dict:
    return window.wait_for(lambda r: r["event"] == "click", after=start)


def test_exact_word_beats_partial(window: TkApp, ocr_engine: str) -> None:
    start = window.mark()
    computer.mouse.click("Save")
    assert clicked(window, start)["widget"] == "Save"
    start = window.mark()
    computer.mouse.click("Save draft")
    assert clicked(window, start)["widget"] == "Save draft"


def test_equal_matches_are_listed_then_chosen_by_index_or_near(window: TkApp,
                                                              ocr_engine: str) -> None:
    start = window.mark()
    with pytest.raises(AmbiguousText, match=r"'OK' is on screen 2 times: \[0\] 'OK' at") as err:
        computer.mouse.click("OK")
    assert "[1] 'OK'" in str(err.value)
    assert window.records()[start:] == []
    computer.mouse.click("OK", index=1)
    right = clicked(window, start)
    start = window.mark()
    computer.mouse.click("OK", near="Confirm export")
    left = clicked(window, start)
    assert right["widget"] == left["widget"] == "OK" and left["x_root"] < 200 < right["x_root"]
    start = window.mark()
    computer.mouse.click("OK", near="Delete all")
    assert clicked(window, start)["x_root"] == right["x_root"]


def test_text_map_ids_and_find_text(window: TkApp, ocr_engine: str) -> None:
    items = computer.display.text_map()
    texts = [item["text"] for item in items]
    for wanted in ("Save", "Save draft", "Apply", "Cancel", "Customer"):
        assert wanted in texts
    assert len({item["id"] for item in items}) == len(items)
    apply_id = next(item["id"] for item in items if item["text"] == "Apply")
    start = window.mark()
    computer.mouse.click(id=apply_id)
    assert clicked(window, start)["widget"] == "Apply"
    with pytest.raises(LookupError, match="is in no screen read so far"):
        computer.mouse.click(id=999)
    found = computer.display.find_text("cancel")
    assert [(f["text"], f["match"]) for f in found] == [("Cancel", "exact")]


def test_view_is_saved_for_the_llm(window: TkApp) -> None:
    message = computer.display.view()
    assert message == "[screen 1280x800 will be shown with the next message]"
    assert repr(message) == message  # shown once, as it reads, as a run's last line
    shown = views.latest()
    assert shown is not None and shown.image is not None and shown.image.stat().st_size > 1000


def test_click_and_type_the_way_a_user_asks(window: TkApp, ocr_engine: str) -> None:
    """"Click the Apply button, then type ACME into the Customer field"."""
    start = window.mark()
    computer.mouse.click("Apply")
    assert clicked(window, start)["widget"] == "Apply"
    field = computer.display.find_text("Customer")[0]["box"]
    computer.mouse.click(field[0] + field[2] + 60, field[1] + field[3] // 2)
    computer.keyboard.hotkey("ctrl", "/")
    computer.keyboard.write("ACME")
    window.wait_for(lambda r: r.get("value") == "ACME", after=start)


def test_tesseract_reads_the_buttons_when_rapidocr_is_missing(window: TkApp) -> None:
    import shutil

    from assistant.computer import ocr

    require(shutil.which("tesseract"), "tesseract is not installed (tesseract-ocr)")
    items = ocr.tesseract_read(computer.display.capture(computer.display.viewport()))
    texts = [item["text"] for item in items]
    assert "Apply" in texts and "Cancel" in texts
    apply_box = next(item["box"] for item in items if item["text"] == "Apply")
    start = window.mark()
    computer.mouse.click(apply_box[0] + apply_box[2] // 2, apply_box[1] + apply_box[3] // 2)
    assert clicked(window, start)["widget"] == "Apply"


def test_parts_of_the_screen_seen_before_are_not_read_again(window: TkApp,
                                                           ocr_engine: str) -> None:
    from PIL import ImageDraw

    from assistant.computer import ocr

    require(ocr_engine == "rapidocr", "rapidocr is not installed (its caches are tested)")
    ocr.forget()
    before = computer.display.capture(computer.display.viewport())
    first = {item["text"] for item in ocr.read(before)}
    words, bands = len(ocr._words), len(ocr._bands)
    cancel = next(i["box"] for i in ocr.read(before) if i["text"] == "Cancel")
    after = before.copy()
    x, y, w, h = cancel
    ImageDraw.Draw(after).rectangle([x, y, x + w, y + h], fill=(217, 217, 217))
    second = {item["text"] for item in ocr.read(after)}
    assert second == first - {"Cancel"}
    assert len(ocr._bands) == bands + 1  # only the changed band was detected again
    assert len(ocr._words) == words  # every remaining word was read before
