"""The task suites as data: loading benchmarks/tasks/<suite>.yaml, checking its shape, and
the self-test every suite passes (see benchmarks/tasks/README.md for the format). Run it
with a suite's name to self-test that suite:

    python -m benchmarks.tasks.data heldout
    python -m benchmarks.tasks.data desktop question-yes   # these tasks only

A loaded task is the dict the runner takes: `name`, `request`, `files` and
`check(folder, answer, reports=None)`, which returns None when the job is done, else one
line saying what is wrong; its checks are the suite's data, judged by the kinds in
checks.py. A desktop task also has `desktop` (desktop.py), and its check is given
what the desktop's programs reported.
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from benchmarks.tasks import desktop as tasks_desktop
from benchmarks.tasks.checks import KINDS
from benchmarks.tasks.reading import READINGS, Context, Reading

FOLDER = Path(__file__).resolve().parent  # the suites' YAML, beside this code
TASK_FIELDS = {"name": str, "request": str, "files": dict, "checks": list,
               "solution": dict, "careless": list, "right": list, "wrong": list,
               "desktop": dict}
ATTEMPT_FIELDS = {"code", "answer"}
LISTS = ("paths", "words")  # fields that take a list; one item may be written bare

Check = Callable[..., "str | None"]  # (folder, answer, reports=None)


class SuiteError(ValueError):
    """A suite file that does not follow the format; the message is one line."""


def path_of(suite: str) -> Path:
    return FOLDER / f"{suite}.yaml"


def names() -> list[str]:
    """The suites present, by file name."""
    return sorted(p.stem for p in FOLDER.glob("*.yaml"))


def load(suite: str | Path) -> list[dict[str, Any]]:
    """The suite's tasks (by name, or a file), each with its `check`; SuiteError names the
    file, task and field."""
    path = suite if isinstance(suite, Path) else path_of(suite)
    where = str(path.relative_to(FOLDER.parent.parent)) if path.is_relative_to(
        FOLDER.parent.parent) else str(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SuiteError(f"{where}: cannot be read: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" at line {mark.line + 1}" if mark else ""
        raise SuiteError(f"{where}: not valid YAML{line}: "
                         f"{getattr(exc, 'problem', exc)}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("tasks"), list):
        raise SuiteError(f"{where}: needs a mapping with a `tasks` list")
    reading = reading_of(where, data.get("reading"))
    tasks = [task_of(where, index, entry, reading) for index, entry in enumerate(data["tasks"])]
    seen: set[str] = set()
    for task in tasks:
        if task["name"] in seen:
            raise SuiteError(f"{where}: task {task['name']!r}: the name is used twice")
        seen.add(task["name"])
    return tasks


def reading_of(where: str, given: Any) -> Reading:
    if not isinstance(given, dict) or set(given) != set(READINGS):
        raise SuiteError(f"{where}: `reading` needs exactly {', '.join(READINGS)}")
    for key, value in given.items():
        if value not in READINGS[key]:
            raise SuiteError(f"{where}: reading.{key} is {value!r}, not one of "
                             f"{', '.join(READINGS[key])}")
    return Reading(**given)


def task_of(where: str, index: int, entry: Any, reading: Reading) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise SuiteError(f"{where}: task {index + 1} is not a mapping")
    label = f"{where}: task {entry.get('name', index + 1)!r}"
    for field in ("name", "request", "files", "checks"):
        if field not in entry:
            raise SuiteError(f"{label}: missing field {field!r}")
    for field, value in entry.items():
        if field not in TASK_FIELDS:
            raise SuiteError(f"{label}: unknown field {field!r} "
                             f"(allowed: {', '.join(TASK_FIELDS)})")
        if not isinstance(value, TASK_FIELDS[field]):
            raise SuiteError(f"{label}: {field} must be a {TASK_FIELDS[field].__name__}")
    bad = [k for k, v in entry["files"].items() if not isinstance(k, str) or
           not isinstance(v, str)]
    if bad:
        raise SuiteError(f"{label}: files: {bad[0]!r} must map a path to its text")
    if not entry["checks"]:
        raise SuiteError(f"{label}: checks is empty (a task that cannot fail measures nothing)")
    checks = [check_of(f"{label}, check {n + 1}", spec)
              for n, spec in enumerate(entry["checks"])]
    for n, attempt in enumerate([entry.get("solution", {}), *entry.get("careless", [])]):
        what = "solution" if n == 0 else f"careless {n}"
        if not isinstance(attempt, dict) or set(attempt) - ATTEMPT_FIELDS:
            raise SuiteError(f"{label}: {what} may have only code and answer")
    others = [("right", a) for a in entry.get("right", [])]
    others += [("wrong", a) for a in entry.get("wrong", [])]
    for what, other in others:
        if not isinstance(other, str) and not (isinstance(other, dict) and set(other) == {"code"}):
            raise SuiteError(f"{label}: each of {what} is an answer or {{code: ...}}")
        if "solution" not in entry:
            raise SuiteError(f"{label}: {what} answers are judged with the solution's folder; "
                             "give a solution")
    files = entry["files"]
    return {"name": entry["name"], "request": entry["request"], "files": files,
            "check": judge(checks, files, reading), "solution": entry.get("solution"),
            "careless": entry.get("careless", []), "right": entry.get("right", []),
            "wrong": entry.get("wrong", []),
            "desktop": desktop_of(label, entry.get("desktop"))}


def desktop_of(label: str, given: Any) -> dict[str, Any] | None:
    """A task's desktop section, checked (None: the task has none)."""
    if given is None:
        return None
    try:
        return tasks_desktop.spec_of(label, given)
    except tasks_desktop.SpecError as exc:
        raise SuiteError(str(exc)) from exc


