"""Entering a what-if world: the calling process's own copy-on-write view of the machine.

`enter(plan)` is called in a process that will run a proposal and then end: a fork of the
live Python runtime, which runs Python code itself and shell or JavaScript through their
drivers' one-run mode (`run_command`). It unshares a user,
mount, network and process namespace, makes every mount read-only, and puts an overlay over each
folder the plan names (home, the working folder, /tmp ...), whose upper folder is a tmpfs
of this namespace alone: writes, deletes and renames land there and the real files stay as
they are. The assistant's own folders and the usual secrets are hidden, the display and
input devices and the sockets under /run are out of reach, the run sees no process but its
own, secret variables leave the environment, and every
capability is dropped, so the code cannot unmount the overlays to reach the real files.
After the run, `World.finish` surveys the upper folders and writes the changes, as JSON,
to the report file opened before any of this (so the report lands on the real disk).

Only the standard library: the Python runtime imports this inside its fork.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import resource
import shutil
import signal
import threading
from typing import Any

from assistant.whatif.survey import survey

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
CLONE_NEWPID = 0x20000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = (
    1, 2, 4, 8, 4096, 16384, 1 << 18)
AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY, MNT_DETACH = -100, 0x8000, 1, 2
SYS_MOUNT_SETATTR = 442  # the same number on every architecture (a syscall of 5.12+)
PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP, PR_SET_PDEATHSIG = 38, 24, 1
DISPLAY_VARIABLES = ("DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS")
DEVICES = ("/dev/input", "/dev/uinput", "/dev/snd", "/dev/video0", "/tmp/.X11-unix")
# Where programs listen on sockets a read-only mount does not stop: the session and system
# buses, the sound server, the container engine, agents. Folders the overlays cover (home,
# /tmp) refuse a connection through the overlay already.
SOCKETS = ("/run", "/var/run")

_libc = ctypes.CDLL(None, use_errno=True)


class WorldError(Exception):
    """The kernel refused a step; the message names it."""


class World:
    """The namespace this process now lives in: report fd and, per root, upper and lower."""

    def __init__(self, report: int, roots: dict[str, tuple[int, int]]) -> None:
        self._report = report
        self._roots = roots  # root -> (fd of the real folder, fd of its upper's tmpfs)

    def finish(self, status: int | None, later: list[str] | None = None) -> None:
        """Stop what the run left running, survey the uppers, and write the report;
        `later` names the code it left to run later in the runtime (threads, exit hooks)."""
        left = _stop_children()
        changes: list[dict[str, Any]] = []
        for root, (lower, scratch) in self._roots.items():
            changes += survey(f"/proc/self/fd/{scratch}/u", f"/proc/self/fd/{lower}", root)
        data = json.dumps({"status": status, "changes": changes, "left_running": left,
                           "left_later": later or []})
        with os.fdopen(self._report, "w", encoding="utf-8") as report:
            report.write(data)


def enter(plan: dict[str, Any]) -> World:
    """Move this process into a what-if world made from `plan` (see preview.plan_for)."""
    report = os.open(plan["report"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    try:
        return _enter(plan, report)
    except (OSError, WorldError) as error:
        os.write(report, json.dumps({"error": str(error)}).encode())
        os.close(report)
        raise


def _enter(plan: dict[str, Any], report: int) -> World:
    cwd = os.getcwd()
    uid, gid = os.getuid(), os.getgid()
    _unshare(uid, gid)
    roots: dict[str, tuple[int, int]] = {}
    for root in plan["roots"]:
        roots.update(_cover(root))
    first_scratch = next(iter(roots.values()))[1] if roots else -1
    for path in plan["hide"]:
        _hide(path, first_scratch)
    for path in (*DEVICES, *SOCKETS):
        if os.path.isdir(path) and not os.path.islink(path) and \
                not any(inside(root, path) for root in roots):
            _mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=4k")
    _first_process()
    _drop_capabilities()
    for name in list(os.environ):
        if name in DISPLAY_VARIABLES:  # secret variables never reached the runtime
            del os.environ[name]
    os.environ.update(plan.get("env", {}))
    os.chdir(plan.get("cwd") or cwd)  # through the overlay now: the old one was the real one
    return World(report, roots)


def run_command(argv: list[str]) -> int:
    """Run `argv` in this world as a child, outliving it (SIGINT is for the run), and
    return its exit status as a shell tells it."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - replaced by the program at once
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def renames_across_layers() -> None:
    """Let os.rename and os.replace move a folder of the lower layer, as they do for real.

    Without redirect_dir (which user namespaces cannot have) overlayfs answers EXDEV to
    renaming a folder that was there before; mv copes, but Python code would fail in the
    preview where it works for real. A copy then a delete shows the same effect.
    """
    for name in ("rename", "replace"):
        original = getattr(os, name)

        def moving(src: Any, dst: Any, *args: Any, _original: Any = original, **kwargs: Any
                   ) -> None:
            try:
                _original(src, dst, *args, **kwargs)
            except OSError as error:
                if error.errno != errno.EXDEV or not os.path.isdir(src) or args or kwargs:
                    raise
                if os.path.isdir(dst) and not os.listdir(dst):
                    os.rmdir(dst)
                shutil.copytree(src, dst, symlinks=True)
                shutil.rmtree(src)

        setattr(os, name, moving)


_problem: str | None = None
_problem_lock = threading.Lock()


def problem() -> str:
    """Why a what-if world cannot be made here ("" when it can); tried once."""
    global _problem
    with _problem_lock:
        if _problem is None:
            _problem = _tried()
        return _problem


