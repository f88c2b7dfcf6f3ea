"""The risk check reads the effect: many or large deletes and writes outside the working
folder raise the rating whatever the static check said; nothing lowers it. The last
tests preview real code in real namespaces."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.events import Effect
from assistant.runtime import Runtimes
from assistant.safety.effect_risk import MANY_BYTES, MANY_FILES, with_effect
from assistant.safety.risk import Assessment, assess
from assistant.whatif.preview import Preview, finished, preview, problem
from assistant.whatif.uncovered import READ_ONLY, outside

LOW = Assessment("low", (), ())


def test_deleting_ten_files_raises_a_low_rating_to_high_with_a_reason() -> None:
    names = tuple(f"old/{n}.log" for n in range(MANY_FILES))
    raised = with_effect(LOW, Effect(deleted=names))
    assert raised.risk == "high"
    assert raised.families == ("delete",)
    assert raised.reasons[0].startswith("delete: `old/0.log, old/1.log, old/2.log and 7 more`")
    assert "10 files" in raised.reasons[0]


def test_nine_small_deletes_leave_the_rating_as_it_was() -> None:
    names = tuple(f"{n}.log" for n in range(MANY_FILES - 1))
    assert with_effect(LOW, Effect(deleted=names, sizes=dict.fromkeys(names, 10))) == LOW


def test_deleting_one_large_file_raises_the_rating_to_high() -> None:
    raised = with_effect(LOW, Effect(deleted=("disk.img",), sizes={"disk.img": MANY_BYTES}))
    assert raised.risk == "high"
    assert "100.0 MB" in raised.reasons[0]


def test_a_write_outside_the_working_folder_raises_low_to_medium() -> None:
    raised = with_effect(LOW, Effect(created=("/home/me/.bashrc.new",)))
    assert raised.risk == "medium"
    assert raised.reasons == ("outside-write: `/home/me/.bashrc.new` is outside the working "
                              "folder (the preview shows)",)


def test_a_folder_written_outside_stands_for_its_files_and_home_reads_as_a_tilde(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/me")
    gone = ("/home/me/Downloads/old/", "/home/me/Downloads/old/a.tar",
            "/home/me/Downloads/old/b.tar", "/home/me/Downloads/old/c.tar")
    raised = with_effect(LOW, Effect(deleted=gone))
    assert raised.reasons == ("outside-write: `~/Downloads/old` is outside the working "
                              "folder (the preview shows)",)


def test_a_write_the_preview_refused_raises_the_rating_to_medium() -> None:
    assert with_effect(LOW, Effect(unpreviewable=(READ_ONLY,))).risk == "medium"


def test_a_write_outside_home_is_medium_and_one_in_tmp_alone_leaves_the_rating() -> None:
    elsewhere = Effect(unpreviewable=(outside(["/srv/data/x", "/tmp/a"]),))
    assert with_effect(LOW, elsewhere).risk == "medium"
    assert with_effect(LOW, Effect(unpreviewable=(outside(["/tmp/a", "/dev/shm/b"]),))) == LOW


def test_the_effect_never_lowers_a_rating_and_keeps_the_static_reasons() -> None:
    static = Assessment("high", ("privilege: `sudo ls` runs as root",), ("privilege",))
    raised = with_effect(static, Effect(created=("/home/me/x",)))
    assert raised.risk == "high"
    assert raised.reasons[0] == static.reasons[0] and len(raised.reasons) == 2


def test_a_blocked_rating_is_left_alone() -> None:
    blocked = Assessment("blocked", ("wide-delete: `rm -rf /` ...",), ("wide-delete",))
    assert with_effect(blocked, Effect(deleted=("/a", "/b"))) == blocked


def _preview(cwd: Path, language: str, code: str) -> Preview:
    if problem():
        pytest.skip(problem())
    with Runtimes(timeout=20.0, cwd=str(cwd)) as runtimes:
        return finished(preview(runtimes, language, code))


def test_a_python_loop_deleting_twelve_files_reads_low_statically_and_high_from_its_preview(
        tmp_path: Path, isolated_dirs: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    for n in range(12):
        (work / f"{n}.log").write_text("x")
    code = "import os\nfor name in os.listdir('.'):\n    os.remove(name)\n"
    static = assess(code, "python")
    assert static.risk != "high"
    effect = _preview(work, "python", code).effect
    assert len(effect.deleted) == 12
    assert with_effect(static, effect).risk == "high"
    assert sorted(p.name for p in work.iterdir()) == sorted(f"{n}.log" for n in range(12))


def test_a_shell_write_into_home_outside_the_working_folder_is_rated_medium(
        tmp_path: Path, isolated_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    work = home / "work"
    work.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    code = "echo hi > ../note.txt"
    effect = _preview(work, "shell", code).effect
    assert effect.created == (str(home / "note.txt"),)
    raised = with_effect(assess(code, "shell"), effect)
    assert raised.risk in ("medium", "high")
    assert any(r.startswith("outside-write:") for r in raised.reasons)
    assert not (home / "note.txt").exists()
