"""The task benchmark: everyday jobs done by this assistant and by open-interpreter 0.4.3,
side by side, on the same local llama.cpp server and model.

    nice python -m benchmarks.tasks --model qwen2.5-coder-1.5b --json /tmp/tasks-1.5b.json
    python -m benchmarks.tasks --report /tmp/tasks-1.5b.json /tmp/tasks-0.5b.json \
        --markdown docs/benchmarks.md --chart docs/tasks.png

The ablation of the loop's rules, one command per rule or family (ids and families:
`--list-rules`), then one table:

    python -m benchmarks.tasks --systems ours --suite heldout,fresh,unseen --json /tmp/all.json
    python -m benchmarks.tasks --systems ours --suite heldout,fresh,unseen --without echo \
        --json /tmp/without-echo.json
    python -m benchmarks.tasks --report /tmp/all.json /tmp/without-*.json --ablation

A family that acted in few tasks is measured on those alone (`--acted-in /tmp/all.json`):
the other tasks' rows are carried over from the run with all rules, as that family never
acted in them.

Each task (data in benchmarks/tasks/<suite>.yaml, loaded by data.py) runs in a fresh
folder with its files, in a separate process per system (run.py), stopped at 120 s;
its check reads the folder and the final answer. A desktop task (`--suite desktop`) also
gets a display of its own with the programs it starts, and its check reads what they
reported, never the answer (desktop.py). The incumbent is installed into .bench/
as `python -m benchmarks.bench --peers` does. Results: pass rate, median and worst task time, and
tokens counted by the server, per system, model and suite.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from benchmarks.bench.peers import PEER_BIN, ensure_venv
from benchmarks.tasks import data as tasks_data
from benchmarks.tasks import desktop as tasks_desktop
from benchmarks.tasks import report as tasks_report
from benchmarks.tasks import rules as tasks_rules
from benchmarks.tasks import run as tasks_run
from benchmarks.tasks import suite as tasks_suite
from benchmarks.venv import ROOT

# Suites written without reading the prompt or the loop code: `blind` first, `fresh` after
# the loop had been tuned while looking at how it failed `blind`, `unseen` after it had
# been tuned on `fresh`, `heldout` after the failure reasons of `unseen` had been read,
# `novel` without reading the other suites either, once the rules had been pruned on three.
BLIND = ("blind", "fresh", "unseen", "heldout", "novel")
SUITES = ("own", *BLIND)
# Real programs on a desktop of each task's own (desktop.py), not run unless asked for by
# name: `desktop` written blind to the prompt, the loop, the checks and `computer` (the
# measure), `desktop_own` alongside the verbs (the part tuned on, reported apart),
# `desktop_fresh` written the same blind way after `desktop` had been tuned near for many
# rounds.
DESKTOP = ("desktop", "desktop_own", "desktop_fresh")
MAX_TOKENS = 1024


def suites(chosen: list[str]) -> dict[str, list[dict[str, Any]]]:
    """suite name -> its tasks; a blind suite only where its file is present."""
    found: dict[str, list[dict[str, Any]]] = {}
    if "own" in chosen:
        found["own"] = tasks_suite.TASKS
    for name in (*BLIND, *DESKTOP):
        if name in chosen and tasks_data.path_of(name).is_file():
            found[name] = tasks_data.load(name)
    return found


@contextlib.contextmanager
def serve(model: Any, log: Path, threads: int = 0) -> Iterator[Any]:
    """The embedded `model` (an embedded.Model) served as the assistant serves it, with
    the server's log in `log` (its token counts); yields the EmbeddedServer. `threads`
    (0: the assistant's choice, one per physical core) is for a machine shared with other
    work, where llama.cpp's threads waiting on each other slow it down many times."""
    from assistant.servers import embedded

    server = embedded.EmbeddedServer(model, threads=threads)
    server.port = embedded.free_port()
    with open(log, "ab") as out:
        process = subprocess.Popen(server.command(), stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=subprocess.STDOUT)
    try:
        wait_ready(server.openai_url, process)
        yield server
    finally:
        process.terminate()
        process.wait(timeout=30)
        server.stop()


def installed(name: str) -> Any:
    """The embedded model `name` (a name or a .gguf path), as the assistant finds it."""
    from assistant.config import load_settings
    from assistant.servers import embedded

    model = embedded.chosen(load_settings({"embedded_model": name}))
    if model.path is None:
        raise SystemExit(f"tasks: {model.name} is not installed: {model.install}")
    return model


def wait_ready(url: str, server: subprocess.Popen[bytes], timeout: float = 180) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"tasks: the model server exited {server.returncode} at start")
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/models", timeout=2):
            return
        time.sleep(0.5)
    raise SystemExit(f"tasks: the model server did not answer within {timeout:g} s")


