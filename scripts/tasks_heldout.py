"""Blind benchmark tasks for a desktop assistant (set 4).

Each task is a dict with ``name``, ``request`` (what the user says), ``files``
(relative path -> text, the whole content of the fresh working folder) and
``check(folder, answer) -> str | None`` (None when the job is done, otherwise a
one-line reason).  Standard library only.

Run this module directly for the self-test: for every task it checks that the
untouched folder with an empty answer FAILS, that a reference solution done by
hand in Python PASSES, that a few alternative answer phrasings are judged as
intended and, where one is given, that a plausible but careless attempt FAILS.
"""
from __future__ import annotations

import configparser
import csv
import datetime as _dt
import hashlib
import io
import json
import os
import re
import shutil
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

# ---------------------------------------------------------------------------
# generic helpers
# ---------------------------------------------------------------------------


def _safe(fn):
    """Wrap a check so that it never raises: errors become a failure reason."""

    def wrapper(folder, answer):
        try:
            return fn(Path(folder), answer or "")
        except Exception as exc:  # any error means "not done"
            return f"check error: {type(exc).__name__}: {exc}"

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def _text(folder: Path, rel: str):
    p = folder / rel
    if not p.is_file():
        return None
    return p.read_text(encoding="utf-8", errors="replace")


def _files_under(folder: Path, sub: str = "") -> list[str]:
    base = folder / sub if sub else folder
    if not base.is_dir():
        return []
    return sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file())


def _same_files(folder: Path, files: dict, names) -> str | None:
    """The given original files must still be there, unchanged."""
    for rel in names:
        if _text(folder, rel) != files[rel]:
            return f"{rel} should have been left alone (missing or changed)"
    return None


# --- numbers in answers -----------------------------------------------------

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen"]
_TENS_W = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SMALL = {w: i for i, w in enumerate(_UNITS)}
_TENS = {w: (i + 2) * 10 for i, w in enumerate(_TENS_W)}
_SCALE = {"hundred": 100, "thousand": 1000, "million": 1000000}
_W_ALT = "|".join(sorted(_UNITS + _TENS_W + list(_SCALE), key=len, reverse=True))
_WORDNUM_RE = re.compile(rf"\b(?:{_W_ALT})(?:(?:\s+and\s+|[\s-]+)(?:{_W_ALT}))*\b", re.I)
_NUM_RE = re.compile(r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?!\d)")
_ONE_PRONOUN_BEFORE = {"the", "which", "this", "that", "each", "any", "every", "no",
                       "only", "last", "first", "newest", "oldest", "latest", "biggest",
                       "largest", "one", "someone", "anyone"}

_NOISE_RES = [
    re.compile(r"https?://\S+"),
    re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),                                # e-mails
    re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?)?"),         # ISO dates
    re.compile(r"\d{1,2}/[A-Za-z]{3}/\d{4}(?::\d{2}:\d{2}:\d{2})?"),           # log dates
    re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b"),                               # clock times
    re.compile(r"\b\d+(?:\.\d+){2,}\b"),                                        # versions, IPs
    re.compile(r"(?:[\w.-]+/)*[\w-]*[A-Za-z_][\w-]*\.[A-Za-z]\w*"),             # file names
    re.compile(r"(?:[\w.-]+/)+[\w.-]*"),                                        # dir paths
    re.compile(r"\b[A-Za-z]+[-_#]\d+\b"),                                       # ids: INV-102
    re.compile(r"\b[0-9a-f]{16,}\b"),                                           # hashes
]


def _strip_noise(text: str) -> str:
    for rx in _NOISE_RES:
        text = rx.sub(lambda m: " " * len(m.group()), text)
    return text


def _words_to_int(s: str) -> int:
    total = cur = 0
    for w in re.split(r"[\s-]+", s.lower()):
        if w == "and" or not w:
            continue
        if w in _SMALL:
            cur += _SMALL[w]
        elif w in _TENS:
            cur += _TENS[w]
        elif w == "hundred":
            cur = (cur or 1) * 100
        elif w in _SCALE:
            total += (cur or 1) * _SCALE[w]
            cur = 0
    return total + cur


def _numbers(answer: str) -> list[float]:
    """All numbers in the answer, in order: digits (with thousands separators)
    and number words; dates, times, versions, file names and ids are skipped."""
    t = _strip_noise(answer)
    found = []
    for m in _NUM_RE.finditer(t):
        found.append((m.start(), float(m.group().replace(",", ""))))
    for m in _WORDNUM_RE.finditer(t):
        s = m.group()
        if s.lower() == "one":
            before = re.findall(r"[A-Za-z]+", t[:m.start()])
            after = re.match(r"\s*([A-Za-z]+)", t[m.end():])
            if (before and before[-1].lower() in _ONE_PRONOUN_BEFORE) or \
                    (after and after.group(1).lower() in {"of", "another"}):
                continue
        found.append((m.start(), float(_words_to_int(s))))
    found.sort()
    return [v for _, v in found]


def _close(a: float, b: float, tol: float) -> bool:
    return abs(a - b) <= tol + 1e-9


def _check_number(  # noqa: PLR0913 - optional knobs, every call site passes them by keyword
    answer: str, expected: float, decoys=(), ignore=(), tol=0.0, max_distinct=6, nums=None
) -> str | None:
    """Expected value must be stated; no plausible wrong value (decoy) may come
    before it; at most one decoy overall; no long lists of numbers."""
    if nums is None:
        nums = _numbers(answer)
    nums = [n for n in nums if not any(_close(n, i, 1e-9) for i in ignore)]
    if not nums:
        return f"no number in the answer (expected {expected:g})"
    idx = next((i for i, n in enumerate(nums) if _close(n, expected, tol)), None)
    if idx is None:
        return f"answer does not give {expected:g} (numbers seen: {nums[:5]})"
    for n in nums[:idx]:
        if any(_close(n, d, tol) for d in decoys):
            return f"answer gives the wrong value {n:g} before {expected:g}"
    present = {d for d in decoys if any(_close(n, d, tol) for n in nums)}
    if len(present) > 1:
        return "answer lists several candidate values"
    if len({round(n, 6) for n in nums}) > max_distinct:
        return "answer lists too many numbers to be a clear answer"
    return None


# --- names in answers ---------------------------------------------------------


def _first_pos(text: str, alias: str):
    pat = r"(?<![\w.-])" + re.escape(alias) + r"(?![\w-]|\.[A-Za-z0-9])"
    m = re.search(pat, text, re.I)
    return m.start() if m else None


def _check_names(answer: str, expected: str, candidates, expected_aliases=(),
                 max_others=None) -> str | None:
    """`expected` must be the first of `candidates` mentioned, and the answer
    must not just list the candidates."""
    pos = {}
    for c in candidates:
        aliases = [c] + (list(expected_aliases) if c == expected else [])
        ps = [p for a in aliases if (p := _first_pos(answer, a)) is not None]
        if ps:
            pos[c] = min(ps)
    if expected not in pos:
        return f"answer does not name {expected}"
    before = sorted((pos[c], c) for c in pos if c != expected and pos[c] < pos[expected])
    if before:
        return f"answer names {before[0][1]} before {expected}"
    others = [c for c in pos if c != expected]
    limit = max_others if max_others is not None else (1 if len(candidates) <= 4 else 2)
    if len(others) > limit:
        return "answer lists several candidates instead of one"
    return None


# ---------------------------------------------------------------------------
# task 1: photos into month folders (+ which month has most)
# ---------------------------------------------------------------------------

_PHOTOS = ["IMG_20230714_101500.jpg", "IMG_20230714_183012.jpg", "IMG_20230802_090000.jpg",
           "IMG_20231231_235959.jpg", "IMG_20240101_000105.jpg", "IMG_20240101_121500.jpg",
           "IMG_20240103_080000.jpg", "IMG_20240215_120000.jpg"]
PHOTO_FILES = {n: f"JPEG placeholder for {n}\n" for n in _PHOTOS}
PHOTO_FILES["readme.txt"] = "Photos copied from my phone on 2024-03-01.\n"


def _photo_month(n: str) -> str:
    return f"{n[4:8]}-{n[8:10]}"


_MON3 = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MONTH_RES = [
    (re.compile(r"(?<![\d/.-])(\d{4})[-/.](\d{1,2})(?!\d)"), "ym"),
    (re.compile(r"(?<![\d/.-])(\d{1,2})[-/.](\d{4})(?!\d)"), "my"),
    (re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+(?:of\s+)?(\d{4})\b",
                re.I), "namey"),
]


def _month_mentions(text: str) -> list[str]:
    found = []
    for rx, kind in _MONTH_RES:
        for m in rx.finditer(text):
            a, b = m.group(1), m.group(2)
            if kind == "ym":
                y, mo = int(a), int(b)
            elif kind == "my":
                mo, y = int(a), int(b)
            else:
                mo, y = _MON3.index(a.lower()[:3]) + 1, int(b)
            if 1 <= mo <= 12:
                found.append((m.start(), f"{y:04d}-{mo:02d}"))
    found.sort()
    return [v for _, v in found]


@_safe
def check_photos_by_month(folder, answer):
    for n in _PHOTOS:
        dest = folder / _photo_month(n) / n
        if not dest.is_file():
            return f"{_photo_month(n)}/{n} is missing"
        if dest.read_text() != PHOTO_FILES[n]:
            return f"{n} content changed"
        if (folder / n).exists():
            return f"{n} was left in the top folder"
        copies = list(folder.rglob(n))
        if len(copies) != 1:
            return f"{n} exists {len(copies)} times"
    if _text(folder, "readme.txt") != PHOTO_FILES["readme.txt"]:
        return "readme.txt was moved or changed"
    months = _month_mentions(answer)
    cands = {_photo_month(n) for n in _PHOTOS}
    months = [m for m in months if m in cands]
    if not months:
        return "answer does not say which month has the most photos (2024-01)"
    if months[0] != "2024-01":
        return f"answer names {months[0]} first, expected 2024-01"
    if len(set(months)) > 3:
        return "answer lists several months instead of one"
    return None


def solve_photos_by_month(folder):
    from collections import Counter
    c = Counter()
    for n in _PHOTOS:
        m = _photo_month(n)
        (folder / m).mkdir(exist_ok=True)
        shutil.move(str(folder / n), str(folder / m / n))
        c[m] += 1
    m, k = c.most_common(1)[0]
    return f"Done. {m} has the most photos ({k})."


def careless_photos_by_month(folder):  # folders by year only
    for n in _PHOTOS:
        (folder / n[4:8]).mkdir(exist_ok=True)
        shutil.move(str(folder / n), str(folder / n[4:8] / n))
    return "2024-01"


# ---------------------------------------------------------------------------
# task 2: unpaid invoices total (question)
# ---------------------------------------------------------------------------

