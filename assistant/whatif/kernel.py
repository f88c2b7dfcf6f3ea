"""The few system calls a what-if world is made of, through ctypes: mount, unmount,
mount_setattr, and a /proc map written whole. Each failure is a `WorldError` naming
the step and the kernel's answer.

Only the standard library: the Python runtime imports this inside its fork.
"""

from __future__ import annotations

import ctypes
import os

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = (
    1, 2, 4, 8, 4096, 16384, 1 << 18)
AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY, MNT_DETACH = -100, 0x8000, 1, 2
SYS_MOUNT_SETATTR = 442  # the same number on every architecture (a syscall of 5.12+)

libc = ctypes.CDLL(None, use_errno=True)


class WorldError(Exception):
    """The kernel refused a step; the message names it, `errno` is the kernel's answer."""

    def __init__(self, message: str, number: int = 0) -> None:
        super().__init__(message)
        self.errno = number


def mount(source: str | None, target: str, kind: str | None, flags: int,
          options: str | None = None) -> None:
    result = libc.mount(
        source.encode() if source else None, target.encode(), kind.encode() if kind else None,
        ctypes.c_ulong(flags), options.encode() if options else None)
    check(result, f"mount {kind or 'bind'} on {target}")


def unmount(target: str) -> None:
    check(libc.umount2(target.encode(), MNT_DETACH), f"umount {target}")


def read_only(path: str) -> None:
    """Make the mount at `path`, and every mount below it, read-only."""
    attr = (ctypes.c_uint64 * 4)(MOUNT_ATTR_RDONLY, 0, 0, 0)
    result = libc.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, path.encode(), AT_RECURSIVE,
                          ctypes.byref(attr), ctypes.sizeof(attr))
    check(result, "mount_setattr")


def write(path: str, text: str) -> None:
    """One write(2) on a /proc file that takes a map whole."""
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise WorldError(f"{what}: {os.strerror(number)}", number)
