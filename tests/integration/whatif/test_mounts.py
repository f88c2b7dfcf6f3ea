"""Previews beside real mounts made in the test: a FUSE mount (bindfs) under /tmp and in
a temporary home, a tmpfs, a read-only bind and an overlay stacked on an overlay (one the
kernel will not overlay again). Each is made in a mount namespace of the test's own
(`unshare -rm`, so as root and as an ordinary user alike); the assistant runs there as
a real process: the preview covers the rest and names what it does not, undo puts back
the rest, and doctor names the mount."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.integration.conftest import ROOT, cli_args
from tests.support.folders import contents
from tests.support.llm_server import LLMServer, text, tool_call
from tests.support.require import lacking, require

CODE = ("mkdir old && mv *.log old/\n"
        "echo new > ~/drive/new.txt\n"
        "echo b > ~/box/b.txt\n"
        "echo r > ~/ram/r.txt\n"
        "echo s >> ~/stack/deep.txt\n"
        "touch ~/shelf/x 2>/dev/null || echo shelf is read-only\n")
STACKED = "this kernel refuses an overlay over an overlay root"


class Machine:
    """A temporary home with a working folder and the mounts a person's machine has."""

    def __init__(self, base: Path) -> None:
        require(shutil.which("unshare"), "unshare (util-linux) is not installed")
        require(shutil.which("bindfs"), "bindfs is not installed (apt-get install bindfs)")
        require(os.access("/dev/fuse", os.R_OK | os.W_OK), "/dev/fuse cannot be opened here")
        self.base, self.home = base, base / "home"
        self.work = self.home / "work"
        self.work.mkdir(parents=True)
        for name in ("a.log", "b.log", "notes.txt"):
            (self.work / name).write_text(f"{name}\n")
        for folder in ("drive-src", "fuse-src", "shelf-src", "o1/l/deep", "o1/u", "o1/w",
                       "o2/u", "o2/w", "o3/l", "o3/u", "o3/w"):
            (base / folder).mkdir(parents=True)
        (base / "drive-src" / "kept.txt").write_text("on the drive\n")
        (base / "shelf-src" / "book.txt").write_text("a book\n")
        (base / "o1" / "l" / "deep" / "deep.txt").write_text("deep\n")
        self.mounts: list[list[str]] = [
            ["fuse", str(self.home / "drive"), str(base / "drive-src")],
            ["fuse", str(base / "fuse"), str(base / "fuse-src")],  # under /tmp, not home
            ["tmpfs", str(self.home / "ram")],
            ["ro-bind", str(self.home / "shelf"), str(base / "shelf-src")],
            ["overlay", str(base / "o1" / "m"), str(base / "o1" / "l"), str(base / "o1" / "u"),
             str(base / "o1" / "w")],
            ["overlay", str(self.home / "stack"), str(base / "o1" / "m" / "deep"),
             str(base / "o2" / "u"), str(base / "o2" / "w")],
            # one overlay, as a container's root is: another can go over it
            ["overlay", str(self.home / "box"), str(base / "o3" / "l"), str(base / "o3" / "u"),
             str(base / "o3" / "w")],
        ]

    def run(self, *steps: list[str], mounts: list[list[str]] | None = None,
            answer: str = "", cwd: Path | None = None) -> list[Any]:
        """`steps` run one after the other in the working folder, with the mounts made;
        `answer`: the first runs on a terminal, where a person types it when asked."""
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(self.home)}
        for name in ("DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"):
            env.pop(name, None)  # the session's buses are not reachable from the namespace
        spec = {"mounts": self.mounts if mounts is None else mounts,
                "steps": [{"argv": argv, "cwd": str(cwd or self.work), "env": env}
                          for argv in steps]}
        if answer:
            spec["steps"][0]["answer"] = answer
        path = self.base / "spec.json"
        path.write_text(json.dumps(spec))
        done = subprocess.run(["unshare", "-rm", sys.executable, "-m", "tests.support.mounted",
                               str(path)], capture_output=True, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600)
        assert done.returncode == 0, done.stderr
        said = json.loads(done.stdout)
        refused = {target: why for target, why in said["mounts"].items() if why}
        if refused:
            lacking(f"the test's mounts could not be made: {refused}")
        steps_said: list[Any] = said["steps"]
        return steps_said


def assistant(*args: str) -> list[str]:
    return [sys.executable, "-m", "assistant.cli", *args]


PREVIEW = assistant("preview", "--json", "-l", "shell", "-")


def preview(machine: Machine, code: str, **options: Any) -> list[Any]:
    script = f"printf '%s' {shlex.quote(code)} | " + " ".join(PREVIEW)
    return machine.run(["sh", "-c", script], **options)