def our_settings(server: Any) -> dict[str, Any]:
    """What our assistant is given: the server, as the embedded model is configured."""
    from assistant.config import Settings

    default = Settings()
    wanted = server.settings_for(default)
    return {f.name: getattr(wanted, f.name) for f in fields(Settings)
            if getattr(wanted, f.name) != getattr(default, f.name)}


def measure(args: argparse.Namespace) -> dict[str, Any]:
    chosen = suites(args.suite.split(","))
    if args.only:
        names = set(args.only.split(","))
        chosen = {s: [t for t in ts if t["name"] in names] for s, ts in chosen.items()}
    for suite, tasks in chosen.items():
        lacking = [tasks_desktop.missing(t["desktop"]) for t in tasks if t.get("desktop")]
        if any(lacking):
            raise SystemExit(f"tasks: the {suite} suite cannot run here: "
                             + next(why for why in lacking if why))
    systems = args.systems.split(",")
    if "oi" in systems:
        ensure_venv()
    results: dict[str, Any] = {
        "model": args.model, "without": args.without, "profile": args.profile,
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "command": " ".join(["python -m benchmarks.tasks", *sys.argv[1:]]),
        "load": [os.getloadavg()[0]], "tasks": [],
    }
    with tempfile.TemporaryDirectory(prefix="tasks-server-") as folder:
        log = Path(folder) / "server.log"
        code = Path(folder) / "code"
        shutil.copytree(ROOT / "assistant", code / "assistant",
                        ignore=shutil.ignore_patterns("__pycache__"))
        results["code"] = code_version()
        with serve(installed(args.model), log, args.threads) as server:
            server_log = tasks_run.ServerLog(log)
            ours = our_settings(server)
            if args.without:
                ours["checks_off"] = args.without
            if args.profile:
                ours["checks_profile"] = args.profile
            results["model"], results["gguf"] = server.model.name, str(server.model.path)
            results["threads"] = server.threads
            limit = {"limit_s": args.time_limit or tasks_run.TURN_LIMIT_S}
            config = {
                "ours": {"settings": ours, "pythonpath": str(code), **limit},
                "oi": {"model": ours["model"], "api_base": server.openai_url,
                       "context_window": server.n_ctx, "max_tokens": MAX_TOKENS,
                       "temperature": ours.get("temperature", 0.0), **limit},
            }
            results["time_limit"] = limit["limit_s"]
            done = set()
            if args.resume and args.json and args.json.exists():
                results["tasks"] = json.loads(args.json.read_text())["tasks"]
                done = {(r["suite"], r["name"], r["system"]) for r in results["tasks"]}
            if args.acted_in:
                results["acted_in"] = str(args.acted_in)
                for row in carried(args.acted_in, args.without, chosen, done):
                    results["tasks"].append(row)
                    done.add((row["suite"], row["name"], row["system"]))
            for suite, tasks in chosen.items():
                for task in tasks:
                    for system in systems:
                        if (suite, task["name"], system) in done:
                            continue
                        outcome = tasks_run.run_task(task, system, config[system], server_log)
                        print(f"tasks: {suite}/{task['name']} {system}: "
                              f"{'pass' if outcome.passed else 'FAIL'} {outcome.seconds:.1f} s "
                              f"{outcome.reason}", file=sys.stderr, flush=True)
                        results["tasks"].append({"suite": suite, "name": task["name"],
                                                 "system": system, **asdict(outcome),
                                                 "load": round(os.getloadavg()[0], 2)})
                        if args.json:
                            write_json(args.json, results)
    results["load"].append(os.getloadavg()[0])
    return results


def carried(base: Path, without: str, chosen: dict[str, list[dict[str, Any]]],
            done: set[tuple[str, str, str]]) -> list[dict[str, Any]]:
    """The rows of `base` (a run with every rule on) for the chosen tasks in which none of
    the rules `without` turns off acted: a rule that never acted in a turn cannot have
    changed it, so switching it off there would measure only the noise between runs. Each
    is marked `carried`; the tasks left are run."""
    from assistant.rulebook import resolve

    off = resolve(without)
    wanted = {(suite, task["name"]) for suite, tasks in chosen.items() for task in tasks}
    rows = []
    for row in json.loads(base.read_text())["tasks"]:
        key = (row["suite"], row["name"], row["system"])
        if (row["suite"], row["name"]) in wanted and key not in done and row["system"] == "ours" \
                and not off & set(tasks_rules.fired(row)):
            rows.append({**row, "carried": True})
    return rows


