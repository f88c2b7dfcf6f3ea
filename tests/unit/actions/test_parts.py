"""The parts every way in acts with: the runtimes start where their views of the screen
are looked for, and that folder goes with the parts."""

from __future__ import annotations

from pathlib import Path

from assistant.actions.parts import build, views_env
from assistant.computer import views
from assistant.config import Settings


def test_runtimes_get_the_views_folder_and_the_size_limit(tmp_path: Path) -> None:
    settings = Settings(model="openai/gpt-4o-mini", screenshot_max_side=900)
    env = views_env(settings, tmp_path, {"PATH": "/bin"})
    assert env == {"PATH": "/bin", views.DIR_VARIABLE: str(tmp_path),
                   views.MAX_SIDE_VARIABLE: "900"}


def test_the_built_runtimes_write_views_where_the_parts_look_and_close_removes_it(
        tmp_path: Path) -> None:
    said: list[str] = []
    settings = Settings(model="openai/gpt-4o-mini", journal=False, data_dir=str(tmp_path),
                        sandbox="off")
    parts = build(settings, None, said.append, tools=False)
    try:
        assert parts.views.is_dir()
        assert parts.runtimes.env is not None
        assert parts.runtimes.env[views.DIR_VARIABLE] == str(parts.views)
    finally:
        parts.close()
    assert not parts.views.exists()