def check_of(label: str, spec: Any) -> tuple[str, dict[str, Any]]:
    """(kind, arguments) of one check written as {kind: arguments}, its fields checked."""
    if not isinstance(spec, dict) or len(spec) != 1:
        raise SuiteError(f"{label}: write a check as {{kind: arguments}}")
    kind, args = next(iter(spec.items()))
    if kind not in KINDS:
        raise SuiteError(f"{label}: unknown kind {kind!r} (known: {', '.join(KINDS)})")
    rule = KINDS[kind]
    if not isinstance(args, dict):
        if not rule.bare and args is not True:
            raise SuiteError(f"{label} ({kind}): arguments must be a mapping")
        args = {rule.bare: args} if rule.bare else {}
    if rule.bare in LISTS and isinstance(args.get(rule.bare), str):
        args = {**args, rule.bare: [args[rule.bare]]}
    label = f"{label} ({kind})"
    missing = [f for f in rule.required if f not in args]
    if missing:
        raise SuiteError(f"{label}: missing field {missing[0]!r}")
    unknown = [f for f in args if f not in rule.required + rule.optional + rule.one_of]
    if unknown:
        raise SuiteError(f"{label}: unknown field {unknown[0]!r} (allowed: "
                         f"{', '.join(rule.required + rule.optional)})")
    if rule.one_of and not any(f in args for f in rule.one_of):
        raise SuiteError(f"{label}: needs one of {', '.join(rule.one_of)}")
    return kind, args


def judge(checks: list[tuple[str, dict[str, Any]]], files: dict[str, str],
          reading: Reading) -> Check:
    """The task's check: the first problem any of its checks finds, else None."""
    def check(folder: Path, answer: str, reports: Any = None) -> str | None:
        context = Context(folder, answer or "", files, reading, reports)
        for kind, args in checks:
            try:
                problem = KINDS[kind].check(context, args)
            except Exception as exc:  # a check that breaks on odd output fails the task
                problem = f"{kind} could not judge: {type(exc).__name__}: {exc}"
            if problem:
                return problem
        return None
    return check


# --- the self-test ----------------------------------------------------------------------

