"""From a what-if run's raw changes to its effect: what it creates, changes, deletes, moves.

The survey lists files one by one; here a delete and a create of the same bytes become a
move, a folder that disappears while one with the same files appears becomes a renamed
folder, and paths are told relative to the working folder. The summary is one sentence
written from the effect alone: what a person approves is what the code does, never what
a model says it does.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from assistant.events import Effect
from assistant.safety.runs_later import runs_later
from assistant.whatif.survey import Change

SHOWN_NAMES = 3


@dataclass
class _Sorted:
    """The raw changes sorted into the effect's lists, absolute paths (folders end in /)."""

    created: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    moved: list[tuple[str, str]] = field(default_factory=list)
    sizes: dict[str, int] = field(default_factory=dict)


def effect_of(changes: Sequence[Change], cwd: str, status: int | None, output: str,
              unpreviewable: Sequence[str]) -> Effect:
    """The effect of a run in `cwd` that made `changes` and ended with `status`."""
    found = _sort(changes)
    here = os.path.abspath(cwd)

    def shown(path: str) -> str:
        return _relative(path, here)

    created = sorted(map(shown, found.created))
    modified = sorted(map(shown, found.modified))
    deleted = sorted(map(shown, found.deleted))
    moved = sorted((shown(a), shown(b)) for a, b in found.moved)
    sizes = {shown(path): size for path, size in found.sizes.items()}
    effect = Effect(created=tuple(created), modified=tuple(modified), deleted=tuple(deleted),
                    moved=tuple(moved), exit_status=status, output=output,
                    unpreviewable=tuple(dict.fromkeys(unpreviewable)), sizes=sizes)
    return replace(effect, summary=summary(effect))


def _sort(changes: Sequence[Change]) -> _Sorted:
    found = _Sorted()
    by_path = {change["path"]: change for change in changes}
    gone = {c["path"]: c for c in changes if c["change"] == "deleted"}
    new = {c["path"]: c for c in changes if c["change"] == "created"}
    paired: set[str] = set()
    for old_dir in sorted((p for p, c in gone.items() if c["kind"] == "dir"), key=_depth):
        if old_dir in paired:
            continue
        for new_dir in sorted(p for p, c in new.items() if c["kind"] == "dir"):
            if new_dir not in paired and _same_tree(old_dir, new_dir, gone, new):
                _pair_tree(old_dir, new_dir, gone, found, paired)
                break
    modified = {c["path"]: c for c in changes if c["change"] == "modified"}
    targets = {**{p: c for p, c in new.items() if c["kind"] != "dir"}, **modified}
    for old in sorted(p for p, c in gone.items() if c["kind"] != "dir" and p not in paired):
        partner = _partner(gone[old], targets, paired)
        if partner:
            found.moved.append((old, partner))
            paired.update((old, partner))
    for path, change in by_path.items():
        if path in paired:
            continue
        folder = change["kind"] == "dir"
        name = path + "/" if folder else path
        getattr(found, change["change"]).append(name)
        if not folder:
            found.sizes[name] = change.get("size", 0)
    return found


def _partner(old: Change, targets: dict[str, Change], paired: set[str]) -> str:
    """The created (or overwritten) file with the same bytes; one of the same name first."""
    if not old.get("sha"):
        return ""
    matches = [p for p, c in sorted(targets.items())
               if p not in paired and c.get("sha") == old["sha"] and c["kind"] == old["kind"]]
    same_name = [p for p in matches if os.path.basename(p) == os.path.basename(old["path"])]
    return (same_name or matches or [""])[0]


def _same_tree(old: str, new: str, gone: dict[str, Change], made: dict[str, Change]) -> bool:
    """Whether the folder `new` holds exactly what `old` held, byte for byte."""
    before = {p[len(old):]: c for p, c in gone.items() if p.startswith(old + "/")}
    after = {p[len(new):]: c for p, c in made.items() if p.startswith(new + "/")}
    if before.keys() != after.keys():
        return False
    return all(c["kind"] == after[r]["kind"] and (c["kind"] == "dir" or
               (c.get("sha") and c.get("sha") == after[r].get("sha")))
               for r, c in before.items())


def _pair_tree(old: str, new: str, gone: dict[str, Change], found: _Sorted,
               paired: set[str]) -> None:
    for path in sorted([old, *(p for p in gone if p.startswith(old + "/"))]):
        target = new + path[len(old):]
        folder = gone[path]["kind"] == "dir"
        found.moved.append((path + "/", target + "/") if folder else (path, target))
        paired.update((path, target))


def _depth(path: str) -> tuple[int, str]:
    return path.count("/"), path


def _relative(path: str, cwd: str) -> str:
    """Inside the working folder, relative to it; elsewhere, absolute."""
    slash = "/" if path.endswith("/") else ""
    bare = path.rstrip("/")
    if bare.startswith(cwd.rstrip("/") + "/"):
        return bare[len(cwd.rstrip("/")) + 1:] + slash
    return path