INVOICES = """invoice,client,date,amount,status
INV-101,Acme,2024-01-03,1200.00,paid
INV-102,Birch & Co,2024-01-10,349.50,unpaid
INV-103,Cobalt,2024-01-22,880.00,Unpaid
INV-104,Acme,2024-02-01,1500.00,paid
INV-105,Dune Labs,2024-02-14,253.00,unpaid
INV-106,Cobalt,2024-02-20,75.25,paid
INV-107,Elm Studio,2024-03-01,1120.00,UNPAID
"""


@_safe
def check_invoice_owed(folder, answer):
    return _check_number(answer, 2602.50, decoys=[5377.75, 602.5, 2775.25, 1722.5], tol=0.005)


def solve_invoice_owed(folder):
    rows = list(csv.DictReader(io.StringIO(_text(folder, "invoices.csv"))))
    tot = sum(float(r["amount"]) for r in rows if r["status"].strip().lower() == "unpaid")
    return f"Your clients still owe ${tot:,.2f}."


def careless_invoice_owed(folder):  # exact-case match only
    rows = list(csv.DictReader(io.StringIO(_text(folder, "invoices.csv"))))
    tot = sum(float(r["amount"]) for r in rows if r["status"] == "unpaid")
    return f"{tot:.2f}"


# ---------------------------------------------------------------------------
# task 3: occurrences of a word (question)
# ---------------------------------------------------------------------------

SERVER_LOG = """2024-04-02 08:00:01 INFO server started on :8443
2024-04-02 08:01:15 INFO GET /health 200
2024-04-02 08:02:40 WARN upstream timeout after 30s
2024-04-02 08:03:02 INFO GET /api/items 200
2024-04-02 08:05:11 ERROR request failed: timeout waiting for db (timeout=5s)
2024-04-02 08:06:00 INFO GET /api/items 200
2024-04-02 08:07:30 WARN upstream timeout after 30s
2024-04-02 08:09:45 INFO cache refreshed
2024-04-02 08:10:02 ERROR payment gateway timeout; retry also hit a timeout
2024-04-02 08:12:19 INFO GET /api/cart 200
2024-04-02 08:13:55 WARN slow query (2.1s) but no timeout
2024-04-02 08:15:00 INFO GET /health 200
2024-04-02 08:16:21 ERROR worker timeout, job requeued after timeout
2024-04-02 08:18:40 WARN upstream timeout after 30s
2024-04-02 08:20:05 INFO shutdown requested
"""


@_safe
def check_timeout_count(folder, answer):
    return _check_number(answer, 10, decoys=[7, 15])


def solve_timeout_count(folder):
    n = len(re.findall(r"\btimeout\b", _text(folder, "server.log")))
    return f"'timeout' appears {n} times."


def careless_timeout_count(folder):  # counts matching lines (grep -c)
    n = sum(1 for line in _text(folder, "server.log").splitlines() if "timeout" in line)
    return f"{n}"


# ---------------------------------------------------------------------------
# task 4: INI edit, two changes in one section only
# ---------------------------------------------------------------------------

SETTINGS_INI = """; shop backend settings
[server]
host = 0.0.0.0
port = 8080
debug = true

[database]
host = localhost
port = 5432
debug = true
name = shop

[cache]
port = 6379
"""


@_safe
def check_ini_server(folder, answer):
    text = _text(folder, "settings.ini")
    if text is None:
        return "settings.ini is missing"
    cp = configparser.ConfigParser()
    cp.read_string(text)
    s = cp["server"]
    if s.get("port", "").strip() != "9090":
        return f"server port is {s.get('port')!r}, expected 9090"
    if s.get("debug", "").strip().lower() not in {"false", "off", "no", "0"}:
        return f"server debug is {s.get('debug')!r}, expected off"
    if s.get("host", "").strip() != "0.0.0.0":
        return "server host changed"
    want = {("database", "host"): "localhost", ("database", "port"): "5432",
            ("database", "debug"): "true", ("database", "name"): "shop",
            ("cache", "port"): "6379"}
    for (sec, key), val in want.items():
        if not cp.has_section(sec) or cp[sec].get(key, "").strip() != val:
            return f"[{sec}] {key} should still be {val}"
    return None


def solve_ini_server(folder):
    p = folder / "settings.ini"
    out, sec = [], None
    for line in p.read_text().splitlines(keepends=True):
        m = re.match(r"\s*\[(.+)\]", line)
        if m:
            sec = m.group(1)
        elif sec == "server" and re.match(r"\s*port\s*=", line):
            line = "port = 9090\n"
        elif sec == "server" and re.match(r"\s*debug\s*=", line):
            line = "debug = false\n"
        out.append(line)
    p.write_text("".join(out))
    return "Server port is now 9090 and server debug is off."


def careless_ini_server(folder):  # global replace hits the database section too
    p = folder / "settings.ini"
    p.write_text(p.read_text().replace("8080", "9090").replace("debug = true", "debug = false"))
    return "done"


# ---------------------------------------------------------------------------
# task 5: node - bump patch version
# ---------------------------------------------------------------------------

PKG5 = {"name": "tiny-cli", "version": "1.4.9", "description": "Prints a friendly banner",
        "main": "index.js", "bin": {"tiny": "index.js"}, "scripts": {"test": "node test.js"},
        "license": "MIT", "dependencies": {"chalk": "^5.3.0"}}


@_safe
def check_bump_patch(folder, answer):
    text = _text(folder, "package.json")
    if text is None:
        return "package.json is missing"
    data = json.loads(text)
    if data.get("version") != "1.4.10":
        return f"version is {data.get('version')!r}, expected 1.4.10"
    want = dict(PKG5, version="1.4.10")
    for k in want:
        if data.get(k) != want[k]:
            return f"field {k!r} was changed or dropped"
    if set(data) != set(want):
        return "package.json gained unexpected fields"
    if _text(folder, "index.js") is None:
        return "index.js is missing"
    return None


def solve_bump_patch(folder):
    p = folder / "package.json"
    d = json.loads(p.read_text())
    a, b, c = d["version"].split(".")
    d["version"] = f"{a}.{b}.{int(c) + 1}"
    p.write_text(json.dumps(d, indent=2) + "\n")
    return f"Version bumped to {d['version']}."


def careless_bump_patch(folder):  # treats 9 -> next as a minor roll-over
    p = folder / "package.json"
    d = json.loads(p.read_text())
    d["version"] = "1.5.0"
    p.write_text(json.dumps(d, indent=2) + "\n")
    return "Bumped to 1.5.0"


# ---------------------------------------------------------------------------
# task 6: node - count runtime deps (question)
# ---------------------------------------------------------------------------

PKG6 = {"name": "orders-api", "version": "0.9.2", "private": True,
        "scripts": {"start": "node src/index.js", "test": "jest"},
        "dependencies": {"express": "^4.18.2", "pg": "^8.11.3", "dotenv": "^16.3.1",
                         "zod": "^3.22.4", "pino": "^8.16.0", "helmet": "^7.1.0"},
        "devDependencies": {"jest": "^29.7.0", "eslint": "^8.54.0", "nodemon": "^3.0.1"}}


@_safe
def check_runtime_deps(folder, answer):
    return _check_number(answer, 6, decoys=[9, 3])


def solve_runtime_deps(folder):
    d = json.loads(_text(folder, "package.json"))
    return f"package.json lists {len(d['dependencies'])} dependencies (not counting dev ones)."


def careless_runtime_deps(folder):
    d = json.loads(_text(folder, "package.json"))
    return f"{len(d['dependencies']) + len(d['devDependencies'])} dependencies"


# ---------------------------------------------------------------------------
# task 7: TODO list with file + line
# ---------------------------------------------------------------------------

TODO_FILES = {
    "src/app.py": (
        "import sys\n\nfrom utils.strings import slugify\n\n"
        "# TODO: read the port from an environment variable\nPORT = 8000\n\n\n"
        "def main(argv):\n    name = argv[1] if len(argv) > 1 else \"world\"\n"
        "    print(slugify(name))  # TODO: handle unicode names properly\n    return 0\n\n\n"
        "if __name__ == \"__main__\":\n    sys.exit(main(sys.argv))\n"),
    "src/utils/__init__.py": "",
    "src/utils/strings.py": (
        "import re\n\n\ndef slugify(text):\n    # TODO: collapse repeated dashes\n"
        "    return re.sub(r\"[^a-z0-9]+\", \"-\", text.lower()).strip(\"-\")\n"),
    "src/utils/dates.py": (
        "from datetime import date\n\n# TODO: support ISO week numbers\n\n\n"
        "def today_str():\n    # TODO remove this helper once the scheduler has its own\n"
        "    return date.today().isoformat()\n"),
    "tests/test_app.py": (
        "from src.app import main\n\n\n# TODO: add a test for an empty name\n"
        "def test_main():\n    assert main([\"x\"]) == 0\n"),
    "README.md": "Small demo app. Open tasks are marked as TODO comments in the code.\n",
}


def _expected_todos():
    out = []
    for rel, text in TODO_FILES.items():
        if not rel.startswith("src/"):
            continue
        for i, line in enumerate(text.splitlines(), 1):
            if "TODO" in line:
                msg = line.split("TODO", 1)[1].lstrip(": ").strip()
                out.append((rel, i, msg))
    return out


@_safe
def check_todo_list(folder, answer):
    text = _text(folder, "todo.txt")
    if text is None:
        return "todo.txt is missing"
    lines = text.splitlines()
    low = text.lower()
    if "add a test for an empty name" in low:
        return "todo.txt includes a TODO from outside src"
    for rel, n, msg in _expected_todos():
        base = rel.rsplit("/", 1)[-1]
        hit = None
        for i, line in enumerate(lines):
            if msg.lower() in line.lower():
                hit = i
                break
        if hit is None:
            return f"TODO '{msg}' ({rel}) is not in todo.txt"
        line = lines[hit]
        if not re.search(rf"(?<!\d){n}(?!\d)", line):
            return f"line number {n} missing for TODO '{msg}'"
        if base.lower() not in line.lower():
            # allow a grouped layout: the closest earlier line naming a .py file
            prev = next((lines[j] for j in range(hit - 1, -1, -1)
                         if re.search(r"\w\.py\b", lines[j])), "")
            if base.lower() not in prev.lower():
                return f"file name {base} not given for TODO '{msg}'"
    return None


def _todo_scan(folder, recursive=True):
    out = []
    paths = (folder / "src").rglob("*.py") if recursive else (folder / "src").glob("*.py")
    for p in sorted(paths):
        for i, line in enumerate(p.read_text().splitlines(), 1):
            if "TODO" in line:
                out.append(f"{p.relative_to(folder).as_posix()}:{i}: {line.strip()}")
    return out


