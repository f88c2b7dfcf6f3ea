"""The task benchmark's checks: each passes on a folder where the job was done by hand, and
fails on the untouched folder with no answer (a check that cannot fail measures nothing)."""

from __future__ import annotations

import json
import os
import platform
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.tasks import data as tasks_data
from benchmarks.tasks import run as tasks_run
from benchmarks.tasks import suite as tasks_suite
from tests.support.require import require

ROOT = Path(__file__).resolve().parents[2]

SUM_JS = ("const fs = require('fs');\nconst n = fs.readFileSync('numbers.txt', 'utf8')"
          ".split('\\n').filter(Boolean).map(Number);\nconsole.log(n.reduce((a, b) => a + b));\n")
SPLIT = ("import csv, os\nos.makedirs('by_region', exist_ok=True)\n"
         "rows = list(csv.DictReader(open('customers.csv')))\n"
         "for region in {r['region'] for r in rows}:\n"
         "    with open(f'by_region/{region}.csv', 'w', newline='') as f:\n"
         "        w = csv.DictWriter(f, ['name', 'region']); w.writeheader()\n"
         "        w.writerows(r for r in rows if r['region'] == region)\n")

# name -> (shell run in the task's folder, final answer): the job done by hand.
BY_HAND: dict[str, tuple[str, str]] = {
    "logs_to_old": ("mkdir old && mv *.log old/", "Moved the three logs into old."),
    "rename_jpeg": ('for f in *.jpeg; do mv "$f" "${f%.jpeg}.jpg"; done', "Done."),
    "delete_tmp": ("find . -name '*.tmp' -delete", "Deleted 2 files."),
    "count_lines": ("", "server.log has 137 lines."),
    "csv_total": ("", "The total is 5,186.50."),
    "csv_filter": ("head -1 people.csv > paris.csv && grep ',Paris,' people.csv >> paris.csv",
                   "Wrote 3 rows."),
    "csv_to_json": ("python3 -c \"import csv, json; json.dump(list(csv.DictReader("
                    "open('inventory.csv'))), open('inventory.json', 'w'))\"", "Done."),
    "json_port": ("", "The database uses port 6432."),
    "json_edit": ("python3 -c \"import json; d = json.load(open('settings.json')); "
                  "d['debug'] = False; json.dump(d, open('settings.json', 'w'))\"", "Done."),
    "json_merge": ("python3 -c \"import json; json.dump({**json.load(open('base.json')), "
                   "**json.load(open('override.json'))}, open('merged.json', 'w'))\"", "Done."),
    "find_fixme": ("", "src/cache.py has the FIXME."),
    "collect_todos": ("grep -h TODO *.py > todo.txt", "Three TODOs collected."),
    "count_errors": ("", "4 lines start with error."),
    "largest_file": ("", "data/big.bin.txt is the largest."),
    "sort_lines": ("sort names.txt > sorted.txt", "Sorted."),
    "dedupe_lines": ("awk '!seen[$0]++' emails.txt > t && mv t emails.txt", "Removed 2."),
    "project_folders": ("for d in src tests docs; do mkdir $d && touch $d/README.md; done",
                        "Created."),
    "hello_file": ("echo 'Hello, world!' > hello.txt", "Created hello.txt."),
    "node_run": ("", "It prints 5117."),
    "node_sum": (f"cat > sum.js <<'EOF'\n{SUM_JS}EOF\nnode sum.js", "The sum is 1123."),
    "package_json": ("echo '{\"name\": \"tiny-tool\", \"version\": \"1.2.3\"}' > package.json",
                     "Created package.json."),
    "node_active_users": ("", "4 users are active."),
    "cpu_cores": ("", f"It has {os.cpu_count()} cores."),
    "hostname": ("", f"The hostname is {socket.gethostname()}."),
    "kernel": ("", f"Kernel {platform.release()}."),
    "node_version": ("", "Node.js {node} is installed."),
    "backup_then_edit": ("cp notes.md notes.md.bak && echo reviewed >> notes.md", "Done."),
    "count_extensions": ("echo '{\"txt\": 3, \"csv\": 2, \"py\": 1}' > counts.json", "Done."),
    "team_averages": ("printf 'team,average\\nred,15\\nblue,9\\ngreen,9.0\\n' > averages.csv",
                      "Done."),
    "replace_word": ("sed -i 's/colour/color/g; s/Colour/Color/g' *.md", "Replaced."),
    "extract_emails": ("grep -oE '[A-Za-z0-9._+-]+@[A-Za-z0-9.-]+[a-z]' contacts.txt "
                       "| sort -u > emails.txt", "Three addresses."),
    "find_function": ("", "It is defined in lib/dates.py."),
    "big_orders": ("", "3 rows have a quantity over 10."),
    "zip_reports": ("python3 -m zipfile -c reports.zip april.txt may.txt", "Done."),
    "version_bump": ("echo 2.4.0 > VERSION && sed -i 's/2.3.9/2.4.0/' package.json", "Done."),
    "split_by_region": (f"python3 - <<'EOF'\n{SPLIT}EOF", "Done."),
}


