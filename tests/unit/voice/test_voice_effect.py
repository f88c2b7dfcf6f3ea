"""A proposal is read out as its previewed effect, not as the model's plan: the plan "I
will list your largest files" over `rm -r ~/Downloads/old-backups` speaks the delete.
The effect comes from a real what-if run in a temporary home."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.events import Effect
from assistant.runtime import Runtimes
from assistant.voice.speakable import effect_words, speak_proposal
from assistant.whatif.preview import Preview, finished, preview, problem

PLAN = "I will list your largest files."
CODE = "rm -r ~/Downloads/old-backups"


def previewed(home: Path, language: str, code: str) -> Preview:
    if problem():
        pytest.skip(problem())
    with Runtimes(timeout=20.0, cwd=str(home)) as runtimes:
        return finished(preview(runtimes, language, code))


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    backups = home / "Downloads" / "old-backups"
    backups.mkdir(parents=True)
    (backups / "2019.tar").write_bytes(b"x" * 2000)
    (backups / "2020.tar").write_bytes(b"y" * 3000)
    monkeypatch.setenv("HOME", str(home))
    return home


def test_a_plan_that_claims_a_listing_over_a_delete_speaks_the_delete(home: Path) -> None:
    effect = previewed(home, "shell", CODE).effect
    said = speak_proposal("shell", CODE, PLAN, "code", effect)
    assert said == "Deletes the folder old-backups in downloads and the 2 files in it (5.0 KB)."
    assert "list" not in said.lower()
    assert (home / "Downloads" / "old-backups" / "2019.tar").exists()


def test_without_an_effect_the_plan_is_still_said() -> None:
    assert speak_proposal("shell", CODE, PLAN, "code") == PLAN


def test_paths_outside_the_working_folder_are_said_as_places_with_what_was_not_covered(
        ) -> None:
    effect = Effect(deleted=("/home/me/Downloads/old-backups/",),
                    summary="Deletes 1 folder (/home/me/Downloads/old-backups).",
                    unpreviewable=("uses the network, which a preview cuts off",))
    assert effect_words(effect) == ("Deletes 1 folder (old-backups in downloads). It also "
                                    "uses the network, which a preview cuts off.")


def test_a_harmless_effect_is_said_in_two_words_and_anything_else_as_on_screen(
        home: Path) -> None:
    listing = previewed(home, "shell", "ls -l ~/Downloads").effect
    assert listing.summary == "Changes no files." and effect_words(listing) == "Changes nothing."
    failed = Effect(exit_status=2, summary="Changes no files and fails with exit status 2.")
    assert effect_words(failed) == "Changes no files and fails with exit status 2."
    unseen = Effect(exit_status=0, summary="Changes no files.",
                    unpreviewable=("uses the network, which a preview cuts off",))
    assert effect_words(unseen) == ("Changes no files. It also uses the network, which a "
                                    "preview cuts off.")
