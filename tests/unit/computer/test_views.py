"""The folder through which the runtime hands screens to the session."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.computer import views
from assistant.computer.coords import Rect, Viewport


def test_views_are_numbered_and_read_back_in_order(tmp_path: Path) -> None:
    port = Viewport.fit(Rect(0, 0, 2560, 1600), 1280)
    first = views.save(port, None, None, folder=tmp_path)
    second = views.save(port, None, [{"id": 1, "text": "OK", "box": [1, 2, 3, 4]}],
                        folder=tmp_path)
    assert (first.number, second.number) == (1, 2)
    latest = views.latest(tmp_path)
    assert latest is not None and latest.viewport == port and latest.items[0]["text"] == "OK"
    assert [v.number for v in views.since(tmp_path, 1)] == [2]
    views.update_items(first, [{"id": 9}], folder=tmp_path)
    assert views.load(tmp_path, 1).items == [{"id": 9}]
    assert not list(tmp_path.glob(".*"))


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    monkeypatch.setenv(views.DIR_VARIABLE, str(tmp_path / "v"))
    monkeypatch.setenv(views.MAX_SIDE_VARIABLE, "640")
    assert views.directory() == tmp_path / "v" and views.directory().is_dir()
    assert views.max_side() == 640
    monkeypatch.setenv(views.MAX_SIDE_VARIABLE, "lots")
    assert views.max_side() == 1280
