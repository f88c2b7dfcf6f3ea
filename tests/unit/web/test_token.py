from __future__ import annotations

import stat
from pathlib import Path

from assistant.web.token import TokenFile


def test_the_token_is_made_once_private_and_rotated(tmp_path: Path) -> None:
    tokens = TokenFile(tmp_path / "new")
    first = tokens.get()
    assert len(first) >= 40 and tokens.get() == first
    assert stat.S_IMODE(tokens.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(tokens.path.parent.stat().st_mode) == 0o700
    second = tokens.rotate()
    assert second != first and tokens.get() == second
    assert tokens.matches(second) and not tokens.matches(first) and not tokens.matches("")
    assert [p.name for p in tokens.path.parent.iterdir()] == ["web-token"]


def test_a_loose_old_file_is_made_private_on_rotation(tmp_path: Path) -> None:
    tokens = TokenFile(tmp_path)
    tokens.path.write_text("old\n")
    tokens.path.chmod(0o644)
    assert tokens.get() == "old"
    tokens.rotate()
    assert stat.S_IMODE(tokens.path.stat().st_mode) == 0o600


def test_a_start_makes_a_new_token_unless_it_is_kept(tmp_path: Path) -> None:
    tokens = TokenFile(tmp_path)
    first = tokens.at_start(keep=False)
    second = tokens.at_start(keep=False)
    assert second != first and not tokens.matches(first)
    assert tokens.at_start(keep=True) == second and tokens.matches(second)
