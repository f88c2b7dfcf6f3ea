"""Covering a folder copy-on-write in a what-if world, mount by mount.

An overlay over a folder is the whole of it, but the kernel refuses one over a folder with
a mount anywhere below it (a FUSE drive, an AppImage under /tmp, a tmpfs, a bind): in a
user namespace such a mount is locked, and an overlay's lower layer would show what it
hides. Such a folder is rebuilt instead, in a tmpfs of the world's own: its files copied
(those too large, or not the user's, shown read-only), each folder in it covered the same
way, and each mount in it overlaid on its own. A read-only mount is shown as it is (a run
fails there as it would for real); one the kernel will not overlay is shown read-only and
named, with the kernel's reason, so the preview can say what it did not cover.

Only the standard library: this runs inside the what-if world.
"""

from __future__ import annotations

import errno
import os
import resource
import shutil
import stat
from dataclasses import dataclass, field

from assistant.whatif.kernel import (
    MS_BIND,
    MS_NOSUID,
    MS_REC,
    WorldError,
    mount,
    read_only,
    unmount,
)
from assistant.whatif.mounts import Mount

COPIED_BYTES = 8 * 2**20
"""A file directly in a rebuilt folder larger than this is shown read-only, not copied."""
COPY_BUDGET = 64 * 2**20
"""The most a world copies into its rebuilt folders; files past it are shown read-only."""
FOLDER = os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC
PLACED = (-1, -1, -1)


@dataclass(frozen=True)
class Layer:
    """A folder under an overlay: the real folder's fd and its upper's tmpfs fd."""

    root: str
    lower: int
    scratch: int


@dataclass(frozen=True)
class Rebuilt:
    """A folder rebuilt in a tmpfs: its fd there, the real one's, the names copied into
    it (files, links) with the copy's size, time and mode as made, and the names put
    there otherwise (folders, files shown read-only)."""

    root: str
    top: int
    lower: int
    copied: dict[str, tuple[int, int, int]]
    placed: tuple[str, ...]


