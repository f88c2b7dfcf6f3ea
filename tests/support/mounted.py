"""Run commands with real mounts made for them, in a mount namespace of their own.

    unshare -rm python -m tests.support.mounted SPEC.json

SPEC lists `mounts`, each [kind, target, ...]: ["fuse", target, source] (bindfs),
["tmpfs", target], ["ro-bind", target, source], ["overlay", target, lower, upper, work];
then `steps`, each an argv run in `cwd` with `env`; one with `answer` runs on a terminal
(pexpect), where a person types `answer` at the first prompt ending in `?`. Prints, as
JSON, each mount made (or the one line why not) and each step's exit status, stdout and
stderr. The mounts
are taken away at the end, so nothing outlives the namespace. `unshare -rm` makes the
caller root in the namespace: the same test runs as root and as an ordinary user.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect

COMMANDS = {
    "fuse": lambda target, source: ["bindfs", source, target],
    "tmpfs": lambda target: ["mount", "-t", "tmpfs", "tmpfs", target],
    "ro-bind": lambda target, source: ["mount", "--bind", "-o", "ro", source, target],
    "overlay": lambda target, lower, upper, work: [
        "mount", "-t", "overlay", "overlay", "-o",
        f"lowerdir={lower},upperdir={upper},workdir={work}", target],
}


def main() -> int:
    spec = json.loads(Path(sys.argv[1]).read_text())
    made: list[str] = []
    mounts: dict[str, str] = {}
    steps: list[dict[str, object]] = []
    try:
        for kind, target, *rest in spec["mounts"]:
            Path(target).mkdir(parents=True, exist_ok=True)
            done = subprocess.run(COMMANDS[kind](target, *rest), capture_output=True, text=True)
            mounts[target] = done.stderr.strip() if done.returncode else ""
            if done.returncode == 0:
                made.append(target)
        for step in spec["steps"]:
            if "answer" in step:
                steps.append(_answered(step))
                continue
            ran = subprocess.run(step["argv"], cwd=step.get("cwd"), env=step.get("env"),
                                 capture_output=True, text=True, timeout=240,
                                 stdin=subprocess.DEVNULL)
            steps.append({"status": ran.returncode, "stdout": ran.stdout,
                          "stderr": ran.stderr})
    finally:
        for target in reversed(made):
            subprocess.run(["umount", "-l", target], capture_output=True)
        print(json.dumps({"mounts": mounts, "steps": steps}))
    return 0


def _answered(step: dict[str, Any]) -> dict[str, object]:
    """A step on a terminal of its own, answered as a person would."""
    argv = step["argv"]
    child = pexpect.spawn(argv[0], argv[1:], cwd=step.get("cwd"), env=step.get("env"),
                          encoding="utf-8", timeout=240, dimensions=(40, 200))
    child.expect(r"\? ")
    seen = child.before + child.after
    child.sendline(step["answer"])
    child.expect(pexpect.EOF)
    child.close()
    return {"status": child.exitstatus, "stdout": seen + child.before, "stderr": ""}


if __name__ == "__main__":
    sys.exit(main())