def _tried() -> str:
    """Why a what-if world cannot be made here, tried in a forked child."""
    read, write = os.pipe()
    uid, gid = os.getuid(), os.getgid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's outcome is read through the pipe
        os.close(read)
        said = ""
        try:
            _unshare(uid, gid)
            _overlay("/tmp", os.open("/tmp", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC))
        except (OSError, WorldError) as error:
            said = str(error)
        os.write(write, said.encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode()
    os.waitpid(pid, 0)
    if not said:
        return ""
    return (f"previews need user namespaces and overlayfs, which this system refuses ({said}); "
            "enable them (Debian: sysctl -w kernel.unprivileged_userns_clone=1; Ubuntu 24.04+: "
            "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0); runs go on unpreviewed")


def _unshare(uid: int, gid: int) -> None:
    """A user, mount, network and process namespace of its own, where every mount is
    read-only; the next child is the first process of the new process namespace.
    `uid` and `gid` are read before: in the new namespace they are unmapped until now."""
    _check(_libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID),
           "unshare")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    _read_only("/")


def _cover(root: str) -> dict[str, tuple[int, int]]:
    """An overlay over `root`, or where the kernel refuses one (a mount below it that this
    namespace may not reveal, such as the guard's read-only binds of the assistant's own
    folders), over each of its subfolders instead: entries directly in `root` then stay
    read-only, and a run that writes there fails as it would outside home."""
    real = os.open(root, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)  # opened here, then covered
    try:
        return {root: (real, _overlay(root, real))}
    except WorldError:
        os.close(real)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:  # two descriptors per covered folder, and there may be many
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    covered: dict[str, tuple[int, int]] = {}
    with os.scandir(root) as entries:
        folders = [e.path for e in entries if e.is_dir(follow_symlinks=False)]
    for folder in folders:
        covered.update(_cover(folder))
    return covered


def _overlay(root: str, lower: int) -> int:
    """Mount a tmpfs on `root`, then an overlay of the real `root` over it; the tmpfs stays
    reachable through the returned fd."""
    _mount("tmpfs", root, "tmpfs", MS_NOSUID, "mode=0755")
    for name in ("u", "w"):
        os.mkdir(os.path.join(root, name), 0o755)
    scratch = os.open(root, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    options = (f"lowerdir=/proc/self/fd/{lower},upperdir=/proc/self/fd/{scratch}/u,"
               f"workdir=/proc/self/fd/{scratch}/w,userxattr")
    try:
        _mount("overlay", root, "overlay", 0, options)
    except WorldError:
        os.close(scratch)
        _check(_libc.umount2(root.encode(), MNT_DETACH), f"umount {root}")
        raise
    return scratch


def _hide(path: str, scratch: int) -> None:
    """An empty read-only folder over a folder, an empty file over a file."""
    if os.path.isdir(path):
        _mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=4k,mode=0700")
    elif os.path.isfile(path) and scratch >= 0:
        empty = f"/proc/self/fd/{scratch}/empty"
        if not os.path.exists(empty):
            os.close(os.open(empty, os.O_CREAT | os.O_WRONLY, 0o400))
        _mount(empty, path, None, MS_BIND)


def _read_only(path: str) -> None:
    attr = (ctypes.c_uint64 * 4)(MOUNT_ATTR_RDONLY, 0, 0, 0)
    result = _libc.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, path.encode(), AT_RECURSIVE,
                           ctypes.byref(attr), ctypes.sizeof(attr))
    _check(result, "mount_setattr")


def _first_process() -> None:
    """Go on as the first process of the world's own process namespace, with a /proc of
    its own: the run sees and signals only its own processes (a user namespace alone lets
    `pkill` reach the user's real ones), and what it leaves running becomes this process's
    to find and stop. The process outside only waits, and ends as this one does; this one
    dies with it."""
    pid = os.fork()
    if pid:  # pragma: no cover - outside: ends in this call
        code = 125
        try:
            _, status = os.waitpid(pid, 0)
            code = os.waitstatus_to_exitcode(status)
        finally:
            os._exit(128 - code if code < 0 else code)
    _check(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl")
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)


def inside(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or below it (both absolute, as written)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _drop_capabilities() -> None:
    """No capability is left, and none comes back on exec (a root user would get all)."""
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl")
    for capability in range(64):
        if _libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            break
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(_libc.capset(ctypes.byref(header), ctypes.byref(data)), "capset")


def _stop_children() -> list[str]:
    """Kill what the run left running (this process adopts its orphans); their names."""
    names: list[str] = []
    while True:
        children = _children()
        if not children:
            return names
        for pid in children:
            with contextlib.suppress(OSError), open(f"/proc/{pid}/comm", encoding="utf-8") as comm:
                names.append(comm.read().strip())
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for pid in children:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def _children() -> list[int]:
    pid = os.getpid()
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="utf-8") as file:
                found += [int(child) for child in file.read().split()]
    alive = []
    for child in found:
        with contextlib.suppress(OSError), open(f"/proc/{child}/stat", "rb") as file:
            if file.read().rsplit(b")", 1)[1].split()[0] != b"Z":
                alive.append(child)
            else:
                os.waitpid(child, os.WNOHANG)
    return alive


def _mount(source: str | None, target: str, kind: str | None, flags: int,
           options: str | None = None) -> None:
    result = _libc.mount(
        source.encode() if source else None, target.encode(), kind.encode() if kind else None,
        ctypes.c_ulong(flags), options.encode() if options else None)
    _check(result, f"mount {kind or 'bind'} on {target}")


def _write(path: str, text: str) -> None:
    """One write(2) on a /proc file that takes a map whole."""
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise WorldError(f"{what}: {os.strerror(number)}")