def test_the_suite_has_30_distinct_tasks_each_done_by_hand() -> None:
    names = [task["name"] for task in tasks_suite.TASKS]
    assert len(names) >= 30
    assert len(set(names)) == len(names)
    assert sorted(BY_HAND) == sorted(names)


@pytest.mark.parametrize("task", tasks_suite.TASKS, ids=lambda task: task["name"])
def test_a_check_passes_when_done_by_hand_and_fails_when_not(
        task: dict, tmp_path: Path) -> None:
    require(subprocess.run(["node", "--version"], capture_output=True, check=False)
            .returncode == 0, "node is not installed")
    untouched, done = tmp_path / "untouched", tmp_path / "done"
    for folder in (untouched, done):
        tasks_run.lay_out(folder, task["files"])
    shell, answer = BY_HAND[task["name"]]
    answer = answer.format(node=tasks_suite.node_version())
    if shell:
        subprocess.run(["bash", "-c", shell], cwd=done, check=True, timeout=30)
    assert task["check"](done, answer) is None
    problem = task["check"](untouched, "")
    assert isinstance(problem, str)
    assert problem and "\n" not in problem


@pytest.mark.parametrize(("name", "careless"), [
    ("largest_file", "The last run printed: ['medium.csv', 'small.txt', 'big.bin.txt']"),
    ("find_fixme", "src/ holds main.py and cache.py."),
    ("find_function", "lib/ holds __init__.py, text.py, dates.py and numbers.py."),
])
def test_an_answer_listing_every_file_does_not_pass_a_which_file_question(
        name: str, careless: str, tmp_path: Path) -> None:
    task = next(task for task in tasks_suite.TASKS if task["name"] == name)
    assert task["check"](tmp_path, careless) is not None


# Two requests as llama-cpp-python's server logs them (the second mostly from its cache).
SERVER_LOG = """\
llama_perf_context_print:        load time =    3116.85 ms
llama_perf_context_print: prompt eval time =    3116.30 ms /   217 tokens (   14.36 ms per token)
llama_perf_context_print:        eval time =    5532.81 ms /    16 runs   (  345.80 ms per token)
llama_perf_context_print:       total time =    8672.22 ms /   233 tokens
INFO:     127.0.0.1:33512 - "POST /v1/chat/completions HTTP/1.1" 200 OK
Llama.generate: 211 prefix-match hit, remaining 7 prompt tokens to eval
llama_perf_context_print:        load time =    3116.85 ms
llama_perf_context_print: prompt eval time =     116.54 ms /     7 tokens (   16.65 ms per token)
llama_perf_context_print:        eval time =     673.04 ms /    19 runs   (   35.42 ms per token)
llama_perf_context_print:       total time =     805.01 ms /    26 tokens
"""


