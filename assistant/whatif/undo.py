"""Undo: what a committed run replaced or deleted is kept, and can be put back.

Before a previewed run goes for real, every path its preview touched is recorded as it
is, with a copy of each file it will change or delete (a copy, never a hard link: a
second link changes what programs see, and gzip refuses such a file). After the run,
each path's new state is recorded too. `undo` puts the old states back, but only when
every path is still as the run left it: a file changed since is never overwritten, and
the refusal says which.
The store lives in the data folder, bounded by size and age, and every run kept and
every undo is a line in its journal.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.whatif.survey import Change, digest

KEEP_BYTES = 1 << 30
"""Copies kept for undo, all runs together; the oldest runs go first."""
KEEP_SECONDS = 30 * 86400
"""How long a run stays undoable."""
MANIFEST = "manifest.json"

State = dict[str, Any]
"""A path's state: {"kind": "file"|"link"|"dir", "sha", "mode", "copy"}, or {} for absent."""


class UndoError(Exception):
    """Undo cannot happen as asked; the message is one line that says why."""


@dataclass
class Kept:
    """One run's paths as they were, kept before it ran; `commit` records them after."""

    store: UndoStore
    run_id: str
    before: dict[str, State]

    def states_now(self) -> dict[str, State]:
        """Each kept path as it is now (after the real run)."""
        return {path: state_of(path) for path in self.before}

    def commit(self, summary: str, cwd: str, differences: Sequence[str]) -> str:
        """Record the run as done: its paths before and after; returns its id."""
        after = self.states_now()
        folder = self.store.folder / self.run_id
        manifest = {"run": self.run_id, "time": time.time(), "summary": summary, "cwd": cwd,
                    "differences": list(differences), "undone": False,
                    "paths": [{"path": p, "before": self.before[p], "after": after[p]}
                              for p in sorted(self.before)]}
        _write_json(folder / MANIFEST, manifest)
        self.store.journal("run", self.run_id, summary)
        return self.run_id

    def drop(self) -> None:
        shutil.rmtree(self.store.folder / self.run_id, ignore_errors=True)


class UndoStore:
    """The runs that can be undone, in `folder` (the data folder's undo/)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def keep(self, changes: Sequence[Change]) -> Kept:
        """Keep every path `changes` name as it is now, before a run changes it."""
        self.prune()
        paths = sorted({c["path"] for c in changes})
        needed = sum(os.lstat(p).st_size for p in paths
                     if os.path.isfile(p) and not os.path.islink(p))
        if needed + self.size() > KEEP_BYTES:
            raise UndoError(f"the files this run replaces or deletes ({needed:,} bytes) are "
                            "more than undo keeps")
        run_id = time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)
        copies = self.folder / run_id / "files"
        copies.mkdir(parents=True)
        before: dict[str, State] = {}
        for number, path in enumerate(paths):
            state = state_of(path)
            if state.get("kind") in ("file", "link"):
                copy = copies / str(number)
                shutil.copy2(path, copy, follow_symlinks=False)
                state["copy"] = str(copy)
            before[path] = state
        return Kept(self, run_id, before)

    def runs(self) -> list[dict[str, Any]]:
        """Every kept run's manifest, newest first."""
        found = []
        for manifest in self.folder.glob(f"*/{MANIFEST}"):
            with contextlib.suppress(OSError, ValueError):
                found.append(json.loads(manifest.read_text(encoding="utf-8")))
        return sorted(found, key=lambda m: m["time"], reverse=True)

    def undo(self, run_id: str = "") -> dict[str, Any]:
        """Put back what run `run_id` (default: the latest not undone) changed; its manifest.
        Raises UndoError, having touched nothing, when it cannot."""
        runs = self.runs()
        if run_id:
            matches = [m for m in runs if m["run"].startswith(run_id)]
            if len(matches) != 1:
                raise UndoError(f"no single kept run matches {run_id!r}: "
                                "assistant undo --list shows them")
            manifest = matches[0]
            if manifest["undone"]:
                raise UndoError(f"run {manifest['run']} was undone already")
        else:
            pending = [m for m in runs if not m["undone"]]
            if not pending:
                raise UndoError("there is no run to undo")
            manifest = pending[0]
        entries = manifest["paths"]
        _check(manifest["run"], entries)
        _restore(entries)
        manifest["undone"] = True
        _write_json(self.folder / manifest["run"] / MANIFEST, manifest)
        self.journal("undo", manifest["run"], manifest["summary"])
        return manifest

    def size(self) -> int:
        return sum(f.stat().st_size for f in self.folder.glob("*/files/*") if f.is_file())

    def prune(self) -> None:
        """Forget runs older than KEEP_SECONDS, then the oldest while over KEEP_BYTES."""
        now = time.time()
        runs = self.runs()
        for manifest in runs:
            if now - manifest["time"] > KEEP_SECONDS:
                shutil.rmtree(self.folder / manifest["run"], ignore_errors=True)
        while self.size() > KEEP_BYTES and (runs := self.runs()):
            shutil.rmtree(self.folder / runs[-1]["run"], ignore_errors=True)

    def journal(self, kind: str, run_id: str, summary: str) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        line = json.dumps({"time": time.time(), "kind": kind, "run": run_id, "summary": summary})
        with open(self.folder / "journal.jsonl", "a", encoding="utf-8") as file:
            file.write(line + "\n")


