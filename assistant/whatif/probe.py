"""Whether a what-if world can be made here, and if not, why, in words that are true.

Tried in a forked child, step by step, so each refusal is told apart: user namespaces
off, or restricted so a new one may not mount; a kernel without mount_setattr; overlayfs
refused in a user namespace. A mount that cannot be covered is no reason to refuse
previews (the world covers the rest and names it); `coverage` names such mounts for
`assistant doctor`. The answer is kept while the mounts stay as they are; a refusal is
tried again when they change, or after a minute (a sysctl may have been set).
"""

from __future__ import annotations

import errno
import json
import os
import threading
import time
from dataclasses import dataclass

from assistant.whatif import mounts
from assistant.whatif.cover import Cover, overlay
from assistant.whatif.kernel import MS_NOSUID, WorldError, mount, unmount
from assistant.whatif.world import unshare

RETRY_SECONDS = 60.0
SYSCTL_DEBIAN = "sysctl -w kernel.unprivileged_userns_clone=1"
SYSCTL_UBUNTU = "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"
SYSCTL_COUNT = "sysctl -w user.max_user_namespaces=15000"
UNPREVIEWED = "; runs go on unpreviewed"


@dataclass(frozen=True)
class Diagnosis:
    """Why previews cannot work here ("" when they can), and the command that fixes it."""

    problem: str = ""
    fix: str = ""


_kept: tuple[str, float, Diagnosis] | None = None
_lock = threading.Lock()


def problem() -> str:
    """Why a what-if world cannot be made here ("" when it can)."""
    return diagnosis().problem


def diagnosis() -> Diagnosis:
    """The diagnosis, tried again when the mounts changed or a refusal is a minute old."""
    global _kept
    with _lock:
        signature, now = mounts.signature(), time.monotonic()
        if _kept is None or _kept[0] != signature or (
                _kept[2].problem and now - _kept[1] > RETRY_SECONDS):
            _kept = (signature, now, _diagnosed(_tried([])))
        return _kept[2]


def coverage(roots: list[str]) -> list[dict[str, str]]:
    """The mounts in `roots` a what-if world cannot cover: path, kind, why."""
    uncovered = _tried(roots).get("uncovered", [])
    return uncovered if isinstance(uncovered, list) else []


def _tried(roots: list[str]) -> dict[str, object]:
    """Make a world in a forked child, covering `roots`; what happened, as the child said."""
    read, write = os.pipe()
    uid, gid = os.getuid(), os.getgid()
    found = mounts.current()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's outcome is read through the pipe
        os.close(read)
        said: dict[str, object] = {}
        try:
            said = _steps(uid, gid, found, roots)
        except BaseException as error:  # anything at all, said to the parent
            said = {"step": "world", "error": str(error)}
        finally:
            os.write(write, json.dumps(said).encode())
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    result: dict[str, object] = json.loads(data or b'{"step": "world", "error": "no answer"}')
    return result


def _steps(uid: int, gid: int, found: list[mounts.Mount],
           roots: list[str]) -> dict[str, object]:  # pragma: no cover - in the child
    step = "unshare"
    try:
        unshare(uid, gid)
        step = "overlay"
        place = next(p for p in ("/tmp", "/var/tmp", "/dev") if os.path.isdir(p))
        mount("tmpfs", place, "tmpfs", MS_NOSUID, "mode=0700")
        os.mkdir(f"{place}/lower")
        overlay(f"{place}/lower", os.open(f"{place}/lower", os.O_PATH | os.O_CLOEXEC))
        unmount(place)
        step = "cover"
        cover = Cover(found)
        for root in roots:
            cover.root(root)
    except (OSError, WorldError) as error:
        return {"step": step, "error": str(error), "errno": error.errno or 0}
    return {"uncovered": cover.uncovered}


def _diagnosed(said: dict[str, object]) -> Diagnosis:
    """The child's account as a person reads it, with the fix."""
    step, error, number = said.get("step"), str(said.get("error", "")), said.get("errno")
    if not step:
        return Diagnosis()
    if step == "unshare" and error.startswith("unshare") and number == errno.ENOSPC:
        return Diagnosis(f"previews need user namespaces, which this system allows none of "
                         f"({error}); allow them ({SYSCTL_COUNT}){UNPREVIEWED}", SYSCTL_COUNT)
    if step == "unshare" and error.startswith("unshare"):
        return Diagnosis(f"previews need user namespaces, which this system turns off "
                         f"({error}); enable them (Debian: {SYSCTL_DEBIAN}){UNPREVIEWED}",
                         SYSCTL_DEBIAN)
    if step == "unshare" and error.startswith("mount_setattr"):
        return Diagnosis(f"previews need Linux 5.12 or later ({error}){UNPREVIEWED}",
                         "a kernel of Linux 5.12 or later")
    if step == "unshare":
        return Diagnosis(f"previews need user namespaces that may mount, which this system "
                         f"restricts ({error}); allow them (Ubuntu 24.04+: {SYSCTL_UBUNTU})"
                         f"{UNPREVIEWED}", SYSCTL_UBUNTU)
    if step == "overlay":
        return Diagnosis(f"previews need overlayfs in a user namespace, which this kernel "
                         f"refuses ({error}); Linux 5.11 or later has it{UNPREVIEWED}",
                         "a kernel of Linux 5.11 or later with overlayfs")
    return Diagnosis(f"a what-if world could not be made here ({error}){UNPREVIEWED}",
                     "a Linux kernel of 5.12 or later, with user namespaces and overlayfs")
