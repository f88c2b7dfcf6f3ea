"""The task benchmark's own tasks: everyday jobs on files, data, Node.js and the machine.

Each task is a dict: `name`, `request` (what a user would type), `files` (relative path ->
text, written into a fresh folder that is the run's working directory) and
`check(folder, answer)`, which reads what was left behind and the final answer and
returns None when the job is done, else one line saying what is wrong.
"""

from __future__ import annotations

import json
import os
import platform
import re
import socket
import subprocess
import zipfile
from pathlib import Path
from typing import Any

from tasks_checks import (
    csv_rows,
    first,
    lines_of,
    names_first,
    question,
    read,
    same_file,
    says_number,
    says_text,
)

# --- the files the tasks start with ----------------------------------------------------

SALES = "region,amount\nnorth,1250.50\nsouth,980.25\neast,2210.00\nwest,415.75\nnorth,330.00\n"
PEOPLE = ("name,city,age\nAna,Paris,31\nBen,Lyon,45\nChloe,Paris,27\nDaniel,Berlin,38\n"
          "Emma,Paris,52\nFelix,Rome,23\n")
INVENTORY = "sku,name,qty\nA100,bolt,40\nA200,nut,125\nB300,washer,8\n"
SCORES = ("team,player,score\nred,ann,12\nblue,bob,7\nred,cid,18\nblue,dan,11\n"
          "green,eve,9\nred,fay,15\n")
ORDERS = ("id,item,quantity\n1,pen,4\n2,paper,12\n3,stapler,1\n4,ink,25\n5,clips,10\n"
          "6,folder,11\n7,tape,3\n")
APP_LOG = ("INFO start\nERROR disk full\nWARN slow\nerror: retry failed\nINFO ok\n"
           "Error again\nINFO errors are counted here too? no: errorless\nERROR last\n")
SERVER_LOG = "".join(f"2026-11-0{1 + i % 9} request {i} ok\n" for i in range(137))
CONTACTS = ("Call Ana at ana.lima@example.org or the office.\nBen: ben_k@mail.example.com\n"
            "no address here\nChloe <chloe+news@example.net>, backup ana.lima@example.org\n")
CALC_JS = ("const primes = [];\nfor (let n = 2; primes.length < 50; n++) {\n"
           "  if (primes.every(p => n % p)) primes.push(n);\n}\n"
           "console.log(primes.reduce((a, b) => a + b, 0));\n")
USERS = json.dumps([{"name": n, "active": a} for n, a in [
    ("ana", True), ("ben", False), ("cid", True), ("dan", True), ("eve", False),
    ("fay", True), ("gus", False)]], indent=2) + "\n"
CONFIG = json.dumps({"app": {"name": "shop", "debug": True},
                     "database": {"host": "db.internal", "port": 6432, "name": "orders"},
                     "cache": {"port": 6379}}, indent=2) + "\n"
SETTINGS = json.dumps({"debug": True, "theme": "dark", "retries": 3,
                       "paths": ["a", "b"]}, indent=2) + "\n"
NAMES = "Zoe\nadam\nMaria\nbob\nCarl\nLena\n"
EMAILS = ("a@x.org\nb@y.org\na@x.org\nc@z.org\nb@y.org\nd@w.org\n")
NOTES = "# Notes\n\n- buy milk\n- call Ana\n"


# --- the checks ------------------------------------------------------------------------

def check_logs_to_old(folder: Path, answer: str) -> str | None:
    moved = [n for n in ("a.log", "b.log", "c.log") if read(folder, f"old/{n}") != f"log {n}\n"]
    left = sorted(p.name for p in folder.glob("*.log"))
    return first(f"not in old/ with their content: {moved}" if moved else None,
                 f"still here: {left}" if left else None,
                 same_file(folder, "notes.txt", "keep me\n"))


def check_jpeg(folder: Path, answer: str) -> str | None:
    left = sorted(p.name for p in folder.glob("*.jpeg"))
    return first(f"still here: {left}" if left else None,
                 same_file(folder, "cat.jpg", "cat pixels\n"),
                 same_file(folder, "beach.jpg", "beach pixels\n"),
                 same_file(folder, "map.png", "map pixels\n"))


