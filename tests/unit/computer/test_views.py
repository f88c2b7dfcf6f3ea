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
    views.update_items(first, [{"id": 1, "text": "Cancel", "box": [50, 2, 3, 4]}],
                       folder=tmp_path)
    assert [i["text"] for i in views.load(tmp_path, 1).items] == ["Cancel"]
    assert not list(tmp_path.glob(".*"))


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    monkeypatch.setenv(views.DIR_VARIABLE, str(tmp_path / "v"))
    monkeypatch.setenv(views.MAX_SIDE_VARIABLE, "640")
    assert views.directory() == tmp_path / "v" and views.directory().is_dir()
    assert views.max_side() == 640
    monkeypatch.setenv(views.MAX_SIDE_VARIABLE, "lots")
    assert views.max_side() == 1280


def item(text: str, x: int, role: str = "") -> dict:
    return {"id": 0, "text": text, "box": [x, 10, 40, 20], "role": role}


def test_an_id_names_one_thing_for_the_whole_conversation(tmp_path: Path) -> None:
    """The map the model was shown and a map a run read later give the same thing the
    same id; a new thing gets an id never used, so an old id never means something else."""
    port = Viewport.fit(Rect(0, 0, 1280, 800), 1280)
    shown = [item("No", 100, "push button"), item("Yes", 200, "push button")]
    views.save(port, None, shown, folder=tmp_path)
    assert [i["id"] for i in shown] == [1, 2]
    again = [item("Export now?", 10, "label"), item("Yes", 205, "push button"),
             item("No", 400, "push button")]  # No moved far: another control
    views.save(port, None, again, folder=tmp_path)
    assert [i["id"] for i in again] == [3, 2, 4]
    assert views.item(2, tmp_path)["box"][0] == 205  # the newest place of what 2 names
    assert views.item(1, tmp_path)["text"] == "No"  # only in the map shown first
    assert views.item(99, tmp_path) is None
    later = [item("Yes", 205, "push button"), item("Yes", 600, "push button")]
    views.save(port, None, later, folder=tmp_path)
    assert [i["id"] for i in later] == [2, 5]