def solve_todo_list(folder):
    out = _todo_scan(folder)
    (folder / "todo.txt").write_text("\n".join(out) + "\n")
    return f"Wrote {len(out)} TODOs to todo.txt."


def careless_todo_list(folder):  # not recursive: misses src/utils
    out = _todo_scan(folder, recursive=False)
    (folder / "todo.txt").write_text("\n".join(out) + "\n")
    return "done"


# ---------------------------------------------------------------------------
# task 8: split CSV by region, keep header (+ which region sold most)
# ---------------------------------------------------------------------------

SALES = """date,region,product,amount
2024-03-01,North,Widget,120.00
2024-03-01,South,Gadget,75.50
2024-03-02,East,Widget,60.00
2024-03-02,North,Gizmo,210.00
2024-03-03,West,Widget,95.00
2024-03-03,North,Widget,130.00
2024-03-04,South,Gizmo,180.00
2024-03-04,East,Gadget,45.00
2024-03-05,North,Gadget,88.00
2024-03-05,West,Gizmo,150.00
"""
_REGIONS = ["North", "South", "East", "West"]


def _norm_cell(c: str) -> str:
    c = c.strip()
    try:
        return f"{float(c):.2f}"
    except ValueError:
        return c.lower()


@_safe
def check_split_sales(folder, answer):
    rows = list(csv.reader(io.StringIO(SALES)))
    header, data = rows[0], rows[1:]
    new = [p for p in folder.rglob("*.csv") if p.relative_to(folder).as_posix() != "sales.csv"]
    for reg in _REGIONS:
        mine = [p for p in new if reg.lower() in p.stem.lower()]
        if len(mine) != 1:
            return f"expected one file for {reg}, found {len(mine)}"
        got = list(csv.reader(io.StringIO(mine[0].read_text())))
        got = [r for r in got if any(c.strip() for c in r)]
        if not got or [c.strip().lower() for c in got[0]] != header:
            return f"{mine[0].name} does not start with the header row"
        want = sorted([_norm_cell(c) for c in r] for r in data if r[1] == reg)
        have = sorted([_norm_cell(c) for c in r] for r in got[1:])
        if want != have:
            return f"{mine[0].name} does not hold exactly the {reg} rows"
    if len(new) != len(_REGIONS):
        return f"expected {len(_REGIONS)} region files, found {len(new)} new csv files"
    return _check_names(answer, "North", _REGIONS)


