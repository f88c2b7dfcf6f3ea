"""What a path means, however it is spelled: one normalisation for every comparison."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.safety import paths


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home" / "ann"
    folder.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(folder))
    return folder


def test_every_spelling_of_home_is_one(home: Path) -> None:
    spellings = [f"{home}/Documents", "~/Documents", "$HOME/Documents", "${HOME}/Documents",
                 f"{home}//Documents/", "~/Music/../Documents", "~ann/Documents"]
    assert {paths.normalise(s) for s in spellings} == {"~/Documents"}
    assert paths.normalise("/home/bob/notes.txt") == "~/notes.txt"
    assert paths.normalise("./photos/") == "photos"


def test_own_folders_are_protected_under_home_and_outside(home: Path, tmp_path: Path) -> None:
    under = (str(home / ".config" / "assistant"), str(home / ".local" / "share" / "assistant"))
    for target in ("~/.config/assistant/config.toml", "$HOME/.config/assistant/profiles/x.toml",
                   f"{home}/.local/share/assistant/journal.db", "~/.config"):
        assert paths.is_protected(target, under), target
    assert not paths.is_protected("~/.config/other/app.toml", under)
    outside = (str(tmp_path / "etc-assistant"),)
    assert paths.is_protected(f"{tmp_path}/etc-assistant/config.toml", outside)
    assert not paths.is_protected("~/etc-assistant/config.toml", outside)


def test_wide_is_what_a_user_would_lose_wholesale(home: Path) -> None:
    for wide in ("~", "~/", "~/Documents", "~/projects", "~/Pictures/*", "/", "/etc", "/usr/*",
                 "/mnt/backup", "/media/ann/usb", "~/..", f"{home}/Videos"):
        assert paths.is_wide(wide), wide
    for narrow in ("~/.cache", "~/tmp", "~/Documents/report.pdf", "~/projects/app/build",
                   "$?", "~/$?", "~/<var>", "photos", "*.log", "/tmp/x"):
        assert not paths.is_wide(narrow), narrow


def test_listings_tell_every_file_from_some(home: Path) -> None:
    assert paths.is_everything_under("~/**") and paths.is_everything_under("~/Documents/*")
    assert paths.is_everything_under("/etc/**/$?")
    assert not paths.is_everything_under("~/**/*.tmp")
    assert paths.under_wide_listing("~/**/*.tmp")
    assert not paths.under_wide_listing("./**/*.tmp")
