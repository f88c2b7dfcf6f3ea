"""The host's side of a what-if run: plan the world, run the code there, read the effect.

The world's overlays cover home, the working folder and the shared scratch folders
(/tmp, /var/tmp, /dev/shm), each once (the outermost of nested ones). The report the
world writes comes back as a `Preview`: the effect for people, and the raw changes with
their hashes for what follows (keeping what a real run replaces, checking that it did
what was previewed).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from assistant.events import Effect, Event, RunEnd
from assistant.runtime import LANGUAGES, Runtimes, canonical_language
from assistant.runtime.languages import spec_for
from assistant.runtime.sandbox import HIDDEN
from assistant.runtime.secrets import keyring_paths
from assistant.whatif import pure, uncovered, world
from assistant.whatif.effect import effect_of
from assistant.whatif.mounts import inside
from assistant.whatif.probe import problem
from assistant.whatif.survey import Change

SCRATCH = ("/tmp", "/var/tmp", "/dev/shm")
RENAME_JS = Path(__file__).resolve().parent / "rename.js"

@dataclass(frozen=True)
class Preview:
    """A what-if run's outcome: its effect, the raw changes under home and the working
    folder (absolute paths, hashes), why there is no effect ("" when there is), the
    mounts it reaches that it could not cover (what a run does there cannot be undone),
    and whether it ran sealed: code read as unable to write, in a world where every
    mount is read-only, so its real run needs no listing to be held to it."""

    effect: Effect
    changes: tuple[Change, ...] = ()
    problem: str = ""
    end: RunEnd | None = field(default=None, compare=False)
    uncovered: tuple[str, ...] = ()
    sealed: bool = False


def finished(steps: Generator[Event, None, Preview]) -> Preview:
    """A preview driven to its end, its events passed over: what it printed is in its
    effect, and the real run's output is the one shown."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: Preview = done.value
            return result


def covered_roots(cwd: str) -> list[str]:
    """The folders a preview overlays, outermost first: home, `cwd`, scratch folders."""
    candidates = [str(Path.home()), cwd, *SCRATCH]
    real = sorted({os.path.realpath(p) for p in candidates if os.path.isdir(p)} - {"/"},
                  key=len)
    roots: list[str] = []
    for path in real:
        if not any(inside(path, root) for root in roots):
            roots.append(path)
    return roots


def plan_for(cwd: str, report: str, hidden: Sequence[str], language: str) -> dict[str, object]:
    """What the world needs: its overlays, what it hides, where it reports, and the module
    the runtime's fork enters it with (the driver imports nothing of assistant/whatif)."""
    home = Path.home()
    secrets = [str((home / name).resolve()) for name in HIDDEN]
    secrets += [str(path) for path in keyring_paths()]
    env = {"NODE_OPTIONS": f"--require {RENAME_JS}"} if language == "javascript" else {}
    return {"world": world.__name__, "roots": covered_roots(cwd), "report": report, "env": env,
            "hide": [p for p in dict.fromkeys([*hidden, *secrets]) if os.path.exists(p)]}


def preview(runtimes: Runtimes, language: str, code: str, *, hidden: Sequence[str] = (),
            timeout: float | None = None) -> Generator[Event, None, Preview]:
    """Run `code` once in a what-if world of `runtimes` (its live Python state included),
    yielding the run's events, and return what it would do. `hidden` paths (the
    assistant's own folders) are out of its sight.

    The world is made by a fork of the Python runtime: Python code runs in that fork,
    shell and JavaScript in their drivers' one-run mode started from it, a shell with
    the live shell's state (Runtimes.save_state). JavaScript's stays in its live
    process: a preview that fails on a name an earlier run may have defined is no
    preview, rather than a failure the real run would not have.
    """
    cwd = os.path.realpath(runtimes.cwd or os.getcwd())
    name = canonical_language(language) or language
    why = problem()
    if why:
        return _without(why)
    if name not in LANGUAGES:
        return _without(f"previews cover {', '.join(LANGUAGES)}, not {language}")
    spec = spec_for(name)
    executable = spec.executable(runtimes.env)
    if executable is None:
        return _without(spec.missing)
    folder = tempfile.mkdtemp(prefix="assistant-whatif-")
    try:
        report = os.path.join(folder, "report.json")
        plan = plan_for(cwd, report, hidden, name)
        fresh = False  # a run started without the live runtime's state (never Python's)
        reading = pure.reading(code) if name == "python" else None
        if reading is not None:  # cannot write: a world of nothing but read-only mounts
            plan["pure"] = {"builtins": list(reading.builtins),
                            "modules": list(reading.modules)}
        if name != "python":
            path, state = os.path.join(folder, "code"), os.path.join(folder, "state")
            with open(path, "w", encoding="utf-8") as file:
                file.write(code)
            kept = runtimes.save_state(name, state)
            fresh = not kept and runtimes.live(name)  # the live one holds what this lacks
            plan.update(argv=spec.once(executable, path, state if kept else ""), cwd=cwd)
        end: RunEnd | None = None
        steps = runtimes.run("python", code if name == "python" else "", timeout=timeout,
                             whatif=plan)
        for event in steps:
            if isinstance(event, RunEnd):
                end = event
            yield event
        assert end is not None, "a run always ends with RunEnd"
        lacking = uncovered.earlier_state(end.output) if fresh else ""
        return _without(lacking, end) if lacking else _read(report, end, code, cwd, hidden)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _read(report: str, end: RunEnd, code: str, cwd: str, own: Sequence[str]) -> Preview:
    try:
        with open(report, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError):
        return _without(end.output.strip() or "the what-if run ended without a report", end)
    if "error" in data:
        return _without(f"the what-if world could not be made: {data['error']}", end)
    home = os.path.realpath(Path.home())
    changes: list[Change] = []
    elsewhere: list[Change] = []
    for change in data["changes"]:
        path = change["path"]
        (changes if inside(path, cwd) or inside(path, home) else elsewhere).append(change)
    reasons = uncovered.reasons(code, end.output)
    reached = uncovered.reached(data.get("uncovered", []), code, end.output, cwd, home)
    if reached and uncovered.refused_in([m["path"] for m in reached], end.output):
        reasons.remove(uncovered.READ_ONLY)  # said better, mount by mount
    reasons += [uncovered.mount(m["path"], m["kind"], m["why"], home) for m in reached]
    busy = uncovered.beside(data.get("rebuilt", []), code, end.output, cwd, home)
    reasons += [busy] if busy else []
    if data.get("left_running"):
        reasons.append(uncovered.left_running(data["left_running"]))
    if data.get("left_later"):
        reasons.append(uncovered.left_later(data["left_later"]))
    reasons += uncovered.hidden_writes(data.get("hidden_written", []), own, home)
    if elsewhere:
        reasons.append(uncovered.outside(sorted({c["path"] for c in elsewhere})))
    if end.timed_out:
        reasons.append("took longer than the preview's time limit, and was stopped")
    if end.limit:
        reasons.append(f"was stopped by the {end.limit} limit")
    status = data["status"] if data.get("status") is not None else end.exit_status
    effect = effect_of(changes, cwd, status, end.output, reasons)
    return Preview(effect, tuple(changes), "", end, tuple(m["path"] for m in reached),
                   sealed=bool(data.get("sealed")))


def _without(why: str, end: RunEnd | None = None) -> Preview:
    return Preview(Effect(unpreviewable=(why,), summary=f"No preview: {why}."), (), why, end)