def test_tokens_are_read_from_the_server_log_after_a_mark(tmp_path: Path) -> None:
    path = tmp_path / "server.log"
    path.write_text("llama_perf_context_print: prompt eval time = 1 ms / 999 tokens\n")
    log = tasks_run.ServerLog(path)
    mark = log.mark()
    with path.open("a") as out:
        out.write(SERVER_LOG)
    assert log.tokens_since(mark) == {"requests": 2, "prompt_evaluated": 224,
                                      "prompt_cached": 211, "generated": 35}


def test_the_tasks_section_is_replaced_in_place_and_kept_by_bench(tmp_path: Path) -> None:
    from benchmarks.tasks import report as tasks_report

    path = tmp_path / "benchmarks.md"
    path.write_text("# Benchmarks\n\n| figures |\n")
    tasks_report.write_section(path, tasks_report.START + "\nfirst\n" + tasks_report.END + "\n")
    tasks_report.write_section(path, tasks_report.START + "\nsecond\n" + tasks_report.END + "\n")
    text = path.read_text()
    assert text.startswith("# Benchmarks\n\n| figures |\n")
    assert "second" in text and "first" not in text
    assert tasks_report.section_of(text).strip() == (
        f"{tasks_report.START}\nsecond\n{tasks_report.END}")
    assert tasks_report.section_of("# Benchmarks\n") == ""


def test_runs_of_one_model_are_reported_as_one() -> None:
    from benchmarks.tasks import report as tasks_report

    def run(model: str, suite: str, passed: bool) -> dict:
        row = {"suite": suite, "name": "t", "system": "ours", "passed": passed, "reason": "",
               "seconds": 10.0, "end_reason": "answered", "tokens": {}, "log": []}
        return {"model": model, "command": f"run {suite}", "code": "abc", "date": "today",
                "load": [1.0, 2.0], "tasks": [row]}

    runs = tasks_report.merged([run("a", "own", True), run("a", "blind", False),
                                run("b", "own", True)])
    assert [r["model"] for r in runs] == ["a", "b"]
    summary = tasks_report.summaries(runs[0])
    assert summary["own"]["ours"]["passed"] == 1 and summary["blind"]["ours"]["passed"] == 0
    assert "run own" in runs[0]["command"] and "run blind" in runs[0]["command"]


def test_the_rules_fired_approvals_asked_and_the_ablation_table_are_read_from_the_logs() -> None:
    from benchmarks.tasks import report as tasks_report
    from benchmarks.tasks import rules as tasks_rules

    def row(suite: str, passed: bool, log: list[dict], answer: str = "Done.") -> dict:
        return {"suite": suite, "name": "t", "system": "ours", "passed": passed, "reason": "",
                "seconds": 10.0, "end_reason": "answered", "tokens": {}, "log": log,
                "answer": answer}

    sent = [{"rule": "answer.no_figure", "action": "send_back"},
            {"rule": "screen.attach", "action": "skipped"},
            {"proposal": "shell", "code": "ls", "risk": "low"},
            {"rule": "peek.request", "action": "annotate"}]
    full = {"model": "m", "without": "", "command": "all", "code": "abc", "date": "today",
            "load": [1.0], "tasks": [row("heldout", True, sent), row("fresh", False, [], "")]}
    off = {**full, "without": "answer", "command": "off",
           "tasks": [row("heldout", False, []), row("fresh", False, [])]}
    runs = tasks_report.merged([full, off])
    assert [tasks_rules.label(r) for r in runs] == ["m", "m without answer"]
    assert tasks_rules.fired(full["tasks"][0]) == ["answer.no_figure", "peek.request"]
    assert ("rules fired: answer.no_figure×1, peek.request×1; extra model calls per "
            "task (median) 1; approvals asked per task (mean) 1; answers without words 0"
            ) in tasks_report.text_table(runs[0])
    assert tasks_rules.ablation(runs).splitlines() == [
        "| run | heldout | fresh | extra calls / task | asked / task | no words |",
        "|---|---|---|---|---|---|",
        "| m | 1/1 | 0/1 | 0.5 | 0.5 | 1 |",
        "| m without answer | 0/1 | 0/1 | 0 | 0 | 0 |",
    ]