def test_a_fuse_mount_under_tmp_leaves_previews_on_elsewhere(tmp_path: Path) -> None:
    machine = Machine(tmp_path)
    (said,) = preview(machine, "mkdir old && mv *.log old/",
                      mounts=[machine.mounts[1]])
    assert said["status"] == 0, said["stderr"] + said["stdout"]
    effect = json.loads(said["stdout"])
    assert effect["unpreviewable"] == []
    assert sorted(map(tuple, effect["moved"])) == [("a.log", "old/a.log"), ("b.log", "old/b.log")]
    assert sorted(os.listdir(machine.work)) == ["a.log", "b.log", "notes.txt"]


PORTALS = ("/usr/libexec/xdg-document-portal", "/usr/lib/xdg-document-portal")
WITH_PORTAL = """
{portal} </dev/null >/dev/null 2>&1 &
portal=$!
doc=" $XDG_RUNTIME_DIR/doc "
for i in $(seq 300); do grep -q "$doc" /proc/self/mountinfo && break; sleep 0.1; done
grep -q "$doc" /proc/self/mountinfo || {{ echo the portal mounted nothing; exit 3; }}
printf '%s' 'mkdir old && mv *.log old/' | {preview}
status=$?
kill $portal
exit $status
"""


def test_a_desktop_session_with_the_document_portal_leaves_previews_on(tmp_path: Path) -> None:
    """A desktop session's document portal mounts a FUSE filesystem in its runtime folder
    (under /tmp for a test's desktop, as here): previews go on beside it."""
    machine = Machine(tmp_path)
    portal = next((p for p in PORTALS if os.access(p, os.X_OK)), None)
    require(portal, "xdg-document-portal is not installed (apt-get install xdg-desktop-portal)")
    require(shutil.which("dbus-run-session"), "dbus-run-session is not installed (dbus)")
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    script = WITH_PORTAL.format(portal=portal, preview=shlex.join(PREVIEW))
    (said,) = machine.run(["env", f"XDG_RUNTIME_DIR={runtime}", "dbus-run-session", "--",
                           "sh", "-c", script], mounts=[])
    assert said["status"] == 0, said["stderr"] + said["stdout"]
    effect = json.loads(said["stdout"])
    assert effect["unpreviewable"] == []
    assert sorted(map(tuple, effect["moved"])) == [("a.log", "old/a.log"), ("b.log", "old/b.log")]
    assert sorted(os.listdir(machine.work)) == ["a.log", "b.log", "notes.txt"]


def test_in_a_home_with_a_mount_the_files_beside_it_are_previewed(tmp_path: Path) -> None:
    """Home itself is the working folder and holds a FUSE mount: its files are moved in
    the preview as for real; renaming a folder directly in it, which the preview cannot
    do there (each folder is covered on its own), is said, not passed off as a failure."""
    machine = Machine(tmp_path)
    for name in ("a.log", "b.log"):
        (machine.home / name).write_text(name)
    (machine.home / "Documents").mkdir()
    (said,) = machine.run(
        ["sh", "-c", "printf '%s' 'mkdir old && mv *.log old/ && mv Documents Docs' | "
         + shlex.join(PREVIEW)], mounts=[machine.mounts[0]], cwd=machine.home)
    effect = json.loads(said["stdout"])
    assert sorted(map(tuple, effect["moved"])) == [("a.log", "old/a.log"), ("b.log", "old/b.log")]
    assert effect["unpreviewable"] == [
        "moves or removes an entry directly in ~, which a preview cannot do beside the mounts "
        "there"]
    assert sorted(os.listdir(machine.home)) == ["Documents", "a.log", "b.log", "drive", "work"]


def test_the_preview_covers_each_mount_it_can_and_names_the_one_it_cannot(
        tmp_path: Path) -> None:
    machine = Machine(tmp_path)
    before = contents(machine.work)
    big = machine.home / "big.bin"  # beside the mounts in home, too large to copy
    big.write_bytes(b"\0" * (9 * 2**20))
    said, stack = preview(machine, CODE + f"echo f > {tmp_path}/fuse/f.txt\nrm ~/big.bin\n"
                          ) + machine.run(["cat", str(machine.home / "stack" / "deep.txt")])[:1]
    effect = json.loads(said["stdout"])
    assert sorted(map(tuple, effect["moved"])) == [("a.log", "old/a.log"), ("b.log", "old/b.log")]
    created = " ".join(effect["created"])
    assert "drive/new.txt" in created and "ram/r.txt" in created  # FUSE and tmpfs: covered
    assert "box/b.txt" in created  # an overlay over an overlay mount, as in a container
    reasons = " | ".join(effect["unpreviewable"])
    assert f"reaches ~/stack (an overlay mount), which the preview does not cover ({STACKED}" \
        in reasons
    assert f"{tmp_path}/fuse/f.txt" in reasons  # written under /tmp, as any write there
    assert "does not allow" not in reasons  # the refused write is the stack's, said above
    assert effect["risk"] == "medium"  # what a run does there is unseen: never unattended
    assert "shelf" not in reasons and "shelf is read-only" in effect["output"]  # as for real
    assert "reaches ~/big.bin (a large file beside a mount), which the preview does not " \
           "cover (it is shown read-only, not copied)" in reasons and big.exists()
    assert contents(machine.work) == before
    assert os.listdir(tmp_path / "drive-src") == ["kept.txt"]
    assert os.listdir(tmp_path / "fuse-src") == []
    assert stack["stdout"] == "deep\n"