def solve_split_sales(folder):
    rows = list(csv.reader(io.StringIO(_text(folder, "sales.csv"))))
    by = {}
    for r in rows[1:]:
        by.setdefault(r[1], []).append(r)
    for reg, rs in by.items():
        with open(folder / f"sales_{reg.lower()}.csv", "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(rows[0])
            w.writerows(rs)
    best = max(by, key=lambda k: sum(float(r[3]) for r in by[k]))
    return f"Created {len(by)} files. {best} sold the most."


def careless_split_sales(folder):  # forgets the header
    rows = list(csv.reader(io.StringIO(_text(folder, "sales.csv"))))
    by = {}
    for r in rows[1:]:
        by.setdefault(r[1], []).append(r)
    for reg, rs in by.items():
        with open(folder / f"{reg}.csv", "w", newline="") as fh:
            csv.writer(fh).writerows(rs)
    return "North"


# ---------------------------------------------------------------------------
# task 9: merge daily notes (DD-MM-YYYY names) oldest first, then archive
# ---------------------------------------------------------------------------

NOTES = {
    "notes/15-01-2024.md": "# 15 Jan 2024\nStarted the pottery class.\n",
    "notes/03-02-2024.md": "# 3 Feb 2024\nFixed the back wheel of the bike.\n",
    "notes/28-12-2023.md": "# 28 Dec 2023\nBought a reading lamp.\n",
    "notes/10-02-2024.md": "# 10 Feb 2024\nCalled the landlord about the heating.\n",
}
_NOTES_ORDER = ["notes/28-12-2023.md", "notes/15-01-2024.md", "notes/03-02-2024.md",
                "notes/10-02-2024.md"]


@_safe
def check_notes_merge(folder, answer):
    cands = [c for c in ("notes/all-notes.md", "all-notes.md") if (folder / c).is_file()]
    if not cands:
        return "all-notes.md is missing (looked in notes/ and the top folder)"
    merged = _text(folder, cands[0])
    pos = []
    for rel in _NOTES_ORDER:
        body = NOTES[rel].splitlines()[1]
        if merged.count(body) != 1:
            return f"all-notes.md should contain the note from {rel} exactly once"
        pos.append(merged.index(body))
    if pos != sorted(pos):
        return "notes in all-notes.md are not oldest first"
    for rel in NOTES:
        name = rel.split("/")[1]
        if (folder / rel).exists():
            return f"{rel} was not moved to notes/archive"
        if _text(folder, f"notes/archive/{name}") != NOTES[rel]:
            return f"notes/archive/{name} is missing or changed"
    return None


def _merge_notes(folder, key):
    names = sorted((p.name for p in (folder / "notes").glob("*.md")), key=key)
    merged = "\n".join((folder / "notes" / n).read_text() for n in names)
    (folder / "notes" / "archive").mkdir()
    for n in names:
        shutil.move(str(folder / "notes" / n), str(folder / "notes" / "archive" / n))
    (folder / "notes" / "all-notes.md").write_text(merged)


def solve_notes_merge(folder):
    _merge_notes(folder, lambda n: _dt.datetime.strptime(n[:-3], "%d-%m-%Y"))
    return "Merged 4 notes into notes/all-notes.md and archived the originals."


def careless_notes_merge(folder):  # sorts by file name
    _merge_notes(folder, lambda n: n)
    return "done"


# ---------------------------------------------------------------------------
# task 10: rename to lowercase with dashes
# ---------------------------------------------------------------------------

DOWNLOADS = {
    "downloads/My Report FINAL.pdf": "report pdf\n",
    "downloads/Holiday Photos 2023.zip": "zip of photos\n",
    "downloads/budget Q3.xlsx": "spreadsheet\n",
    "downloads/already-fine.txt": "fine as is\n",
    "downloads/Invoice March.PDF": "invoice pdf\n",
}
_DL_NEW = {"my-report-final.pdf": "My Report FINAL.pdf",
           "holiday-photos-2023.zip": "Holiday Photos 2023.zip",
           "budget-q3.xlsx": "budget Q3.xlsx", "already-fine.txt": "already-fine.txt",
           "invoice-march.pdf": "Invoice March.PDF"}


@_safe
def check_kebab_names(folder, answer):
    have = set(_files_under(folder, "downloads"))
    if have != set(_DL_NEW):
        missing = sorted(set(_DL_NEW) - have)
        extra = sorted(have - set(_DL_NEW))
        return f"downloads has wrong names (missing {missing[:2]}, unexpected {extra[:2]})"
    for new, old in _DL_NEW.items():
        if _text(folder, f"downloads/{new}") != DOWNLOADS[f"downloads/{old}"]:
            return f"{new} content does not match {old}"
    return None


def solve_kebab_names(folder):
    d = folder / "downloads"
    for p in list(d.iterdir()):
        p.rename(d / re.sub(r"\s+", "-", p.name.lower()))
    return "Renamed."


def careless_kebab_names(folder):  # lowercases but keeps spaces
    d = folder / "downloads"
    for p in list(d.iterdir()):
        p.rename(d / p.name.lower())
    return "Renamed."


# ---------------------------------------------------------------------------
# task 11: days between first and last backup (question)
# ---------------------------------------------------------------------------

_BACKUP_DATES = ["2024-01-28", "2024-01-31", "2024-02-04", "2024-02-07", "2024-02-11",
                 "2024-02-14", "2024-02-18", "2024-02-21", "2024-02-25", "2024-02-29",
                 "2024-03-02", "2024-03-04"]
BACKUP_LOG = "".join(f"{d} 02:00:0{i % 10} backup ok, {3.1 + i / 10:.1f} GB written\n"
                     for i, d in enumerate(_BACKUP_DATES))


@_safe
def check_backup_span(folder, answer):
    return _check_number(answer, 36, decoys=[35, 37, 12, 11])


def solve_backup_span(folder):
    ds = [line.split()[0] for line in _text(folder, "backup.log").splitlines() if line.strip()]
    a, b = (_dt.date.fromisoformat(x) for x in (ds[0], ds[-1]))
    return f"{(b - a).days} days passed between the first and last backup."


def careless_backup_span(folder):  # counts entries
    n = len(_text(folder, "backup.log").splitlines())
    return f"{n} days"


# ---------------------------------------------------------------------------
# task 12: tar.gz the logs, then delete them
# ---------------------------------------------------------------------------

LOGS12 = {
    "app.log": "2024-05-01 10:00:00 INFO app up\n2024-05-01 10:05:00 INFO ready\n",
    "worker.log": "2024-05-01 10:00:02 INFO worker 1 started\n",
    "db.log": "2024-05-01 09:59:58 LOG database system is ready\n",
    "notes.txt": "rotate logs weekly\n",
    "logrotate.conf": "/var/log/app/*.log {\n  weekly\n  rotate 4\n}\n",
}


@_safe
def check_tar_logs(folder, answer):
    p = folder / "logs.tar.gz"
    if not p.is_file():
        return "logs.tar.gz is missing"
    with tarfile.open(p, "r:gz") as tf:
        got = {}
        for m in tf.getmembers():
            if m.isfile():
                got[m.name.rsplit("/", 1)[-1]] = tf.extractfile(m).read().decode()
    for n in ("app.log", "worker.log", "db.log"):
        if got.get(n) != LOGS12[n]:
            return f"{n} is missing from the archive or differs"
    left = [q.name for q in folder.glob("*.log")]
    if left:
        return f"original log files were not deleted: {sorted(left)}"
    return _same_files(folder, LOGS12, ["notes.txt", "logrotate.conf"])


def solve_tar_logs(folder):
    logs = sorted(folder.glob("*.log"))
    with tarfile.open(folder / "logs.tar.gz", "w:gz") as tf:
        for p in logs:
            tf.add(p, arcname=p.name)
    for p in logs:
        p.unlink()
    return f"Packed {len(logs)} logs into logs.tar.gz and deleted them."


def careless_tar_logs(folder):  # never deletes the originals
    with tarfile.open(folder / "logs.tar.gz", "w:gz") as tf:
        for p in sorted(folder.glob("*.log")):
            tf.add(p, arcname=p.name)
    return "Packed."


# ---------------------------------------------------------------------------
# task 13: zip project without node_modules, say how many files
# ---------------------------------------------------------------------------

MYAPP = {
    "myapp/package.json": '{\n  "name": "myapp",\n  "version": "1.0.0"\n}\n',
    "myapp/index.js": "require('./src/server').start();\n",
    "myapp/src/server.js": "exports.start = () => console.log('listening');\n",
    "myapp/src/routes/users.js": "module.exports = [];\n",
    "myapp/public/index.html": "<!doctype html><title>myapp</title>\n",
    "myapp/node_modules/express/index.js": "module.exports = function () {};\n",
    "myapp/node_modules/express/package.json": '{"name": "express"}\n',
    "myapp/node_modules/.package-lock.json": "{}\n",
}
_MYAPP_KEEP = ["package.json", "index.js", "src/server.js", "src/routes/users.js",
               "public/index.html"]


@_safe
def check_zip_project(folder, answer):
    p = folder / "myapp.zip"
    if not p.is_file():
        return "myapp.zip is missing"
    with zipfile.ZipFile(p) as zf:
        names = [n for n in zf.namelist() if not n.endswith("/")]
        if any("node_modules" in n for n in names):
            return "the zip contains node_modules"
        norm = {}
        for n in names:
            k = n[2:] if n.startswith("./") else n
            k = k[len("myapp/"):] if k.startswith("myapp/") else k
            norm[k] = zf.read(n).decode()
    if set(norm) != set(_MYAPP_KEEP):
        return f"zip holds {sorted(norm)}, expected {sorted(_MYAPP_KEEP)}"
    for k in _MYAPP_KEEP:
        if norm[k] != MYAPP[f"myapp/{k}"]:
            return f"{k} in the zip differs from the original"
    if _text(folder, "myapp/index.js") is None:
        return "the myapp folder itself should stay"
    return _check_number(answer, 5, decoys=[8, 9, 3])


def _zip_myapp(folder, skip_nm=True):
    n = 0
    with zipfile.ZipFile(folder / "myapp.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted((folder / "myapp").rglob("*")):
            rel = p.relative_to(folder).as_posix()
            if p.is_file() and not (skip_nm and "/node_modules/" in rel):
                zf.write(p, rel)
                n += 1
    return n


def solve_zip_project(folder):
    n = _zip_myapp(folder)
    return f"Created myapp.zip with {n} files (node_modules left out)."


def careless_zip_project(folder):
    n = _zip_myapp(folder, skip_nm=False)
    return f"Zipped {n} files."


# ---------------------------------------------------------------------------
# task 14: SHA256SUMS for a release folder
# ---------------------------------------------------------------------------

RELEASE = {
    "release/app-linux.tar.gz": "linux build 2.1.0\n" * 3,
    "release/app-mac.zip": "mac build 2.1.0\n" * 4,
    "release/app-win.zip": "windows build 2.1.0\n" * 2,
    "release/NOTES.md": "# 2.1.0\n- faster start-up\n",
}


@_safe
def check_sha256sums(folder, answer):
    p = folder / "release" / "SHA256SUMS"
    if not p.is_file():
        return "release/SHA256SUMS is missing"
    got = {}
    for line in p.read_text().splitlines():
        if not line.strip():
            continue
        m = re.match(r"^([0-9a-fA-F]+) [ *](.+)$", line.strip())
        if not m:
            return f"line not in sha256sum format: {line[:60]!r}"
        name = m.group(2).strip()
        name = name[2:] if name.startswith("./") else name
        name = name[len("release/"):] if name.startswith("release/") else name
        got[name] = m.group(1).lower()
    for rel, content in RELEASE.items():
        name = rel.split("/", 1)[1]
        want = hashlib.sha256(content.encode()).hexdigest()
        if got.get(name) != want:
            return f"missing or wrong SHA-256 for {name}"
    extra = set(got) - {r.split("/", 1)[1] for r in RELEASE} - {"SHA256SUMS"}
    if extra:
        return f"unexpected entries: {sorted(extra)}"
    return _same_files(folder, RELEASE, RELEASE)


def _sums(folder, algo):
    d = folder / "release"
    lines = [f"{hashlib.new(algo, p.read_bytes()).hexdigest()}  {p.name}"
             for p in sorted(d.iterdir()) if p.is_file()]
    (d / "SHA256SUMS").write_text("\n".join(lines) + "\n")


def solve_sha256sums(folder):
    _sums(folder, "sha256")
    return "Wrote release/SHA256SUMS."


def careless_sha256sums(folder):  # uses md5 by mistake
    _sums(folder, "md5")
    return "done"


# ---------------------------------------------------------------------------
# task 15: remove duplicate scans (by content), say how many removed
# ---------------------------------------------------------------------------

SCANS = {
    "scans/scan_001.pdf": "%PDF-1.4 page A\n",
    "scans/scan_002.pdf": "%PDF-1.4 page A\n",
    "scans/scan_003.pdf": "%PDF-1.4 page B\n",
    "scans/scan_003 (copy).pdf": "%PDF-1.4 page B\n",
    "scans/receipt.pdf": "%PDF-1.4 receipt C\n",
    "scans/receipt (copy).pdf": "%PDF-1.4 receipt D (corrected)\n",
    "scans/notes.pdf": "%PDF-1.4 notes E\n",
}


@_safe
def check_dedupe_scans(folder, answer):
    d = folder / "scans"
    contents = [p.read_text() for p in d.iterdir() if p.is_file()] if d.is_dir() else []
    for c in sorted(set(SCANS.values())):
        k = contents.count(c)
        if k == 0:
            return f"a unique file was lost ({c.strip()!r})"
        if k > 1:
            return f"duplicates remain ({c.strip()!r} x{k})"
    if len(contents) != len(set(SCANS.values())):
        return "scans holds unexpected files"
    return _check_number(answer, 2, decoys=[3, 5, 7])


def solve_dedupe_scans(folder):
    seen, removed = set(), 0
    for p in sorted((folder / "scans").iterdir(), key=lambda p: (len(p.name), p.name)):
        h = hashlib.sha256(p.read_bytes()).hexdigest()
        if h in seen:
            p.unlink()
            removed += 1
        else:
            seen.add(h)
    return f"Removed {removed} duplicate files."


def careless_dedupe_scans(folder):  # trusts "(copy)" in the name
    n = 0
    for p in list((folder / "scans").glob("*(copy)*")):
        p.unlink()
        n += 1
    return f"Removed {n} duplicates."


# ---------------------------------------------------------------------------
# tasks 16-17: system facts
# ---------------------------------------------------------------------------


def _k_to_bytes(answer: str) -> str:
    return re.sub(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:kib|kb|k|kilobytes?|kibibytes?)\b",
                  lambda m: str(int(float(m.group(1)) * 1024)), answer, flags=re.I)


@_safe
def check_page_size(folder, answer):
    ps = os.sysconf("SC_PAGE_SIZE")
    decoys = [x for x in (2048, 4096, 8192, 16384, 65536) if x != ps]
    return _check_number(_k_to_bytes(answer), ps, decoys=decoys)


def solve_page_size(folder):
    return f"The memory page size is {os.sysconf('SC_PAGE_SIZE')} bytes."


@_safe
def check_name_max(folder, answer):
    nm = os.pathconf(str(folder), "PC_NAME_MAX")
    decoys = [x for x in (4096, 256, 254, 1024) if x != nm]
    return _check_number(answer, nm, decoys=decoys)


def solve_name_max(folder):
    return f"{os.pathconf(str(folder), 'PC_NAME_MAX')} bytes (characters) per file name."


def careless_name_max(folder):  # confuses with PATH_MAX
    return f"{os.pathconf(str(folder), 'PC_PATH_MAX')} characters"


# ---------------------------------------------------------------------------
# task 18: YAML-like config lookup (question)
# ---------------------------------------------------------------------------

CONFIG_YML = """app:
  name: shopfront
  port: 3000
cache:
  host: redis.internal.lan
  port: 6379
database:
  host: pg-primary.internal.lan
  port: 5432
  replica:
    host: pg-replica.internal.lan
"""
_HOSTS = ["pg-primary.internal.lan", "redis.internal.lan", "pg-replica.internal.lan"]


@_safe
def check_db_host(folder, answer):
    return _check_names(answer, "pg-primary.internal.lan", _HOSTS)


def solve_db_host(folder):
    sec = None
    for line in _text(folder, "config.yml").splitlines():
        if not line.startswith(" "):
            sec = line.rstrip(":")
        elif sec == "database" and line.startswith("  host:"):
            return f"The database connects to {line.split(':', 1)[1].strip()}."
    return "not found"


def careless_db_host(folder):  # first host: line in the file
    for line in _text(folder, "config.yml").splitlines():
        if line.strip().startswith("host:"):
            return line.split(":", 1)[1].strip()
    return ""


# ---------------------------------------------------------------------------
# task 19: JSON contacts -> CSV (commas and quotes in names)
# ---------------------------------------------------------------------------

CONTACTS = [
    {"name": "Ana Souza", "email": "ana@souza.dev", "phone": "+55 11 91234-5678"},
    {"name": "Robert Smith, Jr.", "email": "rob@smithjr.io"},
    {"name": "Dara O'Neil", "email": "dara@oneil.ie", "phone": "087 123 4567"},
    {"name": 'Lee "Lucky" Park', "email": "lee.park@example.kr", "phone": "010-5555-0199"},
]


@_safe
def check_contacts_csv(folder, answer):
    text = _text(folder, "contacts.csv")
    if text is None:
        return "contacts.csv is missing"
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if not rows:
        return "contacts.csv is empty"
    head = [c.strip().lower() for c in rows[0]]
    if sorted(head) != ["email", "name", "phone"]:
        return f"header is {rows[0]}, expected name, email, phone"
    if len(rows) - 1 != len(CONTACTS):
        return f"{len(rows) - 1} data rows, expected {len(CONTACTS)}"
    for r, c in zip(rows[1:], CONTACTS, strict=True):
        if len(r) != 3:
            return f"row {r} does not have 3 columns (quoting problem?)"
        got = dict(zip(head, (x.strip() for x in r), strict=True))
        for k in ("name", "email", "phone"):
            want = c.get(k, "")
            val = got[k]
            if not want and val.lower() in {"", "n/a", "-", "none", "null"}:
                continue
            if val != want:
                return f"{k} for {c['name']!r} is {val!r}, expected {want!r}"
    if json.loads(_text(folder, "contacts.json")) != CONTACTS:
        return "contacts.json was changed"
    return None


def solve_contacts_csv(folder):
    data = json.loads(_text(folder, "contacts.json"))
    with open(folder / "contacts.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["name", "email", "phone"])
        for c in data:
            w.writerow([c.get("name", ""), c.get("email", ""), c.get("phone", "")])
    return "Wrote contacts.csv."


def careless_contacts_csv(folder):  # naive comma join, no quoting
    data = json.loads(_text(folder, "contacts.json"))
    lines = ["name,email,phone"] + [",".join(c.get(k, "") for k in ("name", "email", "phone"))
                                     for c in data]
    (folder / "contacts.csv").write_text("\n".join(lines) + "\n")
    return "done"


# ---------------------------------------------------------------------------
# task 20: which python file defines the most functions (question)
# ---------------------------------------------------------------------------

TOOLS = {
    "tools/resize.py": (
        "from PIL import Image\n\n\ndef open_image(path):\n    return Image.open(path)\n\n\n"
        "def scale(img, factor):\n    w, h = img.size\n"
        "    return img.resize((int(w * factor), int(h * factor)))\n\n\n"
        "def thumbnail(img, size=128):\n    img.thumbnail((size, size))\n    return img\n\n\n"
        "def save(img, path):\n    img.save(path)\n"),
    "tools/config_loader.py": (
        "import json\n\n# default values used when the config file leaves a key undefined\n"
        "DEFAULTS = {\n    \"default_width\": 800,\n    \"default_height\": 600,\n"
        "    \"default_format\": \"png\",\n    \"default_quality\": 85,\n}\n\n\n"
        "def load(path):\n    with open(path) as fh:\n        data = json.load(fh)\n"
        "    return {**DEFAULTS, **data}\n\n\n"
        "def get(cfg, key):\n    # fall back to the default if the key is undefined\n"
        "    return cfg.get(key, DEFAULTS.get(key))\n"),
    "tools/cleanup.py": (
        "import os\n\n\ndef is_temp(name):\n    return name.endswith('.tmp')\n\n\n"
        "def remove_temp(folder):\n    for n in os.listdir(folder):\n        if is_temp(n):\n"
        "            os.remove(os.path.join(folder, n))\n\n\n"
        "def main():\n    remove_temp('.')\n"),
    "tools/report.py": (
        "import sys\n\n\ndef summary(rows):\n    # rows may be undefined when the export failed\n"
        "    return f'{len(rows or [])} rows'\n\n\nprint(summary(sys.argv[1:]))\n"),
}
_TOOL_NAMES = [r.split("/")[1] for r in TOOLS]


@_safe
def check_most_functions(folder, answer):
    return _check_names(answer, "resize.py", _TOOL_NAMES, expected_aliases=["resize"])


def solve_most_functions(folder):
    counts = {p.name: len(re.findall(r"^\s*def\s+\w+", p.read_text(), re.M))
              for p in (folder / "tools").glob("*.py")}
    best = max(counts, key=counts.get)
    return f"{best} defines the most functions ({counts[best]})."


def careless_most_functions(folder):  # grep -c def
    counts = {p.name: sum("def" in line for line in p.read_text().splitlines())
              for p in (folder / "tools").glob("*.py")}
    return max(counts, key=counts.get)


# ---------------------------------------------------------------------------
# task 21: biggest file in a tree (question)
# ---------------------------------------------------------------------------

_ASSET_SIZES = {"assets/logo.svg": 2000, "assets/styles.css": 4000, "assets/img/hero.png": 9000,
                "assets/img/icons/sprite.png": 15000, "assets/fonts/inter.woff2": 6000,
                "assets/readme.txt": 300}
ASSETS = {rel: ("x" * 79 + "\n") * (n // 80) for rel, n in _ASSET_SIZES.items()}


@_safe
def check_biggest_asset(folder, answer):
    names = [r.rsplit("/", 1)[1] for r in ASSETS]
    return _check_names(answer, "sprite.png", names)


def solve_biggest_asset(folder):
    p = max((p for p in (folder / "assets").rglob("*") if p.is_file()),
            key=lambda p: p.stat().st_size)
    return f"The biggest is {p.relative_to(folder)} ({p.stat().st_size:,} bytes)."


def careless_biggest_asset(folder):  # top level only
    p = max((p for p in (folder / "assets").iterdir() if p.is_file()),
            key=lambda p: p.stat().st_size)
    return p.name


# ---------------------------------------------------------------------------
# task 22: count PDFs recursively, any case (question)
# ---------------------------------------------------------------------------

DOCS = {
    "docs/contract.pdf": "pdf\n", "docs/SCAN0001.PDF": "pdf\n",
    "docs/2023/tax-return.pdf": "pdf\n", "docs/2023/SCAN0042.PDF": "pdf\n",
    "docs/2024/q1/lease.pdf": "pdf\n", "docs/2024/q1/photo.jpg": "jpg\n",
    "docs/todo.txt": "print the lease\n", "docs/pdf-tools.txt": "qpdf, pdftk\n",
    "docs/old.pdf.bak": "bak\n",
}


@_safe
def check_pdf_count(folder, answer):
    return _check_number(answer, 5, decoys=[3, 6, 2, 9], ignore=[2023, 2024])


def solve_pdf_count(folder):
    n = sum(1 for p in (folder / "docs").rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
    return f"There are {n} PDFs in docs."


def careless_pdf_count(folder):  # find -name '*.pdf'
    return str(len(list((folder / "docs").rglob("*.pdf"))))


# ---------------------------------------------------------------------------
# task 23: busiest hour of the day in an access log (question)
# ---------------------------------------------------------------------------


def _access_log() -> str:
    slots = [("05/Mar/2024", 9, 3), ("05/Mar/2024", 11, 2), ("05/Mar/2024", 14, 4),
             ("05/Mar/2024", 16, 5), ("05/Mar/2024", 20, 1), ("06/Mar/2024", 9, 2),
             ("06/Mar/2024", 14, 4), ("06/Mar/2024", 16, 1), ("06/Mar/2024", 22, 1)]
    ips = ["10.0.0.5", "10.0.0.7", "192.168.1.20", "10.0.0.9"]
    paths = ["/", "/index.html", "/about", "/api/items", "/static/app.css"]
    out, k = [], 0
    for day, h, n in slots:
        for j in range(n):
            out.append(f'{ips[k % 4]} - - '
                       f'[{day}:{h:02d}:{5 + j * 9:02d}:{(k * 13) % 60:02d} +0000] '
                       f'"GET {paths[k % 5]} HTTP/1.1" 200 {400 + k * 37}')
            k += 1
    return "\n".join(out) + "\n"


ACCESS_LOG = _access_log()

_HOUR_RES = [
    re.compile(r"(?<![\d:])(\d{1,2}):\d{2}(?::\d{2})?(?:\s*([ap])\.?m\b\.?)?", re.I),
    re.compile(r"(?<![\d:.])(\d{1,2})\s*(?:[-\u2013]|to)\s*\d{1,2}\s*([ap])\.?m\b", re.I),
    re.compile(r"(?<![\d:.])(\d{1,2})\s*([ap])\.?m\b", re.I),
    re.compile(r"(?<![\d:.])(\d{1,2})\s*(?:h\b|hrs?\b|o'clock)()", re.I),
    re.compile(r"\b(?:hour|at|from|between)\s+(\d{1,2})\b(?![:.]\d)(?!\s*(?:requests?|hits?|times|visits?|%))()",
               re.I),
]


def _hour_mentions(text: str) -> list[int]:
    text = re.sub(r"\d{4}-\d{2}-\d{2}", " ", text)
    found = {}
    for rx in _HOUR_RES:
        for m in rx.finditer(text):
            h = int(m.group(1))
            ap = (m.group(2) or "").lower() if m.lastindex and m.lastindex >= 2 else ""
            if ap == "p" and h < 12:
                h += 12
            elif ap == "a" and h == 12:
                h = 0
            if 0 <= h <= 23 and m.start() not in found:
                found[m.start()] = h
    return [found[k] for k in sorted(found)]


@_safe
def check_busiest_hour(folder, answer):
    hours = _hour_mentions(answer)
    if not hours:
        return "answer names no hour (expected 14:00)"
    if hours[0] != 14:
        return f"answer names {hours[0]}:00 first, expected 14:00"
    if len(set(hours) - {15}) > 2:
        return "answer lists several hours instead of one"
    return None


def solve_busiest_hour(folder):
    from collections import Counter
    c = Counter(int(m) for m in re.findall(r"\[\d{2}/\w{3}/\d{4}:(\d{2}):",
                                           _text(folder, "access.log")))
    h, n = c.most_common(1)[0]
    return f"The busiest hour is {h:02d}:00-{h + 1:02d}:00 with {n} requests."


def careless_busiest_hour(folder):  # busiest single day+hour slot
    from collections import Counter
    c = Counter(re.findall(r"\[(\d{2}/\w{3}/\d{4}:\d{2}):", _text(folder, "access.log")))
    slot, _n = c.most_common(1)[0]
    return f"{slot[-2:]}:00"


# ---------------------------------------------------------------------------
# task 24: extract unique emails, count them
# ---------------------------------------------------------------------------

MESSAGES = {
    "messages/msg1.txt": "From: Alice Green <alice@greenhouse.org>\nTo: bob@builders.net\n"
                         "Hi Bob, cc'ing carol@shop.co.uk.\n",
    "messages/msg2.txt": "Bob (bob@builders.net) said to loop in dave.lee@post.example.com "
                         "and alice@greenhouse.org.\n",
    "messages/msg3.txt": "Reply-To: support+tickets@helpdesk.io\nThanks! carol@shop.co.uk\n",
    "messages/msg4.txt": "No addresses in this one, just a note about the 3:30 meeting.\n",
}
_EMAILS = {"alice@greenhouse.org", "bob@builders.net", "carol@shop.co.uk",
           "dave.lee@post.example.com", "support+tickets@helpdesk.io"}


@_safe
def check_emails(folder, answer):
    text = _text(folder, "emails.txt")
    if text is None:
        return "emails.txt is missing"
    lines = [line.strip().lower() for line in text.splitlines() if line.strip()]
    if set(lines) != _EMAILS:
        miss = sorted(_EMAILS - set(lines))
        extra = sorted(set(lines) - _EMAILS)
        return f"emails.txt is wrong (missing {miss[:2]}, unexpected {extra[:2]})"
    if len(lines) != len(set(lines)):
        return "emails.txt has repeats"
    return _check_number(answer, 5, decoys=[8, 4, 7])


_EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def solve_emails(folder):
    seen = []
    for p in sorted((folder / "messages").glob("*.txt")):
        for e in _EMAIL_RE.findall(p.read_text()):
            if e not in seen:
                seen.append(e)
    (folder / "emails.txt").write_text("\n".join(seen) + "\n")
    return f"Found {len(seen)} unique addresses."


def careless_emails(folder):  # keeps repeats
    found = []
    for p in sorted((folder / "messages").glob("*.txt")):
        found += _EMAIL_RE.findall(p.read_text())
    (folder / "emails.txt").write_text("\n".join(found) + "\n")
    return f"Found {len(found)} addresses."


# ---------------------------------------------------------------------------
# task 25: .gitignore
# ---------------------------------------------------------------------------

GITPROJ = {
    "package.json": '{\n  "name": "site",\n  "scripts": {"build": "node build.js"}\n}\n',
    "build.js": "console.log('build');\n",
    ".env": "API_KEY=abc123\n",
    "dist/bundle.js": "/* built */\n",
}


@_safe
def check_gitignore(folder, answer):
    text = _text(folder, ".gitignore")
    if text is None:
        return ".gitignore is missing"
    pats = {line.strip() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#")}
    for name, ok in (("node_modules", {"node_modules", "node_modules/", "/node_modules",
                                       "/node_modules/", "**/node_modules", "**/node_modules/"}),
                     (".env", {".env", "/.env", "**/.env"}),
                     ("dist", {"dist", "dist/", "/dist", "/dist/", "**/dist", "**/dist/"})):
        if not pats & ok:
            return f".gitignore has no line ignoring {name}"
    return _same_files(folder, GITPROJ, GITPROJ)


def solve_gitignore(folder):
    (folder / ".gitignore").write_text("node_modules/\n.env\ndist/\n")
    return "Added .gitignore."


def careless_gitignore(folder):  # forgets .env
    (folder / ".gitignore").write_text("node_modules/\ndist/\n")
    return "Added .gitignore."


# ---------------------------------------------------------------------------
# task 26: node - total length of a playlist into total.txt
# ---------------------------------------------------------------------------

_TRACKS = [("Open Road", "3:45"), ("Dust", "4:12"), ("Mile 9", "2:58"), ("Coastline", "5:03"),
           ("Gas Station Coffee", "3:30"), ("Night Drive", "4:47"), ("Exit 12", "3:15"),
           ("Long Way Home", "6:01"), ("Static", "2:44"), ("Sunrise", "3:59"), ("Arrive", "4:20")]
PLAYLIST = json.dumps({"name": "Road trip",
                       "tracks": [{"title": t, "length": length} for t, length in _TRACKS]},
                      indent=2) + "\n"


@_safe
def check_playlist_total(folder, answer):
    text = _text(folder, "total.txt")
    if text is None:
        return "total.txt is missing"
    times = re.findall(r"(?<![\d:.])(?:\d{1,2}:)?\d{1,3}:\d{2}(?![\d:])", text)
    if not times:
        return f"total.txt has no minutes:seconds value: {text.strip()[:40]!r}"
    if len(set(times)) != 1:
        return "total.txt holds more than one time"
    parts = [int(x) for x in times[0].split(":")]
    secs = parts[-1] + 60 * parts[-2] + (3600 * parts[0] if len(parts) == 3 else 0)
    if secs != 44 * 60 + 34:
        return f"total is {times[0]}, expected 44:34"
    return None


def solve_playlist_total(folder):
    d = json.loads(_text(folder, "playlist.json"))
    s = sum(int(m) * 60 + int(x) for m, x in (t["length"].split(":") for t in d["tracks"]))
    (folder / "total.txt").write_text(f"{s // 60}:{s % 60:02d}\n")
    return f"Total length {s // 60}:{s % 60:02d}"


def careless_playlist_total(folder):  # treats 3:45 as 3.45
    d = json.loads(_text(folder, "playlist.json"))
    s = sum(float(t["length"].replace(":", ".")) for t in d["tracks"])
    (folder / "total.txt").write_text(f"{s:.2f}".replace(".", ":") + "\n")
    return "done"


# ---------------------------------------------------------------------------
# task 27: shift dates by a week
# ---------------------------------------------------------------------------

REMINDERS = """2024-02-26 dentist at 09:30
2024-02-27 pay rent
2024-03-01 call mum
2024-12-28 renew passport
2024-04-30 car service
"""
_REMINDERS_NEW = ["2024-03-04 dentist at 09:30", "2024-03-05 pay rent", "2024-03-08 call mum",
                  "2025-01-04 renew passport", "2024-05-07 car service"]


@_safe
def check_shift_week(folder, answer):
    text = _text(folder, "reminders.txt")
    if text is None:
        return "reminders.txt is missing"
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    if lines != _REMINDERS_NEW:
        bad = next((f"{a!r} (expected {b!r})"
                    for a, b in zip(lines, _REMINDERS_NEW, strict=False) if a != b),
                   f"{len(lines)} lines")
        return f"reminders.txt is wrong: {bad}"
    return None


def solve_shift_week(folder):
    p = folder / "reminders.txt"
    out = []
    for line in p.read_text().splitlines():
        d, rest = line.split(" ", 1)
        out.append(f"{_dt.date.fromisoformat(d) + _dt.timedelta(days=7)} {rest}")
    p.write_text("\n".join(out) + "\n")
    return "All dates moved a week later."


def careless_shift_week(folder):  # adds 7 to the day number
    p = folder / "reminders.txt"
    out = []
    for line in p.read_text().splitlines():
        y, m, rest = line[:4], line[5:7], line[10:]
        out.append(f"{y}-{m}-{int(line[8:10]) + 7:02d}{rest}")
    p.write_text("\n".join(out) + "\n")
    return "done"


# ---------------------------------------------------------------------------
# task 28: keep only the three newest backups
# ---------------------------------------------------------------------------

_BK = ["db-2024-01-05.sql.gz", "db-2024-02-11.sql.gz", "db-2023-12-30.sql.gz",
       "db-2024-03-02.sql.gz", "db-2024-02-28.sql.gz", "db-2023-11-15.sql.gz"]
BACKUPS = {f"backups/{n}": f"dump {n[3:13]}\n" for n in _BK}
BACKUPS["backups/README.txt"] = "Nightly database dumps.\n"


@_safe
def check_keep_three(folder, answer):
    want = {"db-2024-03-02.sql.gz", "db-2024-02-28.sql.gz", "db-2024-02-11.sql.gz", "README.txt"}
    have = set(_files_under(folder, "backups"))
    if have != want:
        return f"backups holds {sorted(have)}, expected the three newest plus README.txt"
    return _same_files(folder, BACKUPS, [f"backups/{n}" for n in want])


def solve_keep_three(folder):
    d = folder / "backups"
    bk = sorted(d.glob("db-*.sql.gz"), key=lambda p: p.name[3:13], reverse=True)
    for p in bk[3:]:
        p.unlink()
    return "Kept " + ", ".join(p.name for p in bk[:3])


def careless_keep_three(folder):  # keeps the first three listed (oldest)
    d = folder / "backups"
    bk = sorted(d.glob("db-*.sql.gz"))
    for p in bk[3:]:
        p.unlink()
    return "done"


# ---------------------------------------------------------------------------
# task 29: deep-merge JSON settings
# ---------------------------------------------------------------------------

DEFAULTS_JSON = {"theme": "light", "language": "en",
                 "editor": {"fontSize": 12, "tabSize": 4, "wordWrap": False},
                 "plugins": ["git", "lint"]}
OVERRIDES_JSON = {"theme": "dark", "editor": {"fontSize": 14}, "telemetry": False}
_MERGED = {"theme": "dark", "language": "en",
           "editor": {"fontSize": 14, "tabSize": 4, "wordWrap": False},
           "plugins": ["git", "lint"], "telemetry": False}


@_safe
def check_merge_json(folder, answer):
    text = _text(folder, "settings.json")
    if text is None:
        return "settings.json is missing"
    got = json.loads(text)
    if got != _MERGED:
        return f"settings.json is {json.dumps(got)[:120]}, not the merged settings"
    for n, want in (("defaults.json", DEFAULTS_JSON), ("overrides.json", OVERRIDES_JSON)):
        if json.loads(_text(folder, n) or "null") != want:
            return f"{n} was changed or removed"
    return None


def _deep(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = _deep(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def solve_merge_json(folder):
    a = json.loads(_text(folder, "defaults.json"))
    b = json.loads(_text(folder, "overrides.json"))
    (folder / "settings.json").write_text(json.dumps(_deep(a, b), indent=2) + "\n")
    return "Wrote settings.json."


def careless_merge_json(folder):  # shallow merge drops editor.tabSize
    a = json.loads(_text(folder, "defaults.json"))
    b = json.loads(_text(folder, "overrides.json"))
    (folder / "settings.json").write_text(json.dumps({**a, **b}, indent=2) + "\n")
    return "done"


# ---------------------------------------------------------------------------
# task 30: split a file into 100-line parts
# ---------------------------------------------------------------------------

_WORDS = ["apple", "river", "copper", "lantern", "meadow", "pixel", "harbor", "quartz"]
BIG_TXT = "".join(f"{i:03d} {_WORDS[i % 8]} {_WORDS[(i * 3) % 8]}\n" for i in range(1, 251))


@_safe
def check_split_parts(folder, answer):
    parts = []
    for i in (1, 2, 3):
        t = _text(folder, f"part{i}.txt")
        if t is None:
            return f"part{i}.txt is missing"
        parts.append(t)
    if (folder / "part4.txt").exists() or (folder / "part0.txt").exists():
        return "wrong number of parts"
    counts = [len(t.splitlines()) for t in parts]
    if counts != [100, 100, 50]:
        return f"parts have {counts} lines, expected [100, 100, 50]"
    joined = "".join(t if t.endswith("\n") else t + "\n" for t in parts)
    if joined != BIG_TXT:
        return "the parts put together are not the original big.txt"
    return None


def solve_split_parts(folder):
    lines = _text(folder, "big.txt").splitlines(keepends=True)
    for k in range(0, len(lines), 100):
        (folder / f"part{k // 100 + 1}.txt").write_text("".join(lines[k:k + 100]))
    return "Split into 3 parts."


def careless_split_parts(folder):  # split -l 100 naming
    lines = _text(folder, "big.txt").splitlines(keepends=True)
    for k in range(0, len(lines), 100):
        (folder / f"parta{'abc'[k // 100]}").write_text("".join(lines[k:k + 100]))
    return "done"


# ---------------------------------------------------------------------------
# task 31: last five ERROR lines + time of the last one
# ---------------------------------------------------------------------------

_APPLOG_LINES = [
    "2024-05-02 08:01:12 INFO service started",
    "2024-05-02 08:14:55 ERROR could not reach mail server",
    "2024-05-02 09:02:40 WARN disk 81% full",
    "2024-05-02 09:12:03 ERROR payment 1182 declined by gateway",
    "2024-05-02 10:30:18 ERROR template 'invoice' not found",
    "2024-05-02 11:45:00 INFO nightly report queued",
    "2024-05-02 12:05:31 ERROR user 77 session expired mid-request",
    "2024-05-02 13:20:47 ERROR payment 1190 declined by gateway",
    "2024-05-02 14:33:09 WARN slow response from /api/cart",
    "2024-05-02 15:02:26 ERROR could not reach mail server",
    "2024-05-02 16:10:58 ERROR disk write failed on /var/data",
    "2024-05-02 17:05:13 INFO cache warmed",
    "2024-05-02 17:42:10 ERROR worker crashed: out of memory",
    "2024-05-02 18:00:00 INFO shutting down",
]
APP_LOG = "\n".join(_APPLOG_LINES) + "\n"
_ERRS = [line for line in _APPLOG_LINES if " ERROR " in line]


def _time_mentions(text: str) -> list[str]:
    out = []
    for m in re.finditer(r"(?<![\d:])(\d{1,2}):(\d{2})(?::\d{2})?(?:\s*([ap])\.?m\b\.?)?",
                         text, re.I):
        h = int(m.group(1))
        ap = (m.group(3) or "").lower()
        if ap == "p" and h < 12:
            h += 12
        elif ap == "a" and h == 12:
            h = 0
        out.append(f"{h:02d}:{m.group(2)}")
    return out


@_safe
def check_last_errors(folder, answer):
    text = _text(folder, "recent_errors.txt")
    if text is None:
        return "recent_errors.txt is missing"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if lines != _ERRS[-5:]:
        return "recent_errors.txt does not hold exactly the last five ERROR lines in order"
    if _text(folder, "app.log") != APP_LOG:
        return "app.log was changed"
    times = _time_mentions(answer)
    if "17:42" not in times:
        return "answer does not give the time of the last error (17:42:10)"
    earlier = {line[11:16] for line in _ERRS[:-1]}
    if any(t in earlier for t in times[:times.index("17:42")]):
        return "answer gives an earlier error time first"
    if len(set(times)) > 3:
        return "answer lists several times instead of one"
    return None


def solve_last_errors(folder):
    errs = [line for line in _text(folder, "app.log").splitlines() if " ERROR " in line]
    (folder / "recent_errors.txt").write_text("\n".join(errs[-5:]) + "\n")
    return f"Saved. The last error happened at {errs[-1][11:19]} on {errs[-1][:10]}."


def careless_last_errors(folder):  # first five instead of last five
    errs = [line for line in _text(folder, "app.log").splitlines() if " ERROR " in line]
    (folder / "recent_errors.txt").write_text("\n".join(errs[:5]) + "\n")
    return f"The last error was at {errs[-1][11:19]}."


# ---------------------------------------------------------------------------
# task 32: totals per category, biggest first (+ which is biggest)
# ---------------------------------------------------------------------------

EXPENSES = """date,category,amount,note
2024-04-01,Groceries,64.20,weekly shop
2024-04-02,Transport,2.90,bus
2024-04-03,Eating out,38.50,pizza with Sam
2024-04-05,Utilities,120.00,electricity
2024-04-06,Hobbies,45.00,paint set
2024-04-08,Groceries,71.35,weekly shop
2024-04-09,Transport,45.00,monthly pass top-up
2024-04-12,Eating out,22.00,lunch
2024-04-13,Hobbies,89.99,climbing shoes
2024-04-15,Groceries,58.10,weekly shop
2024-04-18,Eating out,61.75,birthday dinner
2024-04-20,Utilities,35.00,internet
2024-04-22,Groceries,66.40,weekly shop
2024-04-25,Hobbies,12.50,climbing gym day pass
"""
_CAT_TOTALS = [("groceries", 260.05), ("utilities", 155.00), ("hobbies", 147.49),
               ("eating out", 122.25), ("transport", 47.90)]


def _money(s: str):
    s = s.strip().replace("$", "").replace(",", "").replace("\u20ac", "").replace("\u00a3", "")
    return float(s)


@_safe
def check_expense_totals(folder, answer):
    text = _text(folder, "totals.csv")
    if text is None:
        return "totals.csv is missing"
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    data = []
    for r in rows:
        if len(r) < 2:
            return f"row {r} has fewer than 2 columns"
        try:
            data.append((r[0].strip().lower(), _money(r[1])))
        except ValueError:
            if data:
                return f"row {r} has no numeric total"
    if [c for c, _ in data] != [c for c, _ in _CAT_TOTALS]:
        return (f"categories/order are {[c for c, _ in data]}, "
                f"expected biggest first {[c for c, _ in _CAT_TOTALS]}")
    for (c, v), (_, w) in zip(data, _CAT_TOTALS, strict=True):
        if not _close(v, w, 0.005):
            return f"total for {c} is {v}, expected {w}"
    if _text(folder, "expenses.csv") != EXPENSES:
        return "expenses.csv was changed"
    return _check_names(answer, "Groceries",
                        ["Groceries", "Utilities", "Hobbies", "Eating out", "Transport"])


def _cat_totals(folder):
    tot = {}
    for r in csv.DictReader(io.StringIO(_text(folder, "expenses.csv"))):
        tot[r["category"]] = round(tot.get(r["category"], 0) + float(r["amount"]), 2)
    return tot


def solve_expense_totals(folder):
    tot = _cat_totals(folder)
    items = sorted(tot.items(), key=lambda kv: -kv[1])
    with open(folder / "totals.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["category", "total"])
        w.writerows((k, f"{v:.2f}") for k, v in items)
    return f"{items[0][0]} cost the most: ${items[0][1]:.2f}."


def careless_expense_totals(folder):  # sorted by name
    tot = _cat_totals(folder)
    with open(folder / "totals.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["category", "total"])
        w.writerows((k, f"{v:.2f}") for k, v in sorted(tot.items()))
    return "Groceries"


# ---------------------------------------------------------------------------
# the task list
# ---------------------------------------------------------------------------

TASKS: list[dict] = [
    {"name": "photos-into-month-folders",
     "request": "Sort my photos into folders by month, like 2023-07, going by the date in the "
                "file names, and then tell me which month has the most photos.",
     "files": dict(PHOTO_FILES), "check": check_photos_by_month},
    {"name": "invoices-still-owed",
     "request": "How much do my clients still owe me, going by invoices.csv?",
     "files": {"invoices.csv": INVOICES}, "check": check_invoice_owed},
    {"name": "timeout-word-count",
     "request": "How many times does the word timeout come up in server.log?",
     "files": {"server.log": SERVER_LOG}, "check": check_timeout_count},
    {"name": "ini-server-port-debug",
     "request": "In settings.ini, change the server port to 9090 and switch debug off for the "
                "server.",
     "files": {"settings.ini": SETTINGS_INI}, "check": check_ini_server},
    {"name": "node-bump-patch-version",
     "request": "Using node, bump the patch version in package.json.",
     "files": {"package.json": json.dumps(PKG5, indent=2) + "\n",
               "index.js": "#!/usr/bin/env node\nconsole.log('hi');\n"},
     "check": check_bump_patch},
    {"name": "node-count-runtime-deps",
     "request": "Using node, tell me how many dependencies package.json has, not counting the "
                "dev ones.",
     "files": {"package.json": json.dumps(PKG6, indent=2) + "\n"}, "check": check_runtime_deps},
    {"name": "todo-comments-to-file",
     "request": "Go through the src folder and put every TODO comment into todo.txt, "
                "with the file and line number for each one.",
     "files": dict(TODO_FILES), "check": check_todo_list},
    {"name": "split-sales-by-region",
     "request": "Split sales.csv into a separate file for each region, keep the header row in each "
                "one, and tell me which region sold the most.",
     "files": {"sales.csv": SALES}, "check": check_split_sales},
    {"name": "merge-daily-notes-then-archive",
     "request": "Combine the daily notes in the notes folder into all-notes.md, oldest first, "
                "then move the daily files into notes/archive.",
     "files": dict(NOTES), "check": check_notes_merge},
    {"name": "downloads-lowercase-dashes",
     "request": "Rename everything in downloads to lowercase, with dashes instead of spaces.",
     "files": dict(DOWNLOADS), "check": check_kebab_names},
    {"name": "backup-log-day-span",
     "request": "How many days passed between the first and the last backup in backup.log?",
     "files": {"backup.log": BACKUP_LOG}, "check": check_backup_span},
    {"name": "tar-logs-then-delete",
     "request": "Pack all the .log files here into logs.tar.gz, then delete the originals.",
     "files": dict(LOGS12), "check": check_tar_logs},
    {"name": "zip-app-without-node-modules",
     "request": "Zip up the myapp folder into myapp.zip but leave out node_modules, and tell me "
                "how many files went in.",
     "files": dict(MYAPP), "check": check_zip_project},
    {"name": "release-sha256sums",
     "request": "Make a SHA256SUMS file in the release folder with checksums for everything in it, "
                "in the usual sha256sum format.",
     "files": dict(RELEASE), "check": check_sha256sums},
    {"name": "dedupe-scans-by-content",
     "request": "The scans folder has some duplicate files. Get rid of the extra copies so there's "
                "just one of each, and tell me how many you removed.",
     "files": dict(SCANS), "check": check_dedupe_scans},
    {"name": "system-memory-page-size",
     "request": "What's the memory page size on this machine?",
     "files": {}, "check": check_page_size},
    {"name": "system-max-filename-length",
     "request": "How long can a file name be in this folder, at most?",
     "files": {}, "check": check_name_max},
    {"name": "config-database-host",
     "request": "What host does the database connect to in config.yml?",
     "files": {"config.yml": CONFIG_YML}, "check": check_db_host},
    {"name": "contacts-json-to-csv",
     "request": "Turn contacts.json into contacts.csv with name, email and phone columns.",
     "files": {"contacts.json": json.dumps(CONTACTS, indent=2) + "\n"},
     "check": check_contacts_csv},
    {"name": "most-functions-python-file",
     "request": "Which Python file in the tools folder defines the most functions?",
     "files": dict(TOOLS), "check": check_most_functions},
    {"name": "biggest-file-under-assets",
     "request": "What's the biggest file anywhere under assets?",
     "files": dict(ASSETS), "check": check_biggest_asset},
    {"name": "count-pdfs-any-case",
     "request": "How many PDFs are in the docs folder, counting the subfolders too?",
     "files": dict(DOCS), "check": check_pdf_count},
    {"name": "access-log-busiest-hour",
     "request": "Going by access.log, what hour of the day gets the most traffic?",
     "files": {"access.log": ACCESS_LOG}, "check": check_busiest_hour},
    {"name": "unique-emails-from-messages",
     "request": "Pull all the email addresses out of the files in messages into emails.txt, "
                "one per line with no repeats, and tell me how many there are.",
     "files": dict(MESSAGES), "check": check_emails},
    {"name": "gitignore-env-dist",
     "request": "Add a .gitignore that keeps node_modules, the .env file and the dist folder "
                "out of git.",
     "files": dict(GITPROJ), "check": check_gitignore},
    {"name": "node-playlist-total-length",
     "request": "Using node, add up the track lengths in playlist.json and save the total as "
                "minutes:seconds in total.txt.",
     "files": {"playlist.json": PLAYLIST}, "check": check_playlist_total},
    {"name": "reminders-push-one-week",
     "request": "All the dates in reminders.txt are a week too early, push each one forward by "
                "seven days.",
     "files": {"reminders.txt": REMINDERS}, "check": check_shift_week},
    {"name": "keep-three-newest-backups",
     "request": "In the backups folder, delete all but the three newest backups, going by the date "
                "in the file name.",
     "files": dict(BACKUPS), "check": check_keep_three},
    {"name": "merge-defaults-overrides-json",
     "request": "Combine defaults.json and overrides.json into settings.json. Overrides win, "
                "but keep every default it doesn't mention.",
     "files": {"defaults.json": json.dumps(DEFAULTS_JSON, indent=2) + "\n",
               "overrides.json": json.dumps(OVERRIDES_JSON, indent=2) + "\n"},
     "check": check_merge_json},
    {"name": "split-into-100-line-parts",
     "request": "Cut big.txt into pieces of 100 lines each, called part1.txt, part2.txt and so on.",
     "files": {"big.txt": BIG_TXT}, "check": check_split_parts},
    {"name": "last-five-errors-and-time",
     "request": "Copy the last five ERROR lines from app.log into recent_errors.txt, then tell me "
                "what time the very last error happened.",
     "files": {"app.log": APP_LOG}, "check": check_last_errors},
    {"name": "expense-totals-biggest-first",
     "request": "Make a totals.csv with how much I spent in each category, biggest first, and "
                "tell me which category cost the most.",
     "files": {"expenses.csv": EXPENSES}, "check": check_expense_totals},
]

# ---------------------------------------------------------------------------
# self-test material (reference solutions, careless attempts, answer variants)
# ---------------------------------------------------------------------------

_SOLVE = {
    "photos-into-month-folders": solve_photos_by_month,
    "invoices-still-owed": solve_invoice_owed,
    "timeout-word-count": solve_timeout_count,
    "ini-server-port-debug": solve_ini_server,
    "node-bump-patch-version": solve_bump_patch,
    "node-count-runtime-deps": solve_runtime_deps,
    "todo-comments-to-file": solve_todo_list,
    "split-sales-by-region": solve_split_sales,
    "merge-daily-notes-then-archive": solve_notes_merge,
    "downloads-lowercase-dashes": solve_kebab_names,
    "backup-log-day-span": solve_backup_span,
    "tar-logs-then-delete": solve_tar_logs,
    "zip-app-without-node-modules": solve_zip_project,
    "release-sha256sums": solve_sha256sums,
    "dedupe-scans-by-content": solve_dedupe_scans,
    "system-memory-page-size": solve_page_size,
    "system-max-filename-length": solve_name_max,
    "config-database-host": solve_db_host,
    "contacts-json-to-csv": solve_contacts_csv,
    "most-functions-python-file": solve_most_functions,
    "biggest-file-under-assets": solve_biggest_asset,
    "count-pdfs-any-case": solve_pdf_count,
    "access-log-busiest-hour": solve_busiest_hour,
    "unique-emails-from-messages": solve_emails,
    "gitignore-env-dist": solve_gitignore,
    "node-playlist-total-length": solve_playlist_total,
    "reminders-push-one-week": solve_shift_week,
    "keep-three-newest-backups": solve_keep_three,
    "merge-defaults-overrides-json": solve_merge_json,
    "split-into-100-line-parts": solve_split_parts,
    "last-five-errors-and-time": solve_last_errors,
    "expense-totals-biggest-first": solve_expense_totals,
}

_CARELESS = {
    "photos-into-month-folders": careless_photos_by_month,
    "invoices-still-owed": careless_invoice_owed,
    "timeout-word-count": careless_timeout_count,
    "ini-server-port-debug": careless_ini_server,
    "node-bump-patch-version": careless_bump_patch,
    "node-count-runtime-deps": careless_runtime_deps,
    "todo-comments-to-file": careless_todo_list,
    "split-sales-by-region": careless_split_sales,
    "merge-daily-notes-then-archive": careless_notes_merge,
    "downloads-lowercase-dashes": careless_kebab_names,
    "backup-log-day-span": careless_backup_span,
    "tar-logs-then-delete": careless_tar_logs,
    "zip-app-without-node-modules": careless_zip_project,
    "release-sha256sums": careless_sha256sums,
    "dedupe-scans-by-content": careless_dedupe_scans,
    "system-max-filename-length": careless_name_max,
    "config-database-host": careless_db_host,
    "contacts-json-to-csv": careless_contacts_csv,
    "most-functions-python-file": careless_most_functions,
    "biggest-file-under-assets": careless_biggest_asset,
    "count-pdfs-any-case": careless_pdf_count,
    "access-log-busiest-hour": careless_busiest_hour,
    "unique-emails-from-messages": careless_emails,
    "gitignore-env-dist": careless_gitignore,
    "node-playlist-total-length": careless_playlist_total,
    "reminders-push-one-week": careless_shift_week,
    "keep-three-newest-backups": careless_keep_three,
    "merge-defaults-overrides-json": careless_merge_json,
    "split-into-100-line-parts": careless_split_parts,
    "last-five-errors-and-time": careless_last_errors,
    "expense-totals-biggest-first": careless_expense_totals,
}


def _alt_answers() -> dict:
    ps = os.sysconf("SC_PAGE_SIZE")
    alts = {
        "photos-into-month-folders": [
            ("January 2024 has the most, with 3 photos.", True), ("2024-01", True),
            ("Most photos: 2024/01 (three).", True), ("2023-07", False),
            ("2023-07, 2023-08, 2023-12, 2024-01, 2024-02", False)],
        "invoices-still-owed": [
            ("Your clients owe $2,602.50 in total.", True), ("2602.5", True),
            ("Outstanding: 2602.50 USD across four unpaid invoices "
             "(INV-102, INV-103, INV-105, INV-107).", True),
            ("Either 1722.50 or 2602.50", False), ("5,377.75", False), ("", False)],
        "timeout-word-count": [
            ("ten", True), ("It appears 10 times (on 7 lines).", True), ("Ten times.", True),
            ("7 lines, 10 times", False), ("1 2 3 4 5 6 7 8 9 10 11 12", False), ("11", False)],
        "node-count-runtime-deps": [
            ("six", True),
            ("There are 6 runtime dependencies: express ^4.18.2, pg ^8.11.3, dotenv ^16.3.1, "
             "zod ^3.22.4, pino ^8.16.0, helmet ^7.1.0", True),
            ("9", False), ("3 or 6 or 9", False)],
        "backup-log-day-span": [
            ("36 days", True), ("thirty-six", True),
            ("From 2024-01-28 to 2024-03-04: 36 days.", True),
            ("35, 36 or 37 days", False), ("37", False)],
        "zip-app-without-node-modules": [("Five files went in.", True), ("5", True), ("8", False)],
        "dedupe-scans-by-content": [("Removed two duplicates.", True), ("2", True), ("3", False)],
        "system-memory-page-size": [
            (f"{ps:,} bytes", True), (f"{ps}", True), ("", False), ("1234", False)]
        + ([("4 KB", True), ("4 KiB (4096 bytes)", True), ("8192", False)] if ps == 4096 else []),
        "system-max-filename-length": [("", False), ("4096", False)],
        "config-database-host": [
            ("pg-primary.internal.lan", True),
            ("It connects to pg-primary.internal.lan on port 5432.", True),
            ("redis.internal.lan or pg-primary.internal.lan", False),
            ("redis.internal.lan", False)],
        "most-functions-python-file": [
            ("resize.py defines the most (4).", True), ("resize", True),
            ("config_loader.py", False),
            ("resize.py, config_loader.py, cleanup.py, report.py", False)],
        "biggest-file-under-assets": [
            ("sprite.png", True), ("assets/img/icons/sprite.png, 15,000 bytes", True),
            ("styles.css, logo.svg, hero.png, sprite.png", False), ("styles.css", False)],
        "count-pdfs-any-case": [
            ("There are five PDFs.", True),
            ("5 PDF files (docs/2023/tax-return.pdf, docs/SCAN0001.PDF and 3 more)", True),
            ("3", False), ("6", False)],
        "access-log-busiest-hour": [
            ("14:00\u201315:00", True), ("2 PM", True),
            ("Between 14 and 15 o'clock, with 8 requests", True),
            ("The 2-3pm hour, 8 requests.", True), ("It peaks at 8 requests around 14:00.", True),
            ("16:00", False), ("9:00, 14:00, 16:00, 11:00", False)],
        "unique-emails-from-messages": [("five", True), ("There are 5.", True), ("8", False)],
        "last-five-errors-and-time": [
            ("The last error was at 17:42:10.", True), ("5:42 PM", True), ("09:12:03", False),
            ("16:10:58", False), ("", False)],
        "split-sales-by-region": [("North", True), ("North sold the most ($548).", True),
                                  ("South", False)],
        "expense-totals-biggest-first": [
            ("Groceries cost the most, at $260.05.", True), ("Eating out", False),
            ("Groceries, Utilities, Hobbies, Eating out, Transport", False)],
    }
    return alts


def _populate(folder: Path, files: dict) -> None:
    for rel, text in files.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def _selftest() -> int:
    names = [t["name"] for t in TASKS]
    failures = 0
    if len(names) != len(set(names)):
        print("FAIL names: task names are not unique")
        failures += 1
    alts = _alt_answers()
    careless_rejected = 0
    for t in TASKS:
        problems = []
        check = t["check"]
        with tempfile.TemporaryDirectory() as d:
            f = Path(d)
            _populate(f, t["files"])
            if check(f, "") is None:
                problems.append("passes on the untouched folder with an empty answer")
        with tempfile.TemporaryDirectory() as d:
            f = Path(d)
            _populate(f, t["files"])
            ans = _SOLVE[t["name"]](f)
            why = check(f, ans)
            if why is not None:
                problems.append(f"reference solution rejected: {why} (answer {ans!r})")
            for alt, want in alts.get(t["name"], []):
                got = check(f, alt) is None
                if got != want:
                    problems.append(f"answer {alt!r} was {'accepted' if got else 'rejected'}")
        if t["name"] in _CARELESS:
            with tempfile.TemporaryDirectory() as d:
                f = Path(d)
                _populate(f, t["files"])
                ans = _CARELESS[t["name"]](f)
                why = check(f, ans)
                if why is None:
                    problems.append(f"careless attempt accepted (answer {ans!r})")
                else:
                    careless_rejected += 1
        if problems:
            failures += 1
            print(f"FAIL {t['name']}: " + "; ".join(problems))
        else:
            print(f"ok {t['name']}")
    n = len(TASKS)
    print(f"summary: {n - failures}/{n} tasks ok, {careless_rejected}/{len(_CARELESS)} careless "
          f"attempts rejected, {failures} failure(s)")
    return 1 if failures or n < 24 else 0


if __name__ == "__main__":
    sys.exit(_selftest())
