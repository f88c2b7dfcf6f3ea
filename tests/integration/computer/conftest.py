"""A real Tk window on the shared Xvfb, and the OCR engine loaded once per session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.computer import views
from tests.support.require import lacking
from tests.support.tk_app import TkApp


@pytest.fixture(autouse=True)
def view_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test starts with no screen shown, so coordinates are the primary monitor's."""
    folder = tmp_path / "views"
    monkeypatch.setenv(views.DIR_VARIABLE, str(folder))
    monkeypatch.delenv(views.MAX_SIDE_VARIABLE, raising=False)
    return folder


@pytest.fixture(scope="session")
def ocr_engine(display: str) -> str:
    """Load the OCR models once for all tests (seconds); fail in CI when none is installed."""
    from assistant.computer import ocr

    try:
        name = ocr.engine_name()
    except Exception as exc:
        lacking(f"no OCR engine: {exc}")
    if name == "rapidocr":
        ocr._rapid()
    return name


@pytest.fixture(scope="module")
def window(display: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TkApp]:
    with TkApp(tmp_path_factory.mktemp("tk") / "events.jsonl") as app:
        yield app