def check_tmp(folder: Path, answer: str) -> str | None:
    left = sorted(str(p.relative_to(folder)) for p in folder.rglob("*.tmp"))
    kept = [n for n in ("keep.txt", "report.tmp.txt", "sub/b.txt") if not (folder / n).is_file()]
    return first(f"still here: {left}" if left else None,
                 f"deleted: {kept}" if kept else None)


def check_paris(folder: Path, answer: str) -> str | None:
    text = read(folder, "paris.csv")
    if text is None:
        return "paris.csv is missing"
    rows = csv_rows(text)
    if [r.get("name") for r in rows] != ["Ana", "Chloe", "Emma"]:
        return f"paris.csv rows are {[r.get('name') for r in rows]}"
    return None if list(rows[0]) == ["name", "city", "age"] else "paris.csv lost its header"


def check_inventory(folder: Path, answer: str) -> str | None:
    text = read(folder, "inventory.json")
    if text is None:
        return "inventory.json is missing"
    try:
        data = json.loads(text)
    except ValueError as exc:
        return f"inventory.json is not JSON: {exc}"
    if not isinstance(data, list) or len(data) != 3:
        return "inventory.json is not a list of 3 objects"
    got = [(str(d.get("sku")), str(d.get("name")), str(d.get("qty"))) for d in data
           if isinstance(d, dict)]
    want = [("A100", "bolt", "40"), ("A200", "nut", "125"), ("B300", "washer", "8")]
    return None if got == want else f"inventory.json holds {got}"


def check_settings(folder: Path, answer: str) -> str | None:
    try:
        data = json.loads(read(folder, "settings.json") or "")
    except ValueError:
        return "settings.json is missing or not JSON"
    want = {"debug": False, "theme": "dark", "retries": 3, "paths": ["a", "b"]}
    return None if data == want else f"settings.json is {data}"


def check_merged(folder: Path, answer: str) -> str | None:
    try:
        data = json.loads(read(folder, "merged.json") or "")
    except ValueError:
        return "merged.json is missing or not JSON"
    want = {"name": "shop", "region": "eu", "replicas": 5, "tls": True}
    return None if data == want else f"merged.json is {data}"


def check_todo(folder: Path, answer: str) -> str | None:
    text = read(folder, "todo.txt")
    if text is None:
        return "todo.txt is missing"
    got = sorted(re.sub(r"^.*?(#\s*TODO)", r"\1", line) for line in lines_of(text))
    want = ["# TODO: add retries", "# TODO: handle empty input", "# TODO: speed this up"]
    return None if got == want else f"todo.txt holds {got}"


def check_sorted(folder: Path, answer: str) -> str | None:
    text = read(folder, "sorted.txt")
    if text is None:
        return "sorted.txt is missing"
    got = lines_of(text)
    if got not in (sorted(lines_of(NAMES)), sorted(lines_of(NAMES), key=str.lower)):
        return f"sorted.txt is {got}"
    return same_file(folder, "names.txt", NAMES)


def check_dedupe(folder: Path, answer: str) -> str | None:
    got = lines_of(read(folder, "emails.txt") or "")
    want = ["a@x.org", "b@y.org", "c@z.org", "d@w.org"]
    return None if got == want else f"emails.txt is {got}"


def check_structure(folder: Path, answer: str) -> str | None:
    missing = [d for d in ("src", "tests", "docs") if not (folder / d / "README.md").is_file()]
    return f"no README.md in {missing}" if missing else None


def check_hello(folder: Path, answer: str) -> str | None:
    text = read(folder, "hello.txt")
    if text is None:
        return "hello.txt is missing"
    return None if text.strip() == "Hello, world!" else f"hello.txt holds {text[:60]!r}"


def node_output(folder: Path, script: str) -> str:
    done = subprocess.run(["node", script], cwd=folder, capture_output=True, text=True,
                          timeout=30, check=False)
    return done.stdout.strip()


def check_sum_js(folder: Path, answer: str) -> str | None:
    if not (folder / "sum.js").is_file():
        return "sum.js is missing"
    printed = node_output(folder, "sum.js")
    return first(None if printed == "1123" else f"node sum.js prints {printed[:60]!r}",
                 says_number(answer, 1123))


