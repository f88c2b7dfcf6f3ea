"""What a run changed in the working folder, told from a cheap listing before and after.

A small model that believes it wrote a file says so; a line saying which files were
created, removed or modified lets it see otherwise. The listing is bounded in entries
and time, level by level, so a huge folder costs little: only the levels listed whole
are compared, and a folder too big even for its first level is not described at all.
"""

from __future__ import annotations

import os
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import TypeVar

from assistant.texts import text

MAX_ENTRIES = 5000
MAX_SECONDS = 0.1
MAX_DEPTH = 6
NAMES_SHOWN = 8
# Listed, but not looked into: their contents are tools' business, and large.
NOT_ENTERED = frozenset({".git", "node_modules", "__pycache__", ".venv", "venv", ".cache"})


@dataclass(frozen=True)
class Listing:
    """Every entry down to `depth` levels: relative path -> (is a folder, size, mtime)."""

    entries: dict[str, tuple[bool, int, int]]
    depth: int


def list_folder(folder: str) -> Listing | None:
    """The folder's entries, breadth first, as deep as fits; None when not even the top does."""
    started = time.monotonic()
    entries: dict[str, tuple[bool, int, int]] = {}
    level = [""]
    depth = 0
    while level and depth < MAX_DEPTH:
        found: dict[str, tuple[bool, int, int]] = {}
        for relative in level:
            found.update(_scan(folder, relative))
            if len(entries) + len(found) > MAX_ENTRIES or time.monotonic() - started > MAX_SECONDS:
                return Listing(entries, depth) if depth else None
        entries.update(found)
        depth += 1
        level = [
            path for path, (is_dir, _, _) in found.items()
            if is_dir and os.path.basename(path) not in NOT_ENTERED
        ]
    # With no folder left to enter, every level is listed whole, however deep a later
    # listing goes: files a run writes into a new folder are compared too.
    return Listing(entries, depth if level else MAX_DEPTH)


UNWRITTEN = Listing({}, MAX_DEPTH)
"""Both listings of a run proved unable to write (a sealed preview): equal, and free."""

T = TypeVar("T")
Listings = tuple[Listing | None, Listing | None]


def listed(folder: str, events: Iterator[T]) -> Generator[T, None, Listings]:
    """The `events` of a run, and `folder`'s listings just before and just after them."""
    before = list_folder(folder)
    yield from events
    return before, list_folder(folder)


NO_CHANGES = text("results.no_changes")
CHANGES = text("results.changes")


def describe_changes(before: Listing | None, after: Listing | None) -> str:
    """One line naming what was created, removed and modified; "" when it cannot be told."""
    if before is None or after is None:
        return ""
    old, new = _compared(before, after)
    created = sorted(set(new) - set(old))
    removed = sorted(set(old) - set(new))
    modified = sorted(p for p in set(old) & set(new) if not new[p][0] and new[p] != old[p])
    parts = [
        f"{verb} {_names(paths, new if verb == 'created' else old)}"
        for verb, paths in (("created", created), ("removed", removed), ("modified", modified))
        if paths
    ]
    if not parts:
        return NO_CHANGES
    return CHANGES.format("; ".join(parts))


def written(before: Listing | None, after: Listing | None) -> list[str]:
    """The files a run created or modified, as far as the listings tell."""
    if before is None or after is None:
        return []
    old, new = _compared(before, after)
    return sorted(path for path, entry in new.items() if not entry[0] and old.get(path) != entry)


def _compared(before: Listing, after: Listing) -> tuple[dict[str, tuple[bool, int, int]], ...]:
    """The entries of both listings at the levels both listed whole."""
    depth = min(before.depth, after.depth)
    return tuple({p: e for p, e in listing.entries.items() if p.count("/") < depth}
                 for listing in (before, after))


def _names(paths: list[str], entries: dict[str, tuple[bool, int, int]]) -> str:
    shown = [path + ("/" if entries[path][0] else "") for path in paths[:NAMES_SHOWN]]
    more = len(paths) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more else "")


def _scan(folder: str, relative: str) -> dict[str, tuple[bool, int, int]]:
    found: dict[str, tuple[bool, int, int]] = {}
    try:
        with os.scandir(os.path.join(folder, relative) if relative else folder) as listing:
            for entry in listing:
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                    stat = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                path = f"{relative}/{entry.name}" if relative else entry.name
                found[path] = (is_dir, 0 if is_dir else stat.st_size, stat.st_mtime_ns)
    except OSError:
        pass
    return found