def code_version() -> str:
    """The commit our code is at, and how many of its files differ from it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=False).stdout.strip()

    changed = len(git("status", "--short", "assistant").splitlines())
    return f"{git('rev-parse', '--short', 'HEAD')} + {changed} changed files in assistant/"


def write_json(path: Path, results: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**results, "summary": tasks_report.summaries(results)},
                               indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tasks",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b",
                        help="installed weights by name, or a GGUF path")
    parser.add_argument("--systems", default="ours,oi", help="ours,oi (comma-separated)")
    parser.add_argument("--suite", default=",".join(SUITES),
                        help=f"{','.join(SUITES)} (comma-separated; default: all of "
                             f"these), or {','.join(DESKTOP)}: real programs on a desktop "
                             "each task starts (Xvfb, openbox, AT-SPI)")
    parser.add_argument("--only", metavar="NAMES", help="only these tasks (comma-separated)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the results here")
    parser.add_argument("--time-limit", type=float, metavar="S",
                        help="seconds a task may take before it is stopped (default: 120); "
                             "longer on fewer threads, so a pass does not hinge on speed")
    parser.add_argument("--threads", type=int, default=0,
                        help="the server's threads (default: as the assistant sets them)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the tasks already in --json FILE and run the rest")
    parser.add_argument("--report", type=Path, nargs="+", metavar="JSON",
                        help="no runs: report these earlier results (one per model)")
    parser.add_argument("--markdown", type=Path, metavar="FILE",
                        help="put the tasks section into this file (docs/benchmarks.md)")
    parser.add_argument("--chart", type=Path, metavar="FILE", help="draw the chart (PNG)")
    parser.add_argument("--without", default="", metavar="RULES",
                        help="ours with these rules off: ids or families (comma-separated)")
    parser.add_argument("--acted-in", type=Path, metavar="JSON",
                        help="with --without: run only the tasks where those rules acted in "
                             "this earlier run with all rules, and carry its other rows over")
    parser.add_argument("--profile", metavar="NAME",
                        help="ours with this checks profile (assistant/checks/profiles.toml; "
                             "default: as the model's is chosen)")
    parser.add_argument("--list-rules", action="store_true",
                        help="no runs: list the loop's rules by family, and exit")
    parser.add_argument("--ablation", action="store_true",
                        help="with --report: the table of pass rates with rules off")
    args = parser.parse_args(argv)
    # Stopped with kill: the server and the running task are stopped too.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    from assistant.rulebook import catalogue, families, profiles, resolve

    if args.list_rules:
        for family, ids in families().items():
            print(f"{family}: " + ", ".join(
                rule + (" (English)" if catalogue()[rule].english else "") for rule in ids))
        return 0
    try:
        resolve(args.without)
    except ValueError as exc:
        parser.error(f"--without: {exc}")
    unknown = [s for s in args.suite.split(",") if s not in (*SUITES, *DESKTOP)]
    if unknown and not args.report:
        parser.error(f"--suite: one of {', '.join((*SUITES, *DESKTOP))}, not {unknown[0]!r}")
    if args.profile and args.profile not in profiles():
        parser.error(f"--profile: one of {', '.join(profiles())}, not {args.profile!r}")
    if args.acted_in and not (args.without and args.acted_in.is_file()):
        parser.error("--acted-in needs --without and an earlier run's JSON file that exists")
    if args.report:
        runs = tasks_report.merged([json.loads(path.read_text()) for path in args.report])
    else:
        runs = [measure(args)]
        if args.json:
            write_json(args.json, runs[0])
    for run in runs:
        print(tasks_report.text_table(run))
        for line in tasks_report.failures(run):
            print(f"  ours failed {line}")
    if args.ablation:
        print(tasks_rules.ablation(runs))
    link = None
    if args.chart:
        tasks_report.chart(runs, PEER_BIN / "python", args.chart)
        if args.markdown:
            link = os.path.relpath(args.chart.resolve(), args.markdown.resolve().parent)
    if args.markdown:
        tasks_report.write_section(args.markdown, tasks_report.markdown(runs, link))
    return 0