def undone_sentence(manifest: dict[str, Any]) -> str:
    """What an undo did, in one sentence: the run and what it had done."""
    done = manifest["summary"].rstrip(".")
    return f"Undid run {manifest['run']} ({done[:1].lower()}{done[1:]})."


def state_of(path: str) -> State:
    """What is at `path` now: kind, bytes (sha256) and mode; {} when nothing is."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return {}
    mode = stat.S_IMODE(info.st_mode)
    if stat.S_ISDIR(info.st_mode):
        return {"kind": "dir", "mode": mode}
    kind = "link" if stat.S_ISLNK(info.st_mode) else "file"
    return {"kind": kind, "sha": digest(path, info), "mode": mode, "size": info.st_size}


def _same(a: State, b: State) -> bool:
    keys = ("kind", "sha", "mode")
    return all(a.get(k) == b.get(k) for k in keys)


def _check(run_id: str, entries: list[dict[str, Any]]) -> None:
    """Refuse unless every path is as the run left it and every kept copy is intact."""
    listed = {e["path"] for e in entries}
    for entry in entries:
        path, after = entry["path"], entry["after"]
        now = state_of(path)
        if not _same(now, after):
            raise UndoError(f"not undone: {path} changed since run {run_id}; "
                            "nothing was put back")
        if now.get("kind") == "dir" and not entry["before"]:
            extra = [n for n in os.listdir(path) if os.path.join(path, n) not in listed]
            if extra:
                raise UndoError(f"not undone: {path} holds {extra[0]}, made after run "
                                f"{run_id}; nothing was put back")
        copy = entry["before"].get("copy")
        if copy and state_of(copy).get("sha") != entry["before"].get("sha"):
            raise UndoError(f"not undone: the kept copy of {path} is gone or changed; "
                            "nothing was put back")


def _restore(entries: list[dict[str, Any]]) -> None:
    """Remove what the run made, deepest first; then put back what was, shallowest first."""
    for entry in sorted(entries, key=lambda e: e["path"].count("/"), reverse=True):
        after, before = entry["after"], entry["before"]
        if after and not _same(after, before):
            if after["kind"] == "dir":
                if before.get("kind") != "dir":
                    os.rmdir(entry["path"])
            else:
                os.unlink(entry["path"])
    for entry in sorted(entries, key=lambda e: e["path"].count("/")):
        before, path = entry["before"], entry["path"]
        if not before or _same(state_of(path), before):
            continue
        if before["kind"] == "dir":
            os.makedirs(path, exist_ok=True)
            os.chmod(path, before["mode"])
        else:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            shutil.copy2(before["copy"], path, follow_symlinks=False)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, indent=1), encoding="utf-8")
    os.replace(temporary, path)
