"""What an overlay's upper folder says changed, compared with the real folder beneath it.

The upper folder holds every entry the run wrote (a file copied up whole, even for a
touch), a whiteout (a char device 0:0) for each entry it deleted, and an opaque folder
(xattr user.overlay.opaque) where a folder was deleted and made again. Each entry is
compared with the real one below: a copy-up with the same bytes and the same executable
bit is no change, and the files under a deleted folder are listed one by one. The
result is plain data (JSON) because it crosses from the what-if world to the host.

Only the standard library: this runs inside the what-if world.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from typing import Any

HASHED_BYTES = 256 * 2**20
"""Files larger than this are compared by size alone (and never count as moved)."""
OPAQUE = "user.overlay.opaque"

Change = dict[str, Any]


def survey(upper: str, lower: str, root: str) -> list[Change]:
    """The changes under `root`, its upper and lower folders given as paths to read."""
    return _Survey(upper, lower, root).walk("", False)


def rebuilt(top: str, lower: str, root: str, copied: dict[str, tuple[int, int, int]],
            placed: tuple[str, ...]) -> list[Change]:
    """The changes directly in a folder rebuilt in a tmpfs (whatif/cover.py), given as the
    paths to read of the rebuilt one (`top`) and the real one: a copy the run changed
    (its size, time or mode not as `copied` made it) is compared with the real entry;
    what was `placed` (folders covered on their own, files shown read-only) is left to
    its own cover; any other name is new."""
    walk = _Survey(top, lower, root)
    now = set(os.listdir(top))
    for name in sorted(set(copied) - now):
        walk.gone(name)
    for name in sorted(now - set(placed)):
        info = os.lstat(os.path.join(top, name))
        if name in copied and (info.st_size, info.st_mtime_ns, info.st_mode) == copied[name]:
            continue
        real = _lstat(os.path.join(lower, name)) if name in copied else None
        if real is not None and stat.S_IFMT(real.st_mode) == stat.S_IFMT(info.st_mode) \
                and not stat.S_ISDIR(info.st_mode):
            walk.compare(name, info, real)
            continue
        if real is not None:
            walk.gone(name)
        walk.new(name, info)
    return walk.out


def digest(path: str, info: os.stat_result) -> str:
    """The sha256 of a file's bytes, a link's target; "" when too large to read."""
    if stat.S_ISLNK(info.st_mode):
        return "link:" + hashlib.sha256(os.fsencode(os.readlink(path))).hexdigest()
    if info.st_size > HASHED_BYTES:
        return ""
    sha = hashlib.sha256()
    with open(path, "rb") as file:
        while block := file.read(1 << 20):
            sha.update(block)
    return sha.hexdigest()


def describe(path: str, info: os.stat_result, change: str, shown: str) -> Change:
    """One entry as the host reads it."""
    kind = "dir" if stat.S_ISDIR(info.st_mode) else "link" if stat.S_ISLNK(info.st_mode) \
        else "file"
    entry: Change = {"path": shown, "change": change, "kind": kind,
                     "mode": stat.S_IMODE(info.st_mode)}
    if kind != "dir":
        entry["size"] = info.st_size
        entry["sha"] = digest(path, info)
    return entry


class _Survey:
    """One root's walk: its upper and lower folders, and the changes found so far."""

    def __init__(self, upper: str, lower: str, root: str) -> None:
        self.upper, self.lower, self.root = upper, lower, root
        self.out: list[Change] = []

    def walk(self, relative: str, opaque: bool) -> list[Change]:
        """Compare one folder of the upper layer with the real one; `opaque` when the real
        folder's entries are hidden (a folder deleted and made again, here or above)."""
        names = sorted(os.listdir(os.path.join(self.upper, relative)))
        if opaque:
            with contextlib.suppress(OSError):
                below = os.listdir(os.path.join(self.lower, relative))
                for name in sorted(set(below) - set(names)):
                    self.gone(_join(relative, name))
        for name in names:
            path = _join(relative, name)
            info = os.lstat(os.path.join(self.upper, path))
            real = _lstat(os.path.join(self.lower, path))
            if stat.S_ISCHR(info.st_mode) and info.st_rdev == 0:  # a whiteout
                if real is not None:
                    self.gone(path)
                continue
            same = real is not None and stat.S_IFMT(real.st_mode) == stat.S_IFMT(info.st_mode)
            if real is not None and not same:
                self.gone(path)
            if not same:
                self.new(path, info)
            elif stat.S_ISDIR(info.st_mode):
                self.walk(path, opaque or _is_opaque(os.path.join(self.upper, path)))
            else:
                assert real is not None
                self.compare(path, info, real)
        return self.out

    def compare(self, path: str, info: os.stat_result, real: os.stat_result) -> None:
        """A file or link in both layers: modified when its bytes or executable bit differ."""
        new = describe(os.path.join(self.upper, path), info, "modified", _join(self.root, path))
        executable = (info.st_mode ^ real.st_mode) & stat.S_IXUSR
        if (not executable and info.st_size == real.st_size and new.get("sha")
                and new["sha"] == digest(os.path.join(self.lower, path), real)):
            return
        new["old_size"] = real.st_size
        self.out.append(new)

    def new(self, path: str, info: os.stat_result) -> None:
        """An entry that did not exist before, and everything in it, are created."""
        where = os.path.join(self.upper, path)
        self.out.append(describe(where, info, "created", _join(self.root, path)))
        if stat.S_ISDIR(info.st_mode):
            for name in sorted(os.listdir(where)):
                inner = os.lstat(os.path.join(where, name))
                if not (stat.S_ISCHR(inner.st_mode) and inner.st_rdev == 0):
                    self.new(_join(path, name), inner)

    def gone(self, relative: str) -> None:
        """A real entry the run deleted, and everything in it."""
        where = os.path.join(self.lower, relative)
        info = _lstat(where)
        if info is None:
            return
        self.out.append(describe(where, info, "deleted", _join(self.root, relative)))
        if stat.S_ISDIR(info.st_mode):
            with contextlib.suppress(OSError):
                for name in sorted(os.listdir(where)):
                    self.gone(_join(relative, name))


def _is_opaque(path: str) -> bool:
    try:
        return os.getxattr(path, OPAQUE, follow_symlinks=False) == b"y"
    except OSError:
        return False


def _lstat(path: str) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except OSError:
        return None


def _join(base: str, name: str) -> str:
    return f"{base.rstrip('/')}/{name}" if base else name