def test_undo_puts_back_the_rest_and_the_run_says_what_it_cannot(tmp_path: Path) -> None:
    machine = Machine(tmp_path)
    before = contents(machine.work)
    look = ["sh", "-c", "ls ~/ram ~/box; cat ~/stack/deep.txt"]
    with LLMServer([tool_call("shell", CODE), text("Done.")]) as server:
        # rated medium (it reaches a mount the preview could not cover): a person says yes
        ran, after_run, undone, after_undo = machine.run(
            [sys.executable, *cli_args(server, "tidy up")], look, assistant("undo"), look,
            answer="y")
    # as read: the colours, which close and reopen where a line wraps, left out
    said = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", ran["stdout"]).split())
    assert ran["status"] == 0, ran["stderr"]
    assert "What it did in ~/stack cannot be undone" in said
    assert "To take it back: assistant undo" in said
    assert after_run["stdout"] == f"{machine.home}/box:\nb.txt\n\n{machine.home}/ram:\nr.txt\n" \
        "deep\ns\n"
    assert undone["status"] == 0 and undone["stdout"].startswith("Undid run "), undone["stderr"]
    assert contents(machine.work) == before
    assert os.listdir(tmp_path / "drive-src") == ["kept.txt"]  # the FUSE mount's file: gone
    # the overlay and the tmpfs put back; the stack could not be
    assert after_undo["stdout"] == f"{machine.home}/box:\n\n{machine.home}/ram:\ndeep\ns\n"


def test_doctor_names_the_mount_and_what_to_do(tmp_path: Path) -> None:
    machine = Machine(tmp_path)
    (said,) = machine.run(assistant("doctor", "--json"))
    assert said["stdout"].startswith("["), said["stderr"]
    check = {c["component"]: c for c in json.loads(said["stdout"])}["preview and undo"]
    assert check["ok"] is False
    # another program's mount left on this machine may be named too, before it
    assert f"{machine.home}/stack (an overlay mount) is not covered: {STACKED}" \
        in check["detail"]
    assert f"umount {machine.home}/stack" in check["fix"]
    assert "drive" not in check["detail"] and "ram" not in check["detail"]


AGAIN = """
import json, os, subprocess, sys
from assistant.config import load_settings
from assistant.events import Notice
from assistant.whatif.probe import problem
from assistant.whatif.transaction import runtimes_for

def allow(count):
    with open("/proc/sys/user/max_user_namespaces", "w") as limit:
        limit.write(str(count))

allow(0)
told = []
with runtimes_for(load_settings(), told.append, cwd=sys.argv[1]) as runtimes:
    kept = problem()
    allow(100)
    same = problem()
    subprocess.run(["mount", "-t", "tmpfs", "tmpfs", sys.argv[2]], check=True)
    notices = [e.text for e in runtimes.run("shell", "echo x > made.txt")
               if isinstance(e, Notice)]
print(json.dumps({"told": told, "kept": kept, "same": same, "after": problem(),
                  "notices": notices}))
"""


def test_a_refusal_is_tried_again_when_the_mounts_change(tmp_path: Path) -> None:
    """A conversation that began where user namespaces were refused previews its runs,
    and can undo them, once the system allows them and a mount came or went: the answer
    is not kept for the life of the process."""
    require(shutil.which("unshare"), "unshare (util-linux) is not installed")
    for name in ("work", "new"):
        (tmp_path / name).mkdir()
    done = subprocess.run(
        ["unshare", "-rm", sys.executable, "-c", AGAIN, str(tmp_path / "work"),
         str(tmp_path / "new")],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["told"] == [f"runs are not previewed and cannot be undone: {said['kept']}"]
    assert said["kept"].startswith("previews need user namespaces, which this system allows")
    assert said["same"] == said["kept"]  # the mounts are as they were: the answer is kept
    assert said["after"] == ""
    assert any("To take it back: assistant undo" in notice for notice in said["notices"])
    assert (tmp_path / "work" / "made.txt").read_text() == "x\n"


def test_the_display_sockets_stay_out_of_reach_beside_a_mount_in_tmp(tmp_path: Path) -> None:
    """With /tmp rebuilt around a mount in it, the X server's socket folder is still
    emptied in the preview (here a tmpfs of the test's own at /tmp/.X11-unix)."""
    machine = Machine(tmp_path)
    (made, said) = machine.run(
        ["touch", "/tmp/.X11-unix/X99"],
        ["sh", "-c", "printf '%s' 'ls -A /tmp/.X11-unix' | " + shlex.join(PREVIEW)],
        mounts=[["tmpfs", "/tmp/.X11-unix"], machine.mounts[1]])
    assert made["status"] == 0, made["stderr"]
    effect = json.loads(said["stdout"])
    assert effect["exit"] == 0 and effect["output"] == ""