def check_package(folder: Path, answer: str) -> str | None:
    try:
        data = json.loads(read(folder, "package.json") or "")
    except ValueError:
        return "package.json is missing or not JSON"
    if not isinstance(data, dict):
        return "package.json is not an object"
    got = (data.get("name"), data.get("version"))
    return None if got == ("tiny-tool", "1.2.3") else f"package.json has name, version {got}"


def check_backup(folder: Path, answer: str) -> str | None:
    text = read(folder, "notes.md") or ""
    return first(same_file(folder, "notes.md.bak", NOTES),
                 None if text.rstrip("\n").endswith("reviewed") and text.startswith(NOTES)
                 else f"notes.md ends {text[-40:]!r}")


def check_counts(folder: Path, answer: str) -> str | None:
    try:
        data = json.loads(read(folder, "counts.json") or "")
    except ValueError:
        return "counts.json is missing or not JSON"
    if not isinstance(data, dict):
        return "counts.json is not an object"
    got = {k.lstrip("."): v for k, v in data.items() if k.lstrip(".") != "json"}
    want = {"txt": 3, "csv": 2, "py": 1}
    return None if got == want else f"counts.json is {data}"


def check_averages(folder: Path, answer: str) -> str | None:
    text = read(folder, "averages.csv")
    if text is None:
        return "averages.csv is missing"
    rows = csv_rows(text)
    try:
        got = {r["team"]: float(r["average"]) for r in rows}
    except (KeyError, ValueError, TypeError):
        return f"averages.csv has no team,average columns: {text[:80]!r}"
    want = {"red": 15.0, "blue": 9.0, "green": 9.0}
    if set(got) != set(want) or any(abs(got[k] - want[k]) > 0.01 for k in want):
        return f"averages.csv is {got}"
    return None


def check_colour(folder: Path, answer: str) -> str | None:
    want = {"a.md": "The color of the sky.\n", "b.md": "Color: red; colors vary.\n",
            "c.txt": "colour stays here\n"}
    wrong = [n for n, text in want.items() if read(folder, n) != text]
    return f"wrong content in {wrong}" if wrong else None


def check_emails(folder: Path, answer: str) -> str | None:
    got = set(lines_of(read(folder, "emails.txt") or ""))
    want = {"ana.lima@example.org", "ben_k@mail.example.com", "chloe+news@example.net"}
    return None if got == want else f"emails.txt holds {sorted(got)}"


def check_zip(folder: Path, answer: str) -> str | None:
    path = folder / "reports.zip"
    if not path.is_file():
        return "reports.zip is missing"
    try:
        names = sorted(Path(n).name for n in zipfile.ZipFile(path).namelist())
    except zipfile.BadZipFile:
        return "reports.zip is not a zip archive"
    return None if names == ["april.txt", "may.txt"] else f"reports.zip holds {names}"


def check_version_bump(folder: Path, answer: str) -> str | None:
    text = read(folder, "VERSION") or ""
    try:
        pkg = json.loads(read(folder, "package.json") or "")
    except ValueError:
        return "package.json is no longer JSON"
    return first(None if text.strip() == "2.4.0" else f"VERSION is {text.strip()!r}",
                 None if pkg.get("version") == "2.4.0" else
                 f"package.json version is {pkg.get('version')!r}",
                 None if pkg.get("name") == "shop" else "package.json lost its name")


def check_split(folder: Path, answer: str) -> str | None:
    problems = []
    for region, names in (("north", ["Ana", "Cid"]), ("south", ["Ben"])):
        text = read(folder, f"by_region/{region}.csv")
        if text is None:
            problems.append(f"by_region/{region}.csv is missing")
            continue
        got = [r.get("name") for r in csv_rows(text)]
        if got != names:
            problems.append(f"by_region/{region}.csv rows are {got}")
    return problems[0] if problems else None


def node_version() -> str:
    done = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False)
    return done.stdout.strip().lstrip("v")