@dataclass
class Cover:
    """Everything a world covered, and each mount it could not, with why."""

    mounts: list[Mount]
    hidden: frozenset[str] = frozenset()  # paths the world hides: never copied
    layers: list[Layer] = field(default_factory=list)
    rebuilt: list[Rebuilt] = field(default_factory=list)
    uncovered: list[dict[str, str]] = field(default_factory=list)
    budget: int = COPY_BUDGET

    def __post_init__(self) -> None:
        self._points = {m.point: m for m in self.mounts}  # a later one is on top
        self._around = {os.path.dirname(p) for p in self._points}  # every folder above one
        for point in list(self._around):
            while point not in ("/", ""):
                point = os.path.dirname(point)
                self._around.add(point)

    def on(self, path: str) -> Mount | None:
        """The mount `path` lies on: the innermost mount point at or above it."""
        while True:
            if path in self._points:
                return self._points[path]
            if path in ("/", ""):
                return None
            path = os.path.dirname(path)

    def root(self, path: str) -> None:
        """Cover the real folder `path` where it is."""
        self.place(path, os.open(path, FOLDER), path, fresh=False)

    def place(self, path: str, real: int, target: str, fresh: bool) -> None:
        """Show the real folder `path` (open as `real`) copy-on-write at `target`: the
        folder itself, or (`fresh`) an empty folder made for it in a rebuilt one."""
        on = self.on(path)
        if path in self._around:  # a mount below it
            self.rebuild(path, real, target, fresh, on is not None and on.read_only)
            return
        if on is None or not on.read_only:
            try:
                self.layers.append(Layer(path, real, overlay(target, real)))
                return
            except WorldError as error:
                self.refused(path, on, error)
        if fresh:  # as it is for real, read-only: a run that writes there fails
            _bind(f"/proc/self/fd/{real}", target)
        os.close(real)

    def rebuild(self, path: str, real: int, target: str, fresh: bool, frozen: bool) -> None:
        """`path` has a mount below it: a tmpfs copy of it at `target`, each entry in it
        placed in turn. `frozen`: it is on a read-only mount, so nothing is copied."""
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:  # two descriptors per covered folder, and there may be many
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        source = f"/proc/self/fd/{real}"
        mode = stat.S_IMODE(os.stat(source).st_mode)
        if fresh:
            os.chmod(target, mode)
        else:
            mount("tmpfs", target, "tmpfs", MS_NOSUID, f"mode={mode:o}")
        copied: dict[str, tuple[int, int, int]] = {}
        placed: list[str] = []
        for name in sorted(os.listdir(source)):
            full = os.path.join(path, name)
            try:
                made = self.entry(f"{source}/{name}", os.path.join(target, name), full, frozen)
            except (OSError, WorldError) as error:  # left out, and said when reached
                self.uncovered.append({"path": full, "kind": "an entry the preview could "
                                       "not show", "why": str(error), "file": "yes"})
                continue
            if made == PLACED:
                placed.append(name)
            elif made is not None:
                copied[name] = made
        top = os.open(target, FOLDER)
        self.rebuilt.append(Rebuilt(path, top, real, copied, tuple(placed)))

    def entry(self, inner: str, there: str, full: str, frozen: bool
              ) -> tuple[int, int, int] | None:
        """Put the real entry `inner` (at `full`) in a rebuilt folder, at `there`: a copy
        (its size, time and mode as made are returned), or PLACED (a folder covered on its
        own, a file shown read-only); None for what is left out (sockets, pipes, devices:
        a run reaches nothing through them)."""
        info = os.lstat(inner)
        if stat.S_ISDIR(info.st_mode):
            os.mkdir(there, 0o700)
            self.place(full, os.open(inner, FOLDER), there, fresh=True)
            return PLACED
        if stat.S_ISLNK(info.st_mode):
            os.symlink(os.readlink(inner), there)
            return _made(there)
        if not stat.S_ISREG(info.st_mode):
            return None
        if full in self.hidden:
            os.close(os.open(there, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o400))
            return PLACED
        mounted = self._points.get(full)  # a file mounted on its own
        if mounted is None and not frozen and self.copy(inner, there, info):
            return _made(there)
        os.close(os.open(there, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o600))
        _bind(inner, there)
        if mounted is not None and not mounted.read_only:
            self.uncovered.append({"path": full, "kind": "a file mounted on its own",
                                   "why": "it is shown read-only", "file": "yes"})
        elif mounted is None and not frozen and info.st_uid == os.getuid() and \
                info.st_size > min(COPIED_BYTES, self.budget):
            self.uncovered.append({"path": full, "kind": "a large file beside a mount",
                                   "why": "it is shown read-only, not copied", "file": "yes"})
        return PLACED

    def copy(self, source: str, target: str, info: os.stat_result) -> bool:
        """Copy one of the user's files (bytes, mode, times) within the budget."""
        if info.st_uid != os.getuid() or info.st_size > min(COPIED_BYTES, self.budget):
            return False
        try:
            shutil.copy2(source, target, follow_symlinks=False)
        except OSError:
            if os.path.lexists(target):
                os.unlink(target)
            return False
        self.budget -= info.st_size
        return True

    def refused(self, path: str, on: Mount | None, error: WorldError) -> None:
        """Name a folder the kernel would not overlay, and say why in its words."""
        kind = on.kind if on is not None else "a folder"
        if on is not None and on.fstype == "overlay" and error.errno == errno.EINVAL:
            why = "this kernel refuses an overlay over an overlay root: stacked too deep"
        elif error.errno in (errno.EACCES, errno.EPERM):
            why = f"it cannot be read from the preview's user namespace ({error})"
        else:
            why = f"the kernel refuses an overlay on it ({error})"
        self.uncovered.append({"path": path, "kind": kind, "why": why})


def overlay(root: str, lower: int) -> int:
    """Mount a tmpfs on `root`, then an overlay of the real `root` over it; the tmpfs stays
    reachable through the returned fd."""
    mount("tmpfs", root, "tmpfs", MS_NOSUID, "mode=0755")
    for name in ("u", "w"):
        os.mkdir(os.path.join(root, name), 0o755)
    scratch = os.open(root, FOLDER)
    options = (f"lowerdir=/proc/self/fd/{lower},upperdir=/proc/self/fd/{scratch}/u,"
               f"workdir=/proc/self/fd/{scratch}/w,userxattr")
    try:
        mount("overlay", root, "overlay", 0, options)
    except WorldError:
        os.close(scratch)
        unmount(root)
        raise
    return scratch


def _made(path: str) -> tuple[int, int, int]:
    """A copy as made: what tells a later change to it by the run (the real file may
    change meanwhile, a log being written, and that is not the run's)."""
    info = os.lstat(path)
    return info.st_size, info.st_mtime_ns, info.st_mode


def _bind(source: str, target: str) -> None:
    """The real `source`, and every mount in it, at `target`, read-only."""
    mount(source, target, None, MS_BIND | MS_REC)
    read_only(target)