def test_acted_in_runs_only_the_tasks_where_the_rules_switched_off_acted(tmp_path: Path) -> None:
    from benchmarks.tasks import cli as tasks
    from benchmarks.tasks import report as tasks_report
    from benchmarks.tasks import rules as tasks_rules

    def row(name: str, log: list[dict]) -> dict:
        return {"suite": "heldout", "name": name, "system": "ours", "passed": True,
                "reason": "", "seconds": 10.0, "end_reason": "answered", "tokens": {},
                "log": log, "answer": "Done."}

    base = tmp_path / "all.json"
    base.write_text(json.dumps({"tasks": [
        row("acted", [{"rule": "answer.no_figure", "action": "send_back"}]),
        row("other", [{"rule": "peek.request", "action": "annotate"}]),
        row("skipped", [{"rule": "answer.no_figure", "action": "skipped"}]),
        row("done", []), row("not-chosen", [])]}))
    chosen = {"heldout": [{"name": n} for n in ("acted", "other", "skipped", "done")]}
    rows = tasks.carried(base, "answer", chosen, {("heldout", "done", "ours")})
    assert [(r["name"], r["carried"]) for r in rows] == [("other", True), ("skipped", True)]
    run = {"model": "m", "without": "answer", "command": "off", "code": "abc", "date": "today",
           "load": [1.0], "tasks": [*rows, {**row("acted", []), "passed": False}]}
    assert tasks_rules.ablation(tasks_report.merged([run])).splitlines()[-1] == \
        "| m without answer | 2/3 (ran 1) | 0 | 0 | 0 |"


