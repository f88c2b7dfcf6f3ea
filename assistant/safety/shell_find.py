"""find's expression: the folders it starts from, whether a test picks some files or it
reaches every one, and the commands it runs on them (`-exec`, `-delete`)."""

from __future__ import annotations

import re

from assistant.safety import paths
from assistant.safety.files import delete_findings
from assistant.safety.findings import Finding, Level
from assistant.safety.shell_parse import Call

DELETERS = ("rm", "shred", "srm", "unlink", "rmdir", "wipe")
"""Commands that delete the files they are given."""
FIND_TESTS = re.compile(
    r"-i?(name|path|wholename|regex|lname)|-[acm](min|time)|-[ac]?newer|-newer[aBcmt]{2}|-used"
    r"|-size|-empty|-executable|-perm|-user|-uid|-group|-gid|-nouser|-nogroup|-links|-inum"
    r"|-samefile|-context")
"""find's tests that pick some files among all. -type, -xtype, -readable, -writable, -fstype
and the depth options match (nearly) every file of a folder, so they pick none."""


def find_parts(args: list[str]) -> tuple[list[str], list[str]]:
    """find's start folders (`.` when it names none) and its expression."""
    first = next((i for i, a in enumerate(args) if a.startswith("-") or a in ("(", "!")),
                 len(args))
    return args[:first] or ["."], args[first:]


def find_output(args: list[str]) -> list[str]:
    """What a find prints, as paths: every file under each start folder when no test picks
    some (what `find . -type f | xargs rm` reaches); nothing known when one does."""
    roots, expression = find_parts(args)
    return [] if _picks(expression, len(expression)) else [f"{r}/{paths.EVERY}" for r in roots]


def _picks(expression: list[str], at: int) -> bool:
    """Whether a test picks the files the action at `at` reaches. One in another `-o` branch
    (a pruned folder) or negated (`! -name x`: all but x) leaves it every file."""
    start, end, depth = 0, len(expression), 0
    for i, word in enumerate(expression):
        depth += (word == "(") - (word == ")")
        if depth == 0 and word in ("-o", "-or"):
            if i >= at:
                end = i
                break
            start = i + 1
    branch = expression[start:end]
    return any(FIND_TESTS.fullmatch(w) and (i == 0 or branch[i - 1] not in ("!", "-not"))
               for i, w in enumerate(branch))


def find_rule(call: Call) -> list[Finding]:
    roots, expression = find_parts(call.args)
    runs = _find_runs(expression)
    deleting = [i for i, a in enumerate(expression) if a == "-delete"] + [
        at for at, words in runs if words and words[0].rsplit("/", 1)[-1] in DELETERS]
    if deleting:
        if not _picks(expression, deleting[0]):
            return [f for r in roots for f in delete_findings(
                "rm", [f"{paths.normalise(r)}/{paths.EVERY}"], call.part, call.scope.protected)]
        # A test picks some files: in a folder of home (Downloads) the preview shows how
        # many, and many are high there; over all of home, `/` or a system folder it is
        # high whatever it picks.
        whole = any(_whole(r) or paths.is_system(r) for r in roots)
        level: Level = "high" if whole else "medium"
        return [call.finding("delete", level, f"deletes files found under {' '.join(roots)}")]
    found: list[Finding] = []
    for at, words in runs:  # `{}` is each file found anywhere under the start folder
        every = f"{roots[0]}/{paths.EVERY}" + ("/picked" if _picks(expression, at) else "")
        found += call.scope.inner(" ".join(w if w != "{}" else every for w in words), "shell")
    return found


def _whole(root: str) -> bool:
    """Home, `/`, a mount point or a folder holding home: wide beyond one folder of home."""
    folder = paths.normalise(root)
    return paths.is_wide(folder) and not (folder.startswith("~/") and folder.count("/") == 1)


def _find_runs(expression: list[str]) -> list[tuple[int, list[str]]]:
    """Each command find runs (-exec, -execdir, -ok, -okdir), with where it stands."""
    runs = []
    for at, flag in enumerate(expression):
        if flag in ("-exec", "-execdir", "-ok", "-okdir"):
            rest = expression[at + 1 :]
            end = next((i for i, a in enumerate(rest) if a in (";", "+", "\\;")), len(rest))
            runs.append((at, rest[:end]))
    return runs