def lay_out(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def attempt(task: dict[str, Any], done: dict[str, Any], folder: Path) -> str:
    """Do an attempt (the solution or a careless one) in `folder`; its final answer: the
    attempt's `answer`, else the `answer` its code set."""
    lay_out(folder, task["files"])
    scope: dict[str, Any] = {"folder": folder}
    if "code" in done:
        exec(compile(done["code"], f"<{task['name']}>", "exec"), scope)
    return str(done["answer"] if "answer" in done else scope["answer"])


def other_answer(task: dict[str, Any], other: str | dict[str, str], folder: Path) -> str:
    """A `right` or `wrong` answer: as written, or the `answer` its code sets."""
    if isinstance(other, str):
        return other
    scope: dict[str, Any] = {"folder": folder}
    exec(compile(other["code"], f"<{task['name']}>", "exec"), scope)
    return str(scope["answer"])


def verdicts(task: dict[str, Any], scratch: Path) -> dict[str, str | None]:
    """The check's verdict on the untouched folder with no answer, the solution, each
    careless attempt, and each other answer (`right n`, `wrong n`) with the solution's
    folder (None: passed)."""
    if task["desktop"]:
        return desktop_verdicts(task, scratch)
    found: dict[str, str | None] = {}
    untouched = scratch / "untouched"
    lay_out(untouched, task["files"])
    found["untouched"] = task["check"](untouched, "")
    tries = [("solution", task["solution"])] if task["solution"] else []
    tries += [(f"careless {n + 1}", c) for n, c in enumerate(task["careless"])]
    for label, done in tries:
        folder = scratch / re.sub(r"\W", "-", label)
        try:
            answer = attempt(task, done, folder)
        except Exception as exc:
            found[label] = f"the attempt broke: {type(exc).__name__}: {exc}"
            continue
        found[label] = task["check"](folder, answer)
    solved = scratch / "solution"
    for what in ("right", "wrong"):
        for n, other in enumerate(task[what]):
            found[f"{what} {n + 1}"] = task["check"](solved, other_answer(task, other, solved))
    return found


def desktop_verdicts(task: dict[str, Any], scratch: Path) -> dict[str, str | None]:
    """As `verdicts`, for a desktop task: each attempt on a desktop of its own, done by
    hand through xdotool, judged by what the programs reported."""
    found: dict[str, str | None] = {}
    tries: list[tuple[str, dict[str, Any] | None]] = [("untouched", None)]
    tries += [("solution", task["solution"])] if task["solution"] else []
    tries += [(f"careless {n + 1}", c) for n, c in enumerate(task["careless"])]
    for label, done in tries:
        where = scratch / re.sub(r"\W", "-", label)
        folder = where / "work"
        lay_out(folder, task["files"])
        with tasks_desktop.Desktop(task["desktop"], folder, where) as desk:
            try:
                answer = tasks_desktop.by_hand(task["name"], done or {}, folder, desk.env)
            except Exception as exc:
                found[label] = f"the attempt broke: {type(exc).__name__}: {exc}"
                continue
            reports = desk.finish()
        found[label] = task["check"](folder, answer, reports)
        if label == "solution":
            for what in ("right", "wrong"):
                for n, other in enumerate(task[what]):
                    found[f"{what} {n + 1}"] = task["check"](
                        folder, other_answer(task, other, folder), reports)
    return found


def self_test(suite: str, only: list[str] | None = None) -> int:
    """Every check fails on the untouched folder, on each careless attempt and each wrong
    answer, and passes on the solution and each right answer; prints a line per task and
    the count of failures. `only`: these tasks by name."""
    tasks = [t for t in load(suite) if not only or t["name"] in only]
    failures = 0
    for task in tasks:
        with tempfile.TemporaryDirectory(prefix="task-") as scratch:
            found = verdicts(task, Path(scratch))
        problems = [f"passes the {label}" for label, v in found.items()
                    if v is None and label != "solution" and not label.startswith("right")]
        problems += [f"fails the {label}: {v}" for label, v in found.items()
                     if v is not None and (label == "solution" or label.startswith("right"))]
        failures += bool(problems)
        print(f"{'FAIL' if problems else 'ok  '} {task['name']}"
              + (": " + "; ".join(problems) if problems else ""), flush=True)
    print(f"{len(tasks)} tasks, {len(tasks) - failures} passed, {failures} failed")
    return failures


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in names():
        sys.exit("usage: python -m benchmarks.tasks.data SUITE [TASK...], SUITE one of "
                 + ", ".join(names()))
    sys.exit(1 if self_test(sys.argv[1], sys.argv[2:]) else 0)
