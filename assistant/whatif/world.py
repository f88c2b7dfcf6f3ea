"""Entering a what-if world: the calling process's own copy-on-write view of the machine.

`enter(plan)` is called in a process that will run a proposal and then end: a fork of the
live Python runtime, which runs Python code itself and shell or JavaScript through their
drivers' one-run mode (`run_command`). It unshares a user, mount, network and process
namespace, makes every mount read-only, and covers each folder the plan names (home, the
working folder, /tmp ...) copy-on-write, mount by mount (cover.py): writes, deletes and
renames land in tmpfs of this namespace alone and the real files stay as they are; a
mount that cannot be covered is named in the report. The assistant's own folders and
the usual secrets are hidden (shown empty; what the run writes there is reported), the
display and input devices and the sockets under /run are out of reach, the run sees no
process but its own, secret variables leave the environment, and every capability is
dropped, so the code cannot unmount the overlays to reach the real files. After the
run, `World.finish` surveys what covers the real folders and writes the changes, as JSON,
to the report file opened before any of this (so the report lands on the real disk).

Only the standard library: the Python runtime imports this inside its fork.
"""

from __future__ import annotations

import builtins
import contextlib
import ctypes
import errno
import json
import os
import shutil
import signal
import sys
import sysconfig
import types
from typing import Any

from assistant.whatif import mounts
from assistant.whatif.cover import Cover
from assistant.whatif.kernel import (
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_PRIVATE,
    MS_RDONLY,
    MS_REC,
    WorldError,
    check,
    libc,
    mount,
    read_only,
    write,
)
from assistant.whatif.mounts import inside
from assistant.whatif.survey import rebuilt, survey

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
CLONE_NEWPID = 0x20000000
PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP, PR_SET_PDEATHSIG = 38, 24, 1
DISPLAY_VARIABLES = ("DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS")
DEVICES = ("/dev/input", "/dev/uinput", "/dev/snd", "/dev/video0", "/tmp/.X11-unix")
# Where programs listen on sockets a read-only mount does not stop: the session and system
# buses, the sound server, the container engine, agents. Folders the overlays cover (home,
# /tmp) refuse a connection through the overlay already.
SOCKETS = ("/run", "/var/run")
HIDDEN_ROOM = "256k"
"""What a run may write into a hidden folder in a preview (enough for a settings file)."""
HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE

class World:
    """The namespace this process now lives in: the report's fd and what covers what."""

    def __init__(self, report: int, cover: Cover, hidden: list[str], sealed: bool) -> None:
        self._report = report
        self._cover = cover
        self._hidden = hidden
        self._sealed = sealed

    def finish(self, status: int | None, later: list[str] | None = None) -> None:
        """Stop what the run left running, survey what covers the real folders, and write
        the report, with the mounts left uncovered; `later` names the code the run left
        to run later in the runtime (threads, timers, exit hooks)."""
        left = _stop_children()
        changes: list[dict[str, Any]] = []
        for layer in self._cover.layers:
            changes += survey(f"/proc/self/fd/{layer.scratch}/u", f"/proc/self/fd/{layer.lower}",
                              layer.root)
        for folder in self._cover.rebuilt:
            changes += rebuilt(f"/proc/self/fd/{folder.top}", f"/proc/self/fd/{folder.lower}",
                               folder.root, folder.copied, folder.placed)
        uncovered = [u for u in self._cover.uncovered
                     if not any(inside(u["path"], path) for path in self._hidden)]
        data = json.dumps({"status": status, "changes": changes, "left_running": left,
                           "left_later": later or [], "uncovered": uncovered,
                           "rebuilt": [folder.root for folder in self._cover.rebuilt],
                           "hidden_written": _written(self._hidden),
                           "sealed": self._sealed})
        with os.fdopen(self._report, "w", encoding="utf-8") as report:
            report.write(data)


