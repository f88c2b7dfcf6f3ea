"""The undo store on real files: what a run replaced comes back byte for byte, and a
file changed since stops the undo before anything is touched."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from assistant.whatif import undo
from assistant.whatif.undo import UndoError, UndoStore
from tests.support.folders import contents


def change(path: Path, kind: str, what: str) -> dict[str, Any]:
    return {"path": str(path), "change": what, "kind": kind}


def run_for_real(store: UndoStore, folder: Path) -> str:
    """Keep, then do what a run would: edit, delete, make a folder with a file, chmod."""
    changes = [change(folder / "notes.txt", "file", "modified"),
               change(folder / "logs", "dir", "deleted"),
               change(folder / "logs" / "a.log", "file", "deleted"),
               change(folder / "logs" / "b.log", "file", "deleted"),
               change(folder / "new", "dir", "created"),
               change(folder / "new" / "x.txt", "file", "created"),
               change(folder / "run.sh", "file", "modified")]
    kept = store.keep(changes)
    (folder / "notes.txt").write_text("second\n")
    for name in ("a.log", "b.log"):
        (folder / "logs" / name).unlink()
    (folder / "logs").rmdir()
    (folder / "new").mkdir()
    (folder / "new" / "x.txt").write_text("x")
    os.chmod(folder / "run.sh", 0o755)
    return kept.commit("Changes things.", str(folder), [])


def test_undo_puts_back_bytes_modes_and_folders(folder: Path, tmp_path: Path) -> None:
    store = UndoStore(tmp_path / "undo")
    before = contents(folder)
    run_id = run_for_real(store, folder)
    assert contents(folder) != before
    assert store.undo()["run"] == run_id
    assert contents(folder) == before
    with pytest.raises(UndoError, match="there is no run to undo"):
        store.undo()
    with pytest.raises(UndoError, match="was undone already"):
        store.undo(run_id)
    kinds = [json.loads(line)["kind"] for line in
             (tmp_path / "undo" / "journal.jsonl").read_text().splitlines()]
    assert kinds == ["run", "undo"]


def test_a_file_changed_since_stops_the_undo_before_anything_is_touched(
        folder: Path, tmp_path: Path) -> None:
    store = UndoStore(tmp_path / "undo")
    run_for_real(store, folder)
    (folder / "new" / "x.txt").write_text("edited by hand")
    after = contents(folder)
    with pytest.raises(UndoError, match=r"new/x.txt changed since run .*; nothing was put back"):
        store.undo()
    assert contents(folder) == after
    (folder / "new" / "x.txt").write_text("x")
    (folder / "new" / "mine.txt").write_text("made later")
    with pytest.raises(UndoError, match=r"holds mine\.txt, made after run"):
        store.undo()


def test_the_store_is_bounded_by_size_and_age(folder: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    store = UndoStore(tmp_path / "undo")
    run_id = run_for_real(store, folder)
    manifest = tmp_path / "undo" / run_id / "manifest.json"
    data = json.loads(manifest.read_text())
    data["time"] = time.time() - undo.KEEP_SECONDS - 1
    manifest.write_text(json.dumps(data))
    store.prune()
    assert store.runs() == []
    monkeypatch.setattr(undo, "KEEP_BYTES", 4)
    with pytest.raises(UndoError, match="more than undo keeps"):
        store.keep([change(folder / "notes.txt", "file", "modified")])