LIB = {
    "lib/__init__.py": "",
    "lib/text.py": "def slug(s):\n    return s.lower().replace(' ', '-')\n",
    "lib/dates.py": ("import datetime\n\n\ndef parse_date(s):\n"
                     "    return datetime.date.fromisoformat(s)\n"),
    "lib/numbers.py": "def parse_int(s):\n    return int(s)\n",
}
SRC = {
    "src/main.py": "print('hello')\n",
    "src/db.py": "# connect to the database\nPOOL = 4\n",
    "src/cache.py": "# FIXME: entries never expire\nTTL = None\n",
    "src/util.py": "def noop():\n    pass\n",
}
DATA = {
    "data/small.txt": "x" * 10 + "\n",
    "data/big.bin.txt": "y" * 5000 + "\n",
    "data/medium.csv": "a,b\n" + "1,2\n" * 300,
}

TASKS: list[dict[str, Any]] = [
    {"name": "logs_to_old",
     "request": "make a folder called old and move the .log files here into it",
     "files": {"a.log": "log a.log\n", "b.log": "log b.log\n", "c.log": "log c.log\n",
               "notes.txt": "keep me\n"},
     "check": check_logs_to_old},
    {"name": "rename_jpeg", "request": "rename the .jpeg files here to .jpg",
     "files": {"cat.jpeg": "cat pixels\n", "beach.jpeg": "beach pixels\n",
               "map.png": "map pixels\n"},
     "check": check_jpeg},
    {"name": "delete_tmp",
     "request": "delete every file ending in .tmp in this folder and its subfolders; keep "
                "everything else",
     "files": {"a.tmp": "x\n", "keep.txt": "k\n", "report.tmp.txt": "r\n", "sub/b.txt": "b\n",
               "sub/c.tmp": "c\n"},
     "check": check_tmp},
    question("count_lines", "how many lines does server.log have?",
             {"server.log": SERVER_LOG}, lambda a: says_number(a, 137)),
    question("csv_total", "what is the total of the amount column in sales.csv?",
             {"sales.csv": SALES}, lambda a: says_number(a, 5186.5)),
    {"name": "csv_filter",
     "request": "write the rows of people.csv whose city is Paris to a new file paris.csv, "
                "with the same header",
     "files": {"people.csv": PEOPLE}, "check": check_paris},
    {"name": "csv_to_json",
     "request": "convert inventory.csv into inventory.json: a JSON list with one object per "
                "row, keyed by the column names",
     "files": {"inventory.csv": INVENTORY}, "check": check_inventory},
    question("json_port", "which port is the database set to use in config.json?",
             {"config.json": CONFIG}, lambda a: says_number(a, 6432, 0)),
    {"name": "json_edit",
     "request": "in settings.json, set debug to false and leave every other setting as it is",
     "files": {"settings.json": SETTINGS}, "check": check_settings},
    {"name": "json_merge",
     "request": "merge base.json and override.json into merged.json; where both have a key, "
                "the value from override.json wins",
     "files": {"base.json": json.dumps({"name": "shop", "region": "us", "replicas": 2}),
               "override.json": json.dumps({"region": "eu", "replicas": 5, "tls": True})},
     "check": check_merged},
    question("find_fixme", "which file in src/ contains a FIXME comment?", SRC,
             lambda a: names_first(a, "cache.py", SRC)),
    {"name": "collect_todos",
     "request": "collect every line containing TODO from the .py files in this folder into "
                "todo.txt, one per line",
     "files": {"a.py": "x = 1  # TODO: add retries\ny = 2\n",
               "b.py": "# TODO: handle empty input\ndef f():\n    # TODO: speed this up\n"
                       "    return 1\n",
               "c.txt": "# TODO: not python\n"},
     "check": check_todo},
    question("count_errors",
             "how many lines of app.log start with the word error, in any letter case?",
             {"app.log": APP_LOG}, lambda a: says_number(a, 4, 0)),
    question("largest_file", "which file in the data folder is the largest?", DATA,
             lambda a: names_first(a, "big.bin.txt", DATA)),
    {"name": "sort_lines",
     "request": "sort the lines of names.txt alphabetically and save the result as sorted.txt",
     "files": {"names.txt": NAMES}, "check": check_sorted},
    {"name": "dedupe_lines",
     "request": "remove the duplicate lines from emails.txt in place, keeping the first "
                "occurrence of each, in the same order",
     "files": {"emails.txt": EMAILS}, "check": check_dedupe},
    {"name": "project_folders",
     "request": "create the folders src, tests and docs here, each with an empty README.md",
     "files": {}, "check": check_structure},
    {"name": "hello_file",
     "request": "create a file hello.txt containing the single line: Hello, world!",
     "files": {}, "check": check_hello},
    question("node_run", "run calc.js with node and tell me what it prints",
             {"calc.js": CALC_JS}, lambda a: says_number(a, 5117, 0)),
    {"name": "node_sum",
     "request": "write a Node.js script sum.js that prints the sum of the numbers in "
                "numbers.txt (one per line), run it, and tell me the sum",
     "files": {"numbers.txt": "17\n256\n3\n847\n"}, "check": check_sum_js},
    {"name": "package_json",
     "request": "create a package.json for a Node.js project named tiny-tool, version 1.2.3",
     "files": {}, "check": check_package},
    question("node_active_users",
             "use Node.js to count the active users in users.json and tell me how many",
             {"users.json": USERS}, lambda a: says_number(a, 4, 0)),
    question("cpu_cores", "how many CPU cores does this machine have?", {},
             lambda a: says_number(a, os.cpu_count() or 0, 0)),
    question("hostname", "what is the hostname of this computer?", {},
             lambda a: says_text(a, socket.gethostname())),
    question("kernel", "which Linux kernel release is running here?", {},
             lambda a: says_text(a, platform.release())),
    question("node_version", "which version of Node.js is installed?", {},
             lambda a: says_text(a, node_version())),
    {"name": "backup_then_edit",
     "request": "make a backup copy of notes.md named notes.md.bak, then add a last line "
                "'reviewed' to notes.md",
     "files": {"notes.md": NOTES}, "check": check_backup},
    {"name": "count_extensions",
     "request": "count the files in this folder by extension and write the result to "
                "counts.json as an object like {\"txt\": 2}",
     "files": {"a.txt": "", "b.txt": "", "c.txt": "", "d.csv": "", "e.csv": "", "f.py": ""},
     "check": check_counts},
    {"name": "team_averages",
     "request": "compute the average score per team in scores.csv and write it to "
                "averages.csv with the columns team,average",
     "files": {"scores.csv": SCORES}, "check": check_averages},
    {"name": "replace_word",
     "request": "replace every 'colour' with 'color' (and 'Colour' with 'Color') in the .md "
                "files here; leave other files alone",
     "files": {"a.md": "The colour of the sky.\n", "b.md": "Colour: red; colours vary.\n",
               "c.txt": "colour stays here\n"},
     "check": check_colour},
    {"name": "extract_emails",
     "request": "extract every distinct email address from contacts.txt into emails.txt, "
                "one per line",
     "files": {"contacts.txt": CONTACTS}, "check": check_emails},
    question("find_function", "in which file under lib/ is the function parse_date defined?",
             LIB, lambda a: names_first(a, "dates.py", LIB)),
    question("big_orders", "how many rows in orders.csv have a quantity over 10?",
             {"orders.csv": ORDERS}, lambda a: says_number(a, 3, 0)),
    {"name": "zip_reports",
     "request": "make a zip archive reports.zip holding the .txt files in this folder",
     "files": {"april.txt": "april\n", "may.txt": "may\n", "data.csv": "a\n"},
     "check": check_zip},
    {"name": "version_bump",
     "request": "bump the version from 2.3.9 to 2.4.0 in both VERSION and package.json",
     "files": {"VERSION": "2.3.9\n",
               "package.json": json.dumps({"name": "shop", "version": "2.3.9"}, indent=2)},
     "check": check_version_bump},
    {"name": "split_by_region",
     "request": "split customers.csv into one CSV per region in a folder by_region, named "
                "after the region (like by_region/north.csv), each with the header",
     "files": {"customers.csv": "name,region\nAna,north\nBen,south\nCid,north\n"},
     "check": check_split},
]