def summary(effect: Effect) -> str:
    """One sentence saying what the run does to files, from the effect alone; a file that
    runs as code later says what runs it ("creates ~/.bashrc, which every new shell runs")."""
    clauses = _moves(effect)
    moved_into = {os.path.dirname(b.rstrip("/")) for _, b in effect.moved}
    folders = [p for p in effect.created if p.endswith("/")
               and p.rstrip("/") not in moved_into]
    files = [p for p in effect.created if not p.endswith("/")]
    if folders:
        clauses.append(f"creates {_count(len(folders), 'folder')} ({names(folders)})")
    later = [(p, runs_later(p)) for p in (*files, *effect.modified) if runs_later(p)]
    files = [p for p in files if not runs_later(p)]
    modified = [p for p in effect.modified if not runs_later(p)]
    clauses += [f"{'creates' if p in effect.created else 'changes'} {names([p])}, {says}"
                for p, says in later]
    if files:
        clauses.append(f"creates {_count(len(files), 'file')} ({names(files)}"
                       f"{_size(files, effect.sizes)})")
    if modified:
        clauses.append(f"changes {_count(len(modified), 'file')} ({names(modified)})")
    clauses += _deletes(effect)
    if not clauses:
        clauses.append("changes no files")
    if effect.exit_status not in (0, None):
        clauses.append(f"fails with exit status {effect.exit_status}")
    sentence = clauses[0] if len(clauses) == 1 else \
        ", ".join(clauses[:-1]) + " and " + clauses[-1]
    return sentence[0].upper() + sentence[1:] + "."


def _deletes(effect: Effect) -> list[str]:
    """Deleted folders with what was in them, then the other deleted files: a folder's
    files are said as its contents, not one by one beside it."""
    folders = [p for p in effect.deleted if p.endswith("/")]
    top = [p for p in folders if not any(p != f and p.startswith(f) for f in folders)]
    inside = [p for p in effect.deleted if not p.endswith("/")
              and any(p.startswith(f) for f in top)]
    alone = [p for p in effect.deleted if not p.endswith("/") and p not in inside]
    clauses = []
    if top:
        which = f"the folder {names(top)}" if len(top) == 1 else \
            f"{_count(len(top), 'folder')} ({names(top)})"
        size = _size(inside, effect.sizes).removeprefix("; ")
        files = "file" if len(inside) == 1 else _count(len(inside), "file")
        held = (f" and the {files} in {'it' if len(top) == 1 else 'them'}"
                + (f" ({size})" if size else "")) if inside else ""
        clauses.append(f"deletes {which}{held}")
    if alone:
        clauses.append(f"deletes {_count(len(alone), 'file')} ({names(alone)}"
                       f"{_size(alone, effect.sizes)})")
    return clauses


def _moves(effect: Effect) -> list[str]:
    """Renamed folders, and moved files grouped by the folder they go to."""
    folders = [(a, b) for a, b in effect.moved if a.endswith("/")]
    top = [(a, b) for a, b in folders if not any(a != x and a.startswith(x) for x, _ in folders)]
    clauses = [f"renames folder {names([a])} to {names([b])}" for a, b in top]
    files = [(a, b) for a, b in effect.moved
             if not a.endswith("/") and not any(a.startswith(x) for x, _ in folders)]
    into: dict[str, list[tuple[str, str]]] = {}
    for a, b in files:
        into.setdefault(os.path.dirname(b), []).append((a, b))
    for folder, pairs in into.items():
        moving = names([a for a, _ in pairs])
        if all(os.path.basename(a) == os.path.basename(b) for a, b in pairs) and \
                len({os.path.dirname(a) for a, _ in pairs}) == 1:
            new = f"{folder}/" in effect.created
            where = f"a new folder, {names([folder])}" if new else \
                names([folder]) if folder else "the working folder"
            clauses.append(f"moves {_count(len(pairs), 'file')} ({moving}) into {where}")
        else:
            renames = ", ".join(f"{names([a])} to {names([b])}" for a, b in pairs[:SHOWN_NAMES])
            more = len(pairs) - SHOWN_NAMES
            clauses.append(f"renames {_count(len(pairs), 'file')} ({renames}"
                           f"{f' and {more} more' if more > 0 else ''})")
    return clauses


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def names(paths: Sequence[str]) -> str:
    """The first few paths, as a person reads them: home as ~, no trailing slash."""
    shown = ", ".join(_home_as_tilde(p.rstrip("/")) for p in paths[:SHOWN_NAMES])
    more = len(paths) - SHOWN_NAMES
    return shown + (f" and {more} more" if more > 0 else "")


def _home_as_tilde(path: str) -> str:
    home = os.path.expanduser("~").rstrip("/")
    return "~" + path[len(home):] if path == home or path.startswith(home + "/") else path


def _size(paths: Sequence[str], sizes: dict[str, int]) -> str:
    total = sum(sizes.get(p, 0) for p in paths)
    return f"; {human_size(total)}" if total else ""


def human_size(size: int) -> str:
    """Bytes as a person reads them: 12 bytes, 3.4 KB, 1.2 MB."""
    value = float(size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            if unit == "bytes":
                return f"{int(value)} byte{'' if int(value) == 1 else 's'}"
            return f"{value:.1f} {unit}"
        value /= 1000
    return f"{size} bytes"