def enter(plan: dict[str, Any], namespace: dict[str, Any] | None = None) -> World:
    """Move this process into a what-if world made from `plan` (see preview.plan_for):
    one that covers nothing, all of it read-only, for code that cannot write (the plan's
    "pure" reading, pure.py) when `namespace`, the live one it runs in, leaves that
    reading true."""
    report = os.open(plan["report"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    try:
        return _enter(plan, report, _reading_holds(plan.get("pure"), namespace))
    except (OSError, WorldError) as error:
        os.write(report, json.dumps({"error": str(error)}).encode())
        os.close(report)
        raise


def _enter(plan: dict[str, Any], report: int, read_only: bool) -> World:
    cwd = os.getcwd()
    uid, gid = os.getuid(), os.getgid()
    roots = [] if read_only else plan["roots"]
    # Read before all is read-only; a world that covers nothing needs no mounts read.
    cover = Cover(mounts.current() if roots else [], hidden=frozenset(plan["hide"]))
    unshare(uid, gid)
    for root in roots:
        cover.root(root)
    first_scratch = cover.layers[0].scratch if cover.layers else _scratch(plan)
    for number, path in enumerate(plan["hide"]):
        _hide(path, first_scratch, number)
    for path in (*DEVICES, *SOCKETS):
        if os.path.isdir(path) and not os.path.islink(path) and \
                not any(inside(root, path) for root in roots):
            mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=4k")
    _first_process()
    _drop_capabilities()
    for name in list(os.environ):
        if name in DISPLAY_VARIABLES:  # secret variables never reached the runtime
            del os.environ[name]
    os.environ.update(plan.get("env", {}))
    os.chdir(plan.get("cwd") or cwd)  # through the overlay now: the old one was the real one
    return World(report, cover, list(plan["hide"]), read_only)


def _reading_holds(pure: dict[str, list[str]] | None, namespace: dict[str, Any] | None
                   ) -> bool:
    """The code's reading as unable to write still holds in the live `namespace`: no
    earlier run bound the builtins it uses to anything else, here or in `builtins`, nor
    put something else in place of the standard modules it imports."""
    if not pure or namespace is None:
        return False
    for name in pure["builtins"]:
        value = vars(builtins).get(name)
        if name in namespace or not _standard_builtin(name, value):
            return False
    stdlib = sysconfig.get_paths()["stdlib"]
    for name in pure["modules"]:
        module = sys.modules.get(name)
        origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
        if module is not None and (not isinstance(module, types.ModuleType) or not (
                origin in ("built-in", "frozen") or origin.startswith(stdlib))):
            return False
    return True


def _standard_builtin(name: str, value: object) -> bool:
    """`value` is the interpreter's own `name`: a function written in C under that name,
    or a type defined in C (a class written in Python is a heap type)."""
    if isinstance(value, types.BuiltinFunctionType):
        return value.__module__ == "builtins" and value.__qualname__ == name
    if isinstance(value, type):
        return not value.__flags__ & HEAP_TYPE and value.__name__ == name
    return False


def _scratch(plan: dict[str, Any]) -> int:
    """A small tmpfs of the world's own where no folder is covered, for the empty file
    hidden files are shown as: on a folder of sockets or devices, which a read-only
    tmpfs covers next."""
    for path in (*SOCKETS, *DEVICES):
        if os.path.isdir(path) and not os.path.islink(path):
            mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "size=4k,mode=0700")
            return os.open(path, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    if any(os.path.isfile(path) for path in plan["hide"]):
        raise WorldError("no folder to make the empty file hidden files are shown as")
    return -1


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


def unshare(uid: int, gid: int) -> None:
    """A user, mount, network and process namespace of its own, where every mount is
    read-only; the next child is the first process of the new process namespace.
    `uid` and `gid` are read before: in the new namespace they are unmapped until now."""
    check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID), "unshare")
    write("/proc/self/setgroups", "deny")
    write("/proc/self/uid_map", f"{uid} {uid} 1")
    write("/proc/self/gid_map", f"{gid} {gid} 1")
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    read_only("/")


def _hide(path: str, scratch: int, number: int) -> None:
    """An empty folder over a folder, an empty file of its own over a file. Both take
    writes (a folder a little), so that what a run writes to the assistant's own settings
    or beside the secrets is listed after it (`_written`) and rated, not lost in a
    refusal the code may swallow."""
    if os.path.isdir(path):
        mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, f"size={HIDDEN_ROOM},mode=0700")
    elif os.path.isfile(path) and scratch >= 0:
        empty = f"/proc/self/fd/{scratch}/hidden-{number}"
        os.close(os.open(empty, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o600))
        os.utime(empty, ns=(0, 0))  # a write stamps it with now
        mount(empty, path, None, MS_BIND)


def _written(hidden: list[str]) -> list[str]:
    """What the run wrote where it was hidden (each folder and file began empty, a file
    stamped at the epoch): files, and folders left empty, a folder ending in "/"."""
    found: list[str] = []
    for path in hidden:
        if os.path.isfile(path):
            with contextlib.suppress(OSError):
                info = os.stat(path)
                if info.st_mtime_ns or info.st_size:
                    found.append(path)
        if not os.path.isdir(path) or os.path.islink(path):
            continue
        for folder, dirs, files in os.walk(path):
            found += [os.path.join(folder, name) for name in files]
            if folder != path and not dirs and not files:
                found.append(folder + "/")
    return sorted(found)


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
    check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl")
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)


def _drop_capabilities() -> None:
    """No capability is left, and none comes back on exec (a root user would get all)."""
    check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl")
    for capability in range(64):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            break
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    data = (ctypes.c_uint32 * 6)()
    check(libc.capset(ctypes.byref(header), ctypes.byref(data)), "capset")


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
