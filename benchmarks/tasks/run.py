"""Running one task with one system: a fresh folder, a separate process, a time limit.

Both systems run as a child process whose working directory is the task's folder: ours
through the Python API (this file, run as a script by our venv), the incumbent through
its own Python API in .bench/. Every proposal is approved as the user would (ours: an
approver answering for the user; theirs: auto_run). Each child writes what happens as
JSON lines to a log outside the folder. At its time limit, ours is stopped as a person
stops a turn (`interrupt`), so it ends in its words; a child that does not end even then
is killed, and its log still shows how far it got. Tokens are read from the shared
server's own log, the same for both.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TURN_LIMIT_S = 120.0
START_MARGIN_S = 30.0  # a child's own start (imports, the incumbent's kernel) on top

# Runs inside .bench/ with the incumbent: python OI_SCRIPT CONFIG_JSON.
OI_SCRIPT = r'''
import json, sys, time
config = json.loads(sys.argv[1])
log = open(config["log"], "a")
def note(**record):
    log.write(json.dumps(record) + "\n")
    log.flush()
from interpreter import interpreter
interpreter.disable_telemetry = True
interpreter.offline = True
interpreter.auto_run = True
interpreter.llm.model = config["model"]
interpreter.llm.api_base = config["api_base"]
interpreter.llm.api_key = "none"
interpreter.llm.context_window = config["context_window"]
interpreter.llm.max_tokens = config["max_tokens"]
interpreter.llm.temperature = config["temperature"]
note(started=True)
began = time.perf_counter()
seen = 0
def flush(upto):
    global seen
    for message in interpreter.messages[seen:upto]:
        note(message={k: str(v)[:800] for k, v in message.items()})
    seen = max(seen, upto)
try:
    for chunk in interpreter.chat(config["request"], display=False, stream=True):
        flush(len(interpreter.messages) - 1)
    flush(len(interpreter.messages))
    reason = "answered"
except Exception as exc:
    note(error=f"{type(exc).__name__}: {exc}"[:600])
    reason = "error"
said = [m for m in interpreter.messages if m.get("role") == "assistant"
        and m.get("type") == "message"]
last = interpreter.messages[-1] if interpreter.messages else {}
answer = said[-1]["content"] if said and last is said[-1] else ""
note(end=True, answer=answer, reason=reason, seconds=time.perf_counter() - began)
interpreter.computer.terminate()
'''


def ours_in_process(config: dict[str, Any]) -> None:
    """One turn of ours in this process (its cwd is the task's folder), logged as it goes."""
    from assistant import Assistant
    from assistant.events import (
        Approval,
        Error,
        Notice,
        Proposal,
        RuleFired,
        RunEnd,
        Tried,
        TurnEnd,
        Usage,
    )

    with open(config["log"], "a") as log:
        def note(**record: Any) -> None:
            log.write(json.dumps(record) + "\n")
            log.flush()

        def approve(proposal: Proposal) -> Approval:
            return Approval(proposal.id, True, "user", proposal.code)

        with Assistant(approver=approve, journal=False, **config["settings"]) as assistant:
            note(started=True)
            began = time.perf_counter()
            end = TurnEnd("", "error")
            # at the limit, stopped as a person would stop it: the turn still ends in words
            limit = threading.Timer(float(config.get("limit_s", TURN_LIMIT_S)),
                                    assistant.interrupt)
            limit.daemon = True
            limit.start()
            for event in assistant.turn(config["request"]):
                if isinstance(event, Proposal):
                    note(proposal=event.language, code=event.code[:800], risk=event.risk)
                elif isinstance(event, Approval) and not event.approved:
                    note(declined=event.reason)
                elif isinstance(event, RunEnd):
                    note(exit_status=event.exit_status, output=event.output[-600:])
                elif isinstance(event, (Notice, Tried, Error)):
                    note(notice=getattr(event, "text", "") or getattr(event, "message", ""))
                elif isinstance(event, RuleFired):
                    note(rule=event.rule, action=event.action)
                elif isinstance(event, Usage):
                    note(usage=[event.prompt_tokens, event.completion_tokens])
                elif isinstance(event, TurnEnd):
                    end = event
            limit.cancel()
            note(end=True, answer=end.text, reason=end.reason,
                 seconds=time.perf_counter() - began)


def lay_out(folder: Path, files: dict[str, str]) -> None:
    """Write a task's files (relative path -> text) into `folder`, making it if needed."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@dataclass
class Outcome:
    """How one task went for one system."""

    passed: bool
    reason: str
    seconds: float
    answer: str = ""
    end_reason: str = ""
    tokens: dict[str, int] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)


def read_log(path: Path) -> list[dict[str, Any]]:
    records = []
    if path.is_file():
        for line in path.read_text(errors="replace").splitlines():
            try:
                records.append(json.loads(line))
            except ValueError:
                continue
    return records


def kill_leftovers(session: int, folder: Path) -> None:
    """Kill what a child left running: its session, and anything working in its folder."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            sid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[3])
            cwd = os.readlink(entry / "cwd")
        except (OSError, ValueError, IndexError):
            continue
        if sid == session or cwd == str(folder) or cwd.startswith(f"{folder}/"):
            with contextlib.suppress(OSError):
                os.kill(int(entry.name), signal.SIGKILL)


def child_env(home: Path, config: dict[str, Any]) -> dict[str, str]:
    """The environment of a run: no settings of the user's, no telemetry, no price-list
    download; the same for both systems. Ours imports the copy of its code in
    `pythonpath`, so edits made to the tree during a long run do not mix in. Its own
    folders have names no model guesses: a `data` beside the task's folder once answered
    a model that dropped `work/` from the path of the task's data folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    if config.get("pythonpath"):
        env["PYTHONPATH"] = config["pythonpath"]
    env.update({
        "ASSISTANT_CONFIG_DIR": str(home / "assistant-config"),
        "ASSISTANT_DATA_DIR": str(home / "assistant-data"),
        "DISABLE_TELEMETRY": "true", "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "HF_HUB_OFFLINE": "1", "PYTHONWARNINGS": "ignore", "MPLBACKEND": "Agg",
        "OLLAMA_API_BASE": "http://127.0.0.1:9", "PYTHONDONTWRITEBYTECODE": "1",
        # offline, as the benchmark's model: no package is fetched mid-task
        "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "", "NPM_CONFIG_OFFLINE": "true",
    })
    return env


def command(system: str, config: dict[str, Any], scratch: Path) -> list[str]:
    if system == "ours":
        return [sys.executable, __file__, json.dumps(config)]  # the venv the suites run in
    script = scratch / "oi_task.py"
    script.write_text(OI_SCRIPT)
    return [str(ROOT / ".bench" / "bin" / "python"), str(script), json.dumps(config)]


def run_task(task: dict[str, Any], system: str, config: dict[str, Any],
             server_log: ServerLog) -> Outcome:
    """Lay out the task in a fresh folder (and a desktop, if it has one), run `system` on
    it, check what it left and what the desktop's programs reported."""
    with tempfile.TemporaryDirectory(prefix="task-") as scratch_name, \
            contextlib.ExitStack() as stack:
        scratch = Path(scratch_name)
        folder = scratch / "work"
        lay_out(folder, task["files"])
        desk = None
        if task.get("desktop"):
            # here, not at the top: this file also runs alone as the child, outside the package
            from benchmarks.tasks import desktop as tasks_desktop

            desk = stack.enter_context(tasks_desktop.Desktop(task["desktop"], folder, scratch))
        log = scratch / "events.jsonl"
        config = {**config, "request": task["request"], "log": str(log)}
        limit = float(config.get("limit_s", TURN_LIMIT_S))
        mark = server_log.mark()
        began = time.perf_counter()
        with open(scratch / "stderr", "w") as stderr:
            child = subprocess.Popen(command(system, config, scratch), cwd=folder,
                                     env={**child_env(scratch, config),
                                          **(desk.env if desk else {})},
                                     stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=stderr,
                                     start_new_session=True)
            killed = False
            try:
                child.wait(timeout=limit + START_MARGIN_S)
            except subprocess.TimeoutExpired:
                killed = True
            finally:  # also when the caller is interrupted: nothing is left running
                reports = desk.finish() if desk else None  # before its programs are killed
                kill_leftovers(child.pid, folder)
                child.wait()
        wall = time.perf_counter() - began
        records = read_log(log)
        tokens = server_log.tokens_since(mark)
        end = next((r for r in records if r.get("end")), None)
        started = any(r.get("started") for r in records)
        if end is None:
            tail = (scratch / "stderr").read_text(errors="replace").strip().splitlines()[-1:]
            why = (f"time limit ({wall:.0f} s)" if killed and started else
                   f"exited {child.returncode} before the end: {' '.join(tail)[:200]}")
            return Outcome(False, why, wall if started else 0.0, tokens=tokens, log=records)
        seconds = float(end["seconds"])
        answer = str(end.get("answer") or "")
        if end.get("reason") == "interrupted":  # stopped at the limit, in its own words
            return Outcome(False, f"time limit ({limit:g} s)", seconds, answer, "interrupted",
                           tokens, records)
        try:
            problem = task["check"](folder, answer, reports)
        except Exception as exc:
            problem = f"the check failed: {type(exc).__name__}: {exc}"
        if problem is None and seconds > limit:
            problem = f"over {limit:g} s ({seconds:.0f} s)"
        return Outcome(problem is None, problem or "", seconds, answer, str(end.get("reason")),
                       tokens, records)


class ServerLog:
    """The llama.cpp server's log, read from a byte offset: what each task cost it.

    llama.cpp prints, per request, how many prompt tokens it had to evaluate (the rest came
    from its cache) and how many it generated; both systems are counted the same way.
    """

    PROMPT = re.compile(r"prompt eval time =\s*[\d.]+ ms /\s*(\d+) tokens")
    EVAL = re.compile(r"^\S*\s+eval time =\s*[\d.]+ ms /\s*(\d+) runs", re.M)
    HIT = re.compile(r"(\d+) prefix-match hit, remaining (\d+) prompt tokens")

    def __init__(self, path: Path) -> None:
        self.path = path

    def mark(self) -> int:
        return self.path.stat().st_size if self.path.exists() else 0

    def tokens_since(self, mark: int) -> dict[str, int]:
        with open(self.path, "rb") as log:
            log.seek(mark)
            text = log.read().decode(errors="replace")
        evaluated = sum(int(n) for n in self.PROMPT.findall(text))
        return {
            "requests": len(self.PROMPT.findall(text)),
            "prompt_evaluated": evaluated,
            "prompt_cached": sum(int(hit) for hit, _ in self.HIT.findall(text)),
            "generated": sum(int(n) for n in self.EVAL.findall(text)),
        }


if __name__ == "__main__":
    ours_in_process(json.loads(sys.argv[1]))
