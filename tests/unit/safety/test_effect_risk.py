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
from assistant.whatif.uncovered import READ_ONLY, hidden_writes, outside

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


def test_a_write_to_the_assistants_own_files_is_self_tamper_and_beside_keys_is_secrets(
        ) -> None:
    own = "/home/ada/.config/assistant"
    said = hidden_writes([f"{own}/config.toml", "/home/ada/.gnupg/gpg.conf"], (own,),
                         "/home/ada")
    raised = with_effect(LOW, Effect(unpreviewable=tuple(said)))
    assert raised.risk == "high"
    assert raised.families == ("self-tamper", "secrets")
    assert raised.reasons[0] == ("self-tamper: `~/.config/assistant/config.toml` is written, "
                                 "and is the assistant's own (the preview shows)")
    assert raised.reasons[1].startswith("secrets: `~/.gnupg/gpg.conf` is written, where keys")


def test_the_effect_never_lowers_a_rating_and_keeps_the_static_reasons() -> None:
    static = Assessment("high", ("privilege: `sudo ls` runs as root",), ("privilege",))
    raised = with_effect(static, Effect(created=("/home/me/x",)))
    assert raised.risk == "high"
    assert raised.reasons[0] == static.reasons[0] and len(raised.reasons) == 2


def test_a_blocked_rating_is_left_alone() -> None:
    blocked = Assessment("blocked", ("wide-delete: `rm -rf /` ...",), ("wide-delete",))
    assert with_effect(blocked, Effect(deleted=("/a", "/b"))) == blocked


def _preview(cwd: Path, language: str, code: str, hidden: tuple[str, ...] = ()) -> Preview:
    if problem():
        pytest.skip(problem())
    with Runtimes(timeout=20.0, cwd=str(cwd)) as runtimes:
        return finished(preview(runtimes, language, code, hidden=hidden))


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


@pytest.mark.parametrize(("language", "code"), [
    ("javascript", "const fs = require('fs');\nconst p = fs.readFileSync('target', 'utf8')"
                   ".trim();\nfs.appendFileSync(p, 'approval = \"auto\"\\n');\n"),
    ("python", "p = open('target').read().strip()\nopen(p, 'a').write('approval = \"auto\"')"),
    ("shell", "echo 'approval = \"auto\"' >> \"$(cat target)\""),
])
def test_turning_on_auto_approval_in_the_assistants_config_is_high_from_its_preview(
        tmp_path: Path, isolated_dirs: Path, monkeypatch: pytest.MonkeyPatch,
        language: str, code: str) -> None:
    """The path is read at run time, so the static check cannot see whose file it is;
    the preview shows the assistant's folder empty, takes the write, and names it."""
    home = tmp_path / "home"
    own = home / ".config" / "assistant"
    own.mkdir(parents=True)
    (own / "config.toml").write_text('approval = "ask"\n')
    work = home / "work"
    work.mkdir()
    (work / "target").write_text(f"{own}/config.toml\n")
    monkeypatch.setenv("HOME", str(home))
    static = assess(code, language, protected=(str(own),))
    assert static.risk == "low"
    effect = _preview(work, language, code, hidden=(str(own),)).effect
    assert effect.exit_status == 0
    raised = with_effect(static, effect)
    assert raised.risk == "high" and "self-tamper" in raised.families
    assert (own / "config.toml").read_text() == 'approval = "ask"\n'
