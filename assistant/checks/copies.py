"""Files with the same contents, before and after a preview that was to leave one of each.

Asked to delete duplicate files, a small model deletes every file (`find . -type f -exec
rm`), or compares names where the copies differ in name and removes none. Both succeed
and print nothing wrong. The folder is the witness from outside the model: its files'
bytes say which are copies, and the preview's effect says which would be gone. Code that
would leave two files with the same contents, or take every copy of one away, goes back
before anyone is asked.
"""

from __future__ import annotations

import hashlib
import os
from collections import defaultdict
from dataclasses import dataclass

from assistant.events import Effect
from assistant.runtime.changes import list_folder

HASHED_BYTES = 200 << 20  # read at most this much of a folder's files
LARGEST = 50 << 20  # a bigger file is left out: copies of it are not this check's to find
CHUNK = 1 << 20


@dataclass(frozen=True)
class Copies:
    """What a preview would do to the copies in a folder: the groups of files with the
    same contents that it would delete whole, and the first group it would leave two or
    more of (folder-relative paths, sorted)."""

    gone: tuple[tuple[str, ...], ...] = ()
    left: tuple[str, ...] = ()


def copies(folder: str, within: tuple[str, ...], effect: Effect) -> Copies:
    """The copies among the files under `within` (folders of `folder`, relative; the
    whole folder when empty) and what `effect` does to them."""
    deleted = set(effect.deleted)
    gone_folders = tuple(path for path in deleted if path.endswith("/"))
    moved = dict(effect.moved)  # a moved folder lists each of its files too
    gone: list[tuple[str, ...]] = []
    left: tuple[str, ...] = ()
    for group in _groups(folder, within):
        if any(path in effect.modified for path in group):
            continue  # its bytes change: what it becomes is another question
        kept = [moved.get(path, path) for path in group
                if path in moved or not (path in deleted or path.startswith(gone_folders))]
        if not kept:
            gone.append(group)
        elif len(kept) > 1 and not left:
            left = tuple(sorted(kept))
    return Copies(tuple(gone), left)


def _groups(folder: str, within: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The files under `within` that share their contents with another, by group."""
    listing = list_folder(folder)
    if listing is None:
        return []
    roots = tuple(name.rstrip("/") + "/" for name in within)
    by_size: dict[int, list[str]] = defaultdict(list)
    for path, (is_dir, size, _) in listing.entries.items():
        if not is_dir and 0 < size <= LARGEST and (not roots or path.startswith(roots)) \
                and not any(part.startswith(".") for part in path.split("/")):
            by_size[size].append(path)
    by_bytes: dict[tuple[int, str], list[str]] = defaultdict(list)
    budget = HASHED_BYTES
    for size, paths in sorted(by_size.items()):
        if len(paths) < 2:
            continue
        for path in sorted(paths):
            budget -= size
            if budget < 0:
                return _found(by_bytes)
            digest = _digest(os.path.join(folder, path))
            if digest:
                by_bytes[(size, digest)].append(path)
    return _found(by_bytes)


def _found(by_bytes: dict[tuple[int, str], list[str]]) -> list[tuple[str, ...]]:
    return sorted(tuple(sorted(paths)) for paths in by_bytes.values() if len(paths) > 1)


def _digest(path: str) -> str:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as file:
            while chunk := file.read(CHUNK):
                digest.update(chunk)
    except OSError:
        return ""
    return digest.hexdigest()