@pytest.mark.parametrize("suite", [n for n in tasks_data.names() if not n.startswith("desktop")])
def test_each_suite_file_passes_its_own_self_test(suite: str, tmp_path: Path) -> None:
    """Their checks fail on the untouched folder and pass on the job done by hand (the
    desktop suites' self-test starts a desktop per attempt, minutes in all: it is run as
    `python -m benchmarks.tasks.data desktop` (or `desktop_own`), and two of the blind
    suite's tasks through the runner in tests/integration/test_tasks_desktop.py)."""
    done = subprocess.run([sys.executable, "-m", "benchmarks.tasks.data", suite],
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert re.search(r"\b0 (failure\(s\)|failed)$", done.stdout.strip())


@pytest.mark.parametrize("suite", ["desktop", "desktop_fresh"])
def test_every_blind_desktop_task_is_judged_by_its_programs_and_has_the_job_done_by_hand(
        suite: str) -> None:
    """A desktop task's checks read what its programs reported or the files they saved,
    never the answer, and its self-test has a solution and a careless attempt to tell
    apart."""
    from benchmarks.tasks import reported as tasks_reported

    tasks = tasks_data.load(suite)
    assert len(tasks) >= 30
    kinds = {task["name"]: {next(iter(c)) for c in yaml_checks(suite, task["name"])}
             for task in tasks}
    for task in tasks:
        assert task["desktop"]["start"] and task["solution"] and task["careless"], task["name"]
        assert not {k for k in kinds[task["name"]] if k.startswith("answer")}, task["name"]
    by_programs = [n for n, used in kinds.items() if used & set(tasks_reported.KINDS)]
    assert len(by_programs) >= 25


def yaml_checks(suite: str, name: str) -> list[dict[str, object]]:
    import yaml

    data = yaml.safe_load(tasks_data.path_of(suite).read_text())
    return next(t["checks"] for t in data["tasks"] if t["name"] == name)


@pytest.mark.parametrize(("check", "error"), [
    ("answer_number: {value: 3, tol: 0}",
     "task 'count', check 1 (answer_number): unknown field 'tol'"),
    ("answer_count: 3", "task 'count', check 1: unknown kind 'answer_count'"),
    ("file_equals: {path: a.txt}", "task 'count', check 1 (file_equals): missing field 'text'"),
])
def test_a_suite_file_that_breaks_the_format_is_refused_in_one_line(
        check: str, error: str, tmp_path: Path) -> None:
    from benchmarks.tasks import data as tasks_data

    path = tmp_path / "mine.yaml"
    path.write_text("reading: {numbers: commas, mentions: substring, text: exact, "
                    "decode: replace, lines: splitlines}\n"
                    f"tasks:\n- name: count\n  request: how many?\n  files: {{}}\n"
                    f"  checks:\n  - {check}\n")
    with pytest.raises(tasks_data.SuiteError) as refused:
        tasks_data.load(path)
    assert str(refused.value).startswith(f"{path}: {error}")
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(("extra", "error"), [
    ("  right: [3]\n  solution: {answer: '3'}\n", "each of right is an answer or {code: ...}"),
    ("  wrong: ['4']\n", "wrong answers are judged with the solution's folder; give a solution"),
])
def test_other_answers_that_break_the_format_are_refused_in_one_line(
        extra: str, error: str, tmp_path: Path) -> None:
    from benchmarks.tasks import data as tasks_data

    path = tmp_path / "mine.yaml"
    path.write_text("reading: {numbers: spoken, mentions: token, text: exact, "
                    "decode: replace, lines: splitlines}\n"
                    "tasks:\n- name: count\n  request: how many?\n  files: {}\n"
                    "  checks:\n  - answer_number: 3\n" + extra)
    with pytest.raises(tasks_data.SuiteError) as refused:
        tasks_data.load(path)
    assert str(refused.value) == f"{path}: task 'count': {error}"


def test_a_spoken_answer_gives_its_numbers_and_times_but_not_its_dates_or_ids() -> None:
    from benchmarks.tasks import spoken as tasks_spoken

    said = "From 2024-01-28 to 2024-03-04 (INV-102, backup.log): thirty-six days, one of 1,250"
    assert tasks_spoken.numbers(said) == [36.0, 1250.0]
    # "2-3pm" names 14 and 15: the heldout suite's busiest-hour check ignores 15 for this
    assert tasks_spoken.hours("The 2-3pm hour, then 16:00 and 9 o'clock") == [
        "14", "15", "16", "09"]
    assert tasks_spoken.clock_times("at 5:42 PM, not 09:12:03") == ["17:42", "09:12"]
    assert tasks_spoken.months("January 2024, then 2023/07 and 02-2024") == [
        "2024-01", "2023-07", "2024-02"]


def test_a_csv_with_the_wrong_rows_names_the_rows_that_differ(tmp_path: Path) -> None:
    from benchmarks.tasks import checks as tasks_checks
    from benchmarks.tasks import data as tasks_data
    from benchmarks.tasks import reading as tasks_reading

    reading = tasks_reading.Reading(**{k: v[0] for k, v in tasks_data.READINGS.items()})
    context = tasks_reading.Context(tmp_path, "", {}, reading)
    (tmp_path / "out.csv").write_text("month,total\njan,10\nfeb,21\n")
    wanted = {"path": "out.csv", "header": ["month", "total"],
              "rows": [["jan", "10"], ["feb", "20"]]}
    assert tasks_checks.csv_rows(context, wanted) == (
        "out.csv has rows [['feb', '21']] not wanted and lacks [['feb', '20']]")
    assert tasks_checks.csv_rows(context, {**wanted, "ordered": True}) == (
        "out.csv data row 2 is ['feb', '21'], not ['feb', '20']")
    (tmp_path / "out.csv").write_text("month,total\njan,10\nfeb,20\nfeb,20\n")
    assert tasks_checks.csv_rows(context, wanted) == "out.csv has 3 data rows, not the 2 wanted"
    assert tasks_checks.csv_rows(context, {**wanted, "rows": wanted["rows"] * 2}) == (
        "out.csv has 3 data rows, not the 4 wanted")
