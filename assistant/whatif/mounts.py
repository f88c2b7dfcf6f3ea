"""The mounts of this process (/proc/self/mountinfo), and what each is called in a sentence.

A what-if world overlays home, the working folder and the scratch folders; a mount inside
one of them (a FUSE drive, an AppImage under /tmp, a tmpfs, a bind) must be covered on its
own, and one that cannot be is named to the person by what it is ("/tmp/x (a FUSE mount)").

Only the standard library: the what-if world reads this inside its fork.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

MOUNTINFO = "/proc/self/mountinfo"
ESCAPED = re.compile(r"\\([0-7]{3})")
NETWORK = ("nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "glusterfs", "virtiofs")


@dataclass(frozen=True)
class Mount:
    """One line of mountinfo: where, what filesystem, from where, and how."""

    point: str
    fstype: str
    source: str
    root: str  # the folder of its filesystem it shows: "/" unless a bind of a folder
    read_only: bool

    @property
    def kind(self) -> str:
        """What the mount is, as a person calls it: "a FUSE mount", "a read-only tmpfs"."""
        fstype = self.fstype
        if fstype.startswith("fuse"):
            what = "FUSE mount"
        elif fstype == "tmpfs":
            what = "tmpfs"
        elif fstype == "overlay":
            what = "overlay mount"
        elif fstype in NETWORK:
            what = f"network mount ({fstype})"
        elif fstype == "ecryptfs":
            what = "encrypted mount (ecryptfs)"
        elif self.root != "/":
            what = f"bind mount ({fstype})"
        else:
            what = f"{fstype} mount"
        if self.read_only:
            what = "read-only " + what
        return ("an " if what[0] in "aeiou" else "a ") + what


def _unescaped(field: str) -> str:
    return ESCAPED.sub(lambda found: chr(int(found.group(1), 8)), field)


def parse(text: str) -> list[Mount]:
    """Every mount in `text` (mountinfo's format), in its order: a later one at the same
    point is on top of an earlier one."""
    mounts = []
    for line in text.splitlines():
        fields = line.split(" ")
        if "-" not in fields[6:]:
            continue
        dash = fields.index("-", 6)
        options = fields[5].split(",")  # this mount's, then its filesystem's
        options += fields[dash + 3].split(",") if len(fields) > dash + 3 else []
        mounts.append(Mount(point=_unescaped(fields[4]), fstype=fields[dash + 1],
                            source=_unescaped(fields[dash + 2]), root=_unescaped(fields[3]),
                            read_only="ro" in options))
    return mounts


def current() -> list[Mount]:
    """This process's mounts now."""
    with open(MOUNTINFO, encoding="utf-8", errors="surrogateescape") as file:
        return parse(file.read())


def signature() -> str:
    """A digest of this process's mounts: it changes when one is made or taken away."""
    with open(MOUNTINFO, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


def inside(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or below it (both absolute, as written)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")
