# ruff: noqa  (kept as written by its author; see scripts/tasks.py)
"""Blind benchmark tasks for a desktop assistant.

Each task is a dict with:
    name     - short unique kebab-case id
    request  - what the user says, in plain words
    files    - relative path -> text content, created in a fresh folder
    check    - check(folder: pathlib.Path, answer: str) -> None if done, else a one-line reason

Standard library only.  Run this file to self-test every task:
    python3 tasks_blind.py
"""

from __future__ import annotations

import configparser
import csv
import io
import json
import os
import pathlib
import platform
import re
import shutil
import subprocess
import tarfile
import tempfile

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def _norm(answer: str) -> str:
    """Lower-case, drop thousands separators ("1,234" -> "1234")."""
    s = (answer or "").lower()
    s = re.sub(r"(?<=\d)[,\u00a0 _'](?=\d{3}(?!\d))", "", s)
    return s


def _numbers(answer: str) -> list[float]:
    out = []
    for m in re.finditer(r"-?\d+(?:\.\d+)?", _norm(answer)):
        try:
            out.append(float(m.group()))
        except ValueError:
            pass
    return out


def _has_number(answer: str, expected: float, tol: float = 1e-6) -> bool:
    return any(abs(n - expected) <= tol for n in _numbers(answer))


def _mentions(answer: str, word: str, plural: bool = False) -> bool:
    """Case-insensitive whole-token mention of `word` in the answer (optionally plural)."""
    pat = r"(?<![\w.-])" + re.escape(word.lower()) + (r"(?:e?s)?" if plural else "") + r"(?![\w-]|\.\w)"
    return re.search(pat, (answer or "").lower()) is not None


def _read(p: pathlib.Path) -> str | None:
    try:
        return p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _same_text(a: str | None, b: str) -> bool:
    """Equal up to trailing whitespace / final newline and CRLF."""
    if a is None:
        return False
    return a.replace("\r\n", "\n").rstrip() == b.replace("\r\n", "\n").rstrip()


def _lines(text: str | None) -> list[str]:
    if text is None:
        return []
    return [ln.strip() for ln in text.replace("\r\n", "\n").split("\n") if ln.strip()]


def _top_files(folder: pathlib.Path) -> set[str]:
    return {p.name for p in folder.iterdir() if p.is_file()}


# ---------------------------------------------------------------------------
# 1. csv-total
# ---------------------------------------------------------------------------

SALES_CSV = (
    "date,product,amount\n"
    "2024-03-01,widget,120.50\n"
    "2024-03-02,gadget,89.99\n"
    "2024-03-03,widget,300.00\n"
    "2024-03-04,doohickey,45.25\n"
    "2024-03-05,gadget,210.00\n"
    "2024-03-06,widget,99.01\n"
    "2024-03-07,gizmo,150.00\n"
    "2024-03-08,gizmo,220.00\n"
    "2024-03-09,widget,1000.00\n"
)
SALES_TOTAL = 2234.75


def check_csv_total(folder, answer):
    if not _has_number(answer, SALES_TOTAL, 0.005):
        return f"answer does not contain the total {SALES_TOTAL}"
    return None


# ---------------------------------------------------------------------------
# 2. count-errors
# ---------------------------------------------------------------------------

SERVER_LOG = """2024-05-01 09:00:01 INFO  server started on port 8000
2024-05-01 09:00:05 INFO  connected to database
2024-05-01 09:01:12 ERROR could not read file /var/data/a.bin
2024-05-01 09:02:30 WARN  slow response from cache (812 ms)
2024-05-01 09:03:44 INFO  user alice logged in
2024-05-01 09:04:10 ERROR payment gateway returned 502
2024-05-01 09:05:00 INFO  user bob logged in
2024-05-01 09:05:21 ERROR disk quota exceeded for /home/bob
2024-05-01 09:06:02 WARN  retrying request id=4411
2024-05-01 09:07:15 INFO  request id=4411 ok
2024-05-01 09:08:40 ERROR template not found: invoice.html
2024-05-01 09:09:03 INFO  cache warmed
2024-05-01 09:10:27 ERROR connection reset by peer
2024-05-01 09:11:00 INFO  user alice logged out
2024-05-01 09:12:13 WARN  certificate expires in 10 days
2024-05-01 09:13:55 INFO  backup finished
"""
SERVER_ERRORS = 5


def check_count_errors(folder, answer):
    if not _has_number(answer, SERVER_ERRORS):
        return f"answer does not contain the error count {SERVER_ERRORS}"
    return None


# ---------------------------------------------------------------------------
# 3. move-pdfs
# ---------------------------------------------------------------------------

MOVE_PDF_FILES = {
    "report.pdf": "%PDF-1.4 quarterly report\n",
    "invoice_march.pdf": "%PDF-1.4 invoice for march\n",
    "manual.pdf": "%PDF-1.4 washing machine manual\n",
    "notes.txt": "remember to file the invoice\n",
    "photo.jpg": "not really a jpeg\n",
}


def check_move_pdfs(folder, answer):
    dest = folder / "pdfs"
    if not dest.is_dir():
        return "folder pdfs/ was not created"
    for name, content in MOVE_PDF_FILES.items():
        if name.endswith(".pdf"):
            if not _same_text(_read(dest / name), content):
                return f"pdfs/{name} missing or changed"
            if (folder / name).exists():
                return f"{name} is still in the top folder (copied, not moved)"
        else:
            if not _same_text(_read(folder / name), content):
                return f"{name} should have stayed in the top folder unchanged"
            if (dest / name).exists():
                return f"{name} is not a PDF but was put into pdfs/"
    return None


# ---------------------------------------------------------------------------
# 4. rename-drafts
# ---------------------------------------------------------------------------

DRAFT_FILES = {
    "draft_intro.txt": "Intro text.\n",
    "draft_chapter1.txt": "Chapter one.\n",
    "draft_chapter2.txt": "Chapter two.\n",
    "notes_draft.txt": "These are notes, not a draft file.\n",
    "outline.txt": "1. intro\n2. chapters\n",
}


def check_rename_drafts(folder, answer):
    for name, content in DRAFT_FILES.items():
        if name.startswith("draft_"):
            new = "final_" + name[len("draft_"):]
            if not _same_text(_read(folder / new), content):
                return f"{new} missing or has wrong content"
            if (folder / name).exists():
                return f"{name} still exists"
        else:
            if not _same_text(_read(folder / name), content):
                return f"{name} should not have been renamed or changed"
    extra = [n for n in _top_files(folder) if "final_final" in n or n.startswith("final_notes")]
    if extra:
        return f"unexpected renamed file(s): {extra}"
    return None


# ---------------------------------------------------------------------------
# 5. csv-to-json
# ---------------------------------------------------------------------------

PEOPLE_CSV = (
    "name,age,city\n"
    "Alice,34,Lisbon\n"
    "Bruno,28,Porto\n"
    "Chen,45,Madrid\n"
    "Dana,39,Paris\n"
)


def _people_rows():
    return list(csv.DictReader(io.StringIO(PEOPLE_CSV)))


def check_csv_to_json(folder, answer):
    p = folder / "people.json"
    text = _read(p)
    if text is None:
        return "people.json was not created"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return f"people.json is not valid JSON: {e}"
    if not isinstance(data, list):
        return "people.json is not a list"
    want = _people_rows()
    if len(data) != len(want):
        return f"people.json has {len(data)} entries, expected {len(want)}"
    for got, exp in zip(data, want):
        if not isinstance(got, dict):
            return "people.json entries are not objects"
        g = {str(k).strip().lower(): str(v).strip() for k, v in got.items()}
        for k, v in exp.items():
            if g.get(k) != v:
                return f"entry for {exp['name']} has {k}={g.get(k)!r}, expected {v!r}"
    return None


# ---------------------------------------------------------------------------
# 6. json-lowest-stock
# ---------------------------------------------------------------------------

INVENTORY = [
    {"item": "notebook", "stock": 42},
    {"item": "pen", "stock": 130},
    {"item": "stapler", "stock": 3},
    {"item": "envelope", "stock": 57},
    {"item": "highlighter", "stock": 11},
    {"item": "folder", "stock": 24},
]


def check_lowest_stock(folder, answer):
    if not _mentions(answer, "stapler", plural=True):
        return "answer does not name the stapler"
    others = [i["item"] for i in INVENTORY
              if i["item"] != "stapler" and _mentions(answer, i["item"], plural=True)]
    if len(others) >= len(INVENTORY) - 1:
        return "answer just lists every item"
    return None


# ---------------------------------------------------------------------------
# 7. write-todo
# ---------------------------------------------------------------------------

TODO_ITEMS = ["buy milk", "call mom", "pay rent"]


def check_write_todo(folder, answer):
    text = _read(folder / "notes" / "todo.txt")
    if text is None:
        return "notes/todo.txt was not created"
    got = [re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s*", "", ln).rstrip(".").strip().lower()
           for ln in _lines(text)]
    if got != TODO_ITEMS:
        return f"notes/todo.txt lines are {got}, expected {TODO_ITEMS}"
    return None


# ---------------------------------------------------------------------------
# 8. node-sum
# ---------------------------------------------------------------------------

NUMBERS_JSON = json.dumps({"values": [17, 4, 256, 89, 1003, 42, 7, 311]}, indent=2) + "\n"
NUMBERS_SUM = 1729


def check_node_sum(folder, answer):
    script = folder / "sum.js"
    if not script.is_file():
        return "sum.js was not created"
    node = shutil.which("node")
    if node:
        try:
            r = subprocess.run([node, "sum.js"], cwd=folder, capture_output=True,
                               text=True, timeout=20)
        except subprocess.TimeoutExpired:
            return "node sum.js timed out"
        if r.returncode != 0:
            return f"node sum.js failed: {r.stderr.strip().splitlines()[-1:] }"
        if not _has_number(r.stdout, NUMBERS_SUM):
            return f"node sum.js printed {r.stdout.strip()[:80]!r}, not {NUMBERS_SUM}"
    if not _has_number(answer, NUMBERS_SUM):
        return f"answer does not contain the sum {NUMBERS_SUM}"
    return None


# ---------------------------------------------------------------------------
# 9. node-uppercase
# ---------------------------------------------------------------------------

GREETING = "Hello there,\nthanks for visiting our little shop.\nSee you soon!\n"


def check_node_upper(folder, answer):
    if not _same_text(_read(folder / "greeting.txt"), GREETING):
        return "greeting.txt was changed or removed"
    got = _read(folder / "greeting_upper.txt")
    if got is None:
        return "greeting_upper.txt was not created"
    if not _same_text(got, GREETING.upper()):
        return "greeting_upper.txt is not the capitalised text"
    return None


# ---------------------------------------------------------------------------
# 10. largest-file
# ---------------------------------------------------------------------------

LARGEST_FILES = {
    "readme.md": "# Project\n" + "Some words here.\n" * 15,
    "data.csv": "id,value\n" + "".join(f"{i},{i * 7}\n" for i in range(600)),
    "drawing.svg": "<svg>" + "<rect/>" * 150 + "</svg>\n",
    "script.py": "print('hi')\n" * 70,
}


def check_largest_file(folder, answer):
    if not _mentions(answer, "data.csv"):
        return "answer does not name data.csv as the largest file"
    if all(_mentions(answer, n) for n in LARGEST_FILES):
        return "answer lists every file without singling out the largest"
    return None


# ---------------------------------------------------------------------------
# 11. md-line-count
# ---------------------------------------------------------------------------

MD_FILES = {
    "intro.md": "".join(f"intro line {i}\n" for i in range(12)),
    "guide.md": "".join(f"guide line {i}\n" for i in range(7)),
    "faq.md": "".join(f"faq line {i}\n" for i in range(23)),
    "notes.txt": "".join(f"note {i}\n" for i in range(10)),
}
MD_TOTAL = 42


def check_md_lines(folder, answer):
    if not _has_number(answer, MD_TOTAL):
        return f"answer does not contain the total {MD_TOTAL}"
    return None


# ---------------------------------------------------------------------------
# 12. cpu-cores (system fact)
# ---------------------------------------------------------------------------


def check_cpu_cores(folder, answer):
    ok = {os.cpu_count() or 0}
    try:
        ok.add(len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        pass
    if not any(_has_number(answer, n) for n in ok if n):
        return f"answer does not contain the core count {sorted(ok)}"
    return None


# ---------------------------------------------------------------------------
# 13. kernel-version (system fact)
# ---------------------------------------------------------------------------


def check_kernel_version(folder, answer):
    rel = platform.release()
    a = (answer or "").lower()
    if rel.lower() in a:
        return None
    m = re.match(r"\d+\.\d+(?:\.\d+)?", rel)
    if m and re.search(r"(?<![\d.])" + re.escape(m.group()) + r"(?![\d])", a):
        return None
    return f"answer does not contain the kernel version {rel}"


# ---------------------------------------------------------------------------
# 14. backup-tar (multi-step)
# ---------------------------------------------------------------------------

BACKUP_FILES = {
    "notes1.txt": "first notes\n",
    "notes2.txt": "second notes\n",
    "todo.txt": "- water plants\n",
    "image.png": "fake png\n",
    "data.csv": "a,b\n1,2\n",
}
BACKUP_TXT = [n for n in BACKUP_FILES if n.endswith(".txt")]


def check_backup_tar(folder, answer):
    for n, c in BACKUP_FILES.items():
        if not _same_text(_read(folder / n), c):
            return f"original {n} is missing or changed (should be copied, not moved)"
    b = folder / "backup"
    if not b.is_dir():
        return "backup/ folder was not created"
    for n in BACKUP_TXT:
        if not _same_text(_read(b / n), BACKUP_FILES[n]):
            return f"backup/{n} missing or wrong"
    for n in BACKUP_FILES:
        if n not in BACKUP_TXT and (b / n).exists():
            return f"{n} is not a .txt file but was copied to backup/"
    arc = folder / "backup.tar.gz"
    if not arc.is_file():
        return "backup.tar.gz was not created"
    try:
        with tarfile.open(arc, "r:gz") as t:
            found = {}
            for m in t.getmembers():
                if m.isfile():
                    f = t.extractfile(m)
                    found[pathlib.PurePosixPath(m.name).name] = f.read().decode("utf-8", "replace")
    except (tarfile.TarError, OSError, EOFError) as e:
        return f"backup.tar.gz is not a valid gzipped tar: {e}"
    for n in BACKUP_TXT:
        if n not in found or not _same_text(found[n], BACKUP_FILES[n]):
            return f"backup.tar.gz does not contain {n} with the right content"
    return None


# ---------------------------------------------------------------------------
# 15. extract-timeouts (multi-step)
# ---------------------------------------------------------------------------

APP_LOG_LINES = [
    "10:00:01 GET /home 200 12ms",
    "10:00:03 GET /api/users 504 gateway timeout after 30s",
    "10:00:04 POST /login 200 40ms",
    "10:00:09 GET /api/orders timeout waiting for db",
    "10:00:10 GET /static/app.js 200 3ms",
    "10:00:12 GET /api/report 500 internal error",
    "10:00:15 GET /api/search upstream timeout (elastic)",
    "10:00:20 GET /home 200 10ms",
    "10:00:22 PUT /api/cart 200 55ms",
    "10:00:25 GET /api/orders timeout waiting for db",
    "10:00:31 DELETE /api/cart/7 204 8ms",
]
APP_LOG = "\n".join(APP_LOG_LINES) + "\n"
TIMEOUT_LINES = [ln for ln in APP_LOG_LINES if "timeout" in ln]


def check_extract_timeouts(folder, answer):
    text = _read(folder / "timeouts.txt")
    if text is None:
        return "timeouts.txt was not created"
    got = _lines(text)
    if got != [ln.strip() for ln in TIMEOUT_LINES]:
        return f"timeouts.txt has {len(got)} line(s), not the {len(TIMEOUT_LINES)} timeout lines"
    if not _has_number(answer, len(TIMEOUT_LINES)):
        return f"answer does not say there were {len(TIMEOUT_LINES)}"
    if not _same_text(_read(folder / "app.log"), APP_LOG):
        return "app.log was changed"
    return None


# ---------------------------------------------------------------------------
# 16. sort-by-type
# ---------------------------------------------------------------------------

SORT_FILES = {
    "beach.jpg": "jpg bytes\n",
    "logo.png": "png bytes\n",
    "cv.pdf": "pdf bytes\n",
    "letter.docx": "docx bytes\n",
    "song.mp3": "mp3 bytes\n",
    "todo.txt": "nothing\n",
}
SORT_DEST = {"beach.jpg": "images", "logo.png": "images",
             "cv.pdf": "documents", "letter.docx": "documents"}


def check_sort_by_type(folder, answer):
    for n, c in SORT_FILES.items():
        d = SORT_DEST.get(n)
        if d:
            if not _same_text(_read(folder / d / n), c):
                return f"{d}/{n} missing or changed"
            if (folder / n).exists():
                return f"{n} was left in the top folder"
        else:
            if not _same_text(_read(folder / n), c):
                return f"{n} should have been left where it was"
    return None


# ---------------------------------------------------------------------------
# 17. csv-filter-shipped
# ---------------------------------------------------------------------------

ORDERS_CSV = (
    "id,customer,status,total\n"
    "1001,Ana,shipped,25.00\n"
    "1002,Ben,pending,13.50\n"
    "1003,Cleo,shipped,99.90\n"
    "1004,Dev,cancelled,5.00\n"
    "1005,Eli,shipped,42.00\n"
    "1006,Fay,pending,18.75\n"
    "1007,Gus,shipped,7.25\n"
)


def check_csv_filter(folder, answer):
    if not _same_text(_read(folder / "orders.csv"), ORDERS_CSV):
        return "orders.csv was changed"
    text = _read(folder / "shipped.csv")
    if text is None:
        return "shipped.csv was not created"
    rows = [[c.strip() for c in r] for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if not rows or [h.lower() for h in rows[0]] != ["id", "customer", "status", "total"]:
        return "shipped.csv does not start with the original header"
    want = [r for r in csv.reader(io.StringIO(ORDERS_CSV))][1:]
    want = sorted(tuple(r) for r in want if r[2] == "shipped")
    got = sorted(tuple(r) for r in rows[1:])
    if got != want:
        return f"shipped.csv has {len(got)} data rows, expected exactly the {len(want)} shipped orders"
    return None


# ---------------------------------------------------------------------------
# 18. config-port
# ---------------------------------------------------------------------------

CONFIG_INI = """[server]
host = 127.0.0.1
port = 8080
workers = 4

[database]
host = db.local
port = 5432
name = shop
"""


def check_config_port(folder, answer):
    text = _read(folder / "config.ini")
    if text is None:
        return "config.ini is missing"
    cp = configparser.ConfigParser()
    try:
        cp.read_string(text)
    except configparser.Error as e:
        return f"config.ini no longer parses: {e}"
    want = {("server", "host"): "127.0.0.1", ("server", "port"): "9090",
            ("server", "workers"): "4", ("database", "host"): "db.local",
            ("database", "port"): "5432", ("database", "name"): "shop"}
    for (sec, key), val in want.items():
        got = cp.get(sec, key, fallback=None)
        if got is None or got.strip() != val:
            return f"[{sec}] {key} is {got!r}, expected {val!r}"
    return None


# ---------------------------------------------------------------------------
# 19. dedupe-emails
# ---------------------------------------------------------------------------

EMAILS = [
    "ana@example.com", "ben@example.org", "ana@example.com", "cleo@mail.net",
    "dev@example.com", "ben@example.org", "eli@work.io", "ana@example.com",
    "fay@mail.net", "cleo@mail.net",
]
EMAILS_TXT = "\n".join(EMAILS) + "\n"


def check_dedupe_emails(folder, answer):
    got = _lines(_read(folder / "emails.txt"))
    if not got:
        return "emails.txt is missing or empty"
    if len(got) != len(set(got)):
        return "emails.txt still has duplicate lines"
    if set(got) != set(EMAILS):
        return "emails.txt lost or gained addresses"
    return None


# ---------------------------------------------------------------------------
# 20. json-average-age
# ---------------------------------------------------------------------------

STAFF = [
    {"name": "Ana", "age": 28, "team": "sales"},
    {"name": "Ben", "age": 41, "team": "ops"},
    {"name": "Cleo", "age": 35, "team": "dev"},
    {"name": "Dev", "age": 30, "team": "dev"},
    {"name": "Eli", "age": 39, "team": "sales"},
]
STAFF_AVG = 34.6


def check_average_age(folder, answer):
    if not _has_number(answer, STAFF_AVG, 0.051):
        return f"answer does not contain the average age {STAFF_AVG}"
    return None


# ---------------------------------------------------------------------------
# 21. prefix-photos
# ---------------------------------------------------------------------------

PHOTO_FILES = {
    "photos/beach.jpg": "beach\n",
    "photos/mountain.jpg": "mountain\n",
    "photos/city_night.jpg": "city\n",
    "keep_me.txt": "not a photo\n",
}


def check_prefix_photos(folder, answer):
    for rel, c in PHOTO_FILES.items():
        p = pathlib.PurePosixPath(rel)
        if p.parent.name == "photos":
            new = folder / "photos" / ("2024_" + p.name)
            if not _same_text(_read(new), c):
                return f"photos/2024_{p.name} missing or changed"
            if (folder / rel).exists():
                return f"{rel} still exists under its old name"
        else:
            if not _same_text(_read(folder / rel), c):
                return f"{rel} outside photos/ should not change"
    names = sorted(x.name for x in (folder / "photos").iterdir())
    if any(n.startswith("2024_2024_") for n in names):
        return "some files got the prefix twice"
    return None


# ---------------------------------------------------------------------------
# 22. count-jpgs-recursive
# ---------------------------------------------------------------------------

JPG_FILES = {
    "cat.jpg": "x\n",
    "trips/lisbon.jpg": "x\n",
    "trips/porto.jpg": "x\n",
    "trips/2023/rome.jpg": "x\n",
    "trips/2023/paris.jpg": "x\n",
    "trips/2023/map.png": "x\n",
    "family/birthday.jpg": "x\n",
    "family/notes.txt": "x\n",
    "logo.png": "x\n",
}
JPG_COUNT = 6


def check_count_jpgs(folder, answer):
    if not _has_number(answer, JPG_COUNT):
        return f"answer does not contain the count {JPG_COUNT}"
    return None


# ---------------------------------------------------------------------------
# 23. which-mention-invoice
# ---------------------------------------------------------------------------

INVOICE_FILES = {
    "letter_bank.txt": "Dear customer,\nplease find the invoice attached.\n",
    "memo_team.txt": "Team lunch on Friday.\n",
    "receipt_shop.txt": "Thank you for shopping. Invoice no. 5521.\n",
    "diary.txt": "Went for a walk. Nice weather.\n",
    "shopping_list.txt": "eggs\nbread\ncoffee\n",
}
INVOICE_YES = ["letter_bank.txt", "receipt_shop.txt"]


def check_which_invoice(folder, answer):
    for n in INVOICE_YES:
        if not _mentions(answer, n) and not _mentions(answer, n[:-4]):
            return f"answer does not mention {n}"
    wrong = [n for n in INVOICE_FILES
             if n not in INVOICE_YES and (_mentions(answer, n) or _mentions(answer, n[:-4]))]
    # Naming the non-matching files is fine only when the answer says they don't match.
    negated = re.search(r"\b(not|don'?t|doesn'?t|no|none|other|others|rest|only)\b",
                        (answer or "").lower().replace("\u2019", "'"))
    if wrong and not negated:
        return f"answer wrongly includes {wrong[0]}"
    return None


# ---------------------------------------------------------------------------
# task list
# ---------------------------------------------------------------------------

TASKS: list[dict] = [
    {"name": "csv-total",
     "request": "What's the total of the amount column in sales.csv?",
     "files": {"sales.csv": SALES_CSV},
     "check": check_csv_total},
    {"name": "count-errors",
     "request": "How many errors are there in server.log?",
     "files": {"server.log": SERVER_LOG},
     "check": check_count_errors},
    {"name": "move-pdfs",
     "request": "Can you put all the PDFs into a new folder called pdfs?",
     "files": dict(MOVE_PDF_FILES),
     "check": check_move_pdfs},
    {"name": "rename-drafts",
     "request": "Rename all the files that start with draft_ so they start with final_ instead.",
     "files": dict(DRAFT_FILES),
     "check": check_rename_drafts},
    {"name": "csv-to-json",
     "request": "Turn people.csv into a JSON file called people.json, a list with one object per person.",
     "files": {"people.csv": PEOPLE_CSV},
     "check": check_csv_to_json},
    {"name": "json-lowest-stock",
     "request": "Looking at inventory.json, which item are we lowest on?",
     "files": {"inventory.json": json.dumps(INVENTORY, indent=2) + "\n"},
     "check": check_lowest_stock},
    {"name": "write-todo",
     "request": "Make me a file notes/todo.txt with three lines: buy milk, call mom, and pay rent.",
     "files": {},
     "check": check_write_todo},
    {"name": "node-sum",
     "request": "Using node, write a script called sum.js that adds up the numbers in numbers.json "
                "and prints the total, then tell me what it prints.",
     "files": {"numbers.json": NUMBERS_JSON},
     "check": check_node_sum},
    {"name": "node-uppercase",
     "request": "Using node, make a copy of greeting.txt called greeting_upper.txt with everything in capital letters.",
     "files": {"greeting.txt": GREETING},
     "check": check_node_upper},
    {"name": "largest-file",
     "request": "Which file in this folder is the biggest?",
     "files": dict(LARGEST_FILES),
     "check": check_largest_file},
    {"name": "md-line-count",
     "request": "How many lines are there in all the markdown files put together?",
     "files": dict(MD_FILES),
     "check": check_md_lines},
    {"name": "cpu-cores",
     "request": "How many CPU cores does this machine have?",
     "files": {},
     "check": check_cpu_cores},
    {"name": "kernel-version",
     "request": "Which Linux kernel version is this computer running?",
     "files": {},
     "check": check_kernel_version},
    {"name": "backup-tar",
     "request": "Make a folder called backup, copy all the .txt files into it, "
                "and then pack that folder up as backup.tar.gz.",
     "files": dict(BACKUP_FILES),
     "check": check_backup_tar},
    {"name": "extract-timeouts",
     "request": "Pull every line in app.log that mentions a timeout into timeouts.txt, "
                "and tell me how many there were.",
     "files": {"app.log": APP_LOG},
     "check": check_extract_timeouts},
    {"name": "sort-by-type",
     "request": "Tidy this folder up: pictures (jpg and png) go in a folder called images, "
                "documents (pdf and docx) go in one called documents. Leave everything else where it is.",
     "files": dict(SORT_FILES),
     "check": check_sort_by_type},
    {"name": "csv-filter-shipped",
     "request": "Make a new file shipped.csv with just the orders from orders.csv that have been shipped.",
     "files": {"orders.csv": ORDERS_CSV},
     "check": check_csv_filter},
    {"name": "config-port",
     "request": "In config.ini, change the server port from 8080 to 9090.",
     "files": {"config.ini": CONFIG_INI},
     "check": check_config_port},
    {"name": "dedupe-emails",
     "request": "emails.txt has some addresses in it more than once. Clean it up so each one only appears once.",
     "files": {"emails.txt": EMAILS_TXT},
     "check": check_dedupe_emails},
    {"name": "json-average-age",
     "request": "What's the average age of the people in staff.json?",
     "files": {"staff.json": json.dumps(STAFF, indent=2) + "\n"},
     "check": check_average_age},
    {"name": "prefix-photos",
     "request": "Add 2024_ to the front of every file name in the photos folder.",
     "files": dict(PHOTO_FILES),
     "check": check_prefix_photos},
    {"name": "count-jpgs-recursive",
     "request": "How many jpg photos are there in here, counting the subfolders too?",
     "files": dict(JPG_FILES),
     "check": check_count_jpgs},
    {"name": "which-mention-invoice",
     "request": "Which of these text files mention an invoice?",
     "files": dict(INVOICE_FILES),
     "check": check_which_invoice},
]


# ---------------------------------------------------------------------------
# self-test
# ---------------------------------------------------------------------------


def _make(folder: pathlib.Path, files: dict) -> None:
    for rel, content in files.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(content, encoding="utf-8")


def _move(folder, src, dst):
    d = folder / dst
    d.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(folder / src), str(d))


def _solve(name: str, f: pathlib.Path) -> str:
    """Do each job by hand, return the answer text a good assistant would give."""
    if name == "csv-total":
        with open(f / "sales.csv", newline="") as fh:
            t = sum(float(r["amount"]) for r in csv.DictReader(fh))
        return f"The total is {t:,.2f}."
    if name == "count-errors":
        n = sum("ERROR" in ln for ln in (f / "server.log").read_text().splitlines())
        return f"There are {n} errors in server.log."
    if name == "move-pdfs":
        (f / "pdfs").mkdir()
        for p in list(f.glob("*.pdf")):
            _move(f, p.name, "pdfs/" + p.name)
        return "Moved 3 PDFs into pdfs/."
    if name == "rename-drafts":
        for p in list(f.glob("draft_*")):
            p.rename(f / ("final_" + p.name[6:]))
        return "Done."
    if name == "csv-to-json":
        with open(f / "people.csv", newline="") as fh:
            rows = list(csv.DictReader(fh))
        for r in rows:
            r["age"] = int(r["age"])
        (f / "people.json").write_text(json.dumps(rows, indent=2))
        return "Wrote people.json"
    if name == "json-lowest-stock":
        inv = json.loads((f / "inventory.json").read_text())
        low = min(inv, key=lambda x: x["stock"])
        return f"You're lowest on {low['item'].capitalize()}s, only {low['stock']} left."
    if name == "write-todo":
        (f / "notes").mkdir()
        (f / "notes" / "todo.txt").write_text("buy milk\ncall mom\npay rent\n")
        return "Created notes/todo.txt"
    if name == "node-sum":
        (f / "sum.js").write_text(
            "const d = require('./numbers.json');\n"
            "console.log(d.values.reduce((a, b) => a + b, 0));\n")
        out = subprocess.run(["node", "sum.js"], cwd=f, capture_output=True, text=True).stdout
        return f"It prints {out.strip()}."
    if name == "node-uppercase":
        subprocess.run(["node", "-e",
                        "const fs=require('fs');fs.writeFileSync('greeting_upper.txt',"
                        "fs.readFileSync('greeting.txt','utf8').toUpperCase())"],
                       cwd=f, check=True)
        return "Done"
    if name == "largest-file":
        big = max((p for p in f.iterdir() if p.is_file()), key=lambda p: p.stat().st_size)
        return f"The biggest file is {big.name} ({big.stat().st_size:,} bytes)."
    if name == "md-line-count":
        n = sum(len(p.read_text().splitlines()) for p in f.glob("*.md"))
        return f"{n} lines in total."
    if name == "cpu-cores":
        return f"This machine has {os.cpu_count()} CPU cores."
    if name == "kernel-version":
        r = subprocess.run(["uname", "-r"], capture_output=True, text=True).stdout.strip()
        return f"Kernel {r}."
    if name == "backup-tar":
        (f / "backup").mkdir()
        for p in f.glob("*.txt"):
            shutil.copy(p, f / "backup" / p.name)
        with tarfile.open(f / "backup.tar.gz", "w:gz") as t:
            t.add(f / "backup", arcname="backup")
        return "Backed up 3 files."
    if name == "extract-timeouts":
        lines = [ln for ln in (f / "app.log").read_text().splitlines() if "timeout" in ln.lower()]
        (f / "timeouts.txt").write_text("\n".join(lines) + "\n")
        return f"Found {len(lines)} timeout lines."
    if name == "sort-by-type":
        for ext, d in ((".jpg", "images"), (".png", "images"), (".pdf", "documents"), (".docx", "documents")):
            for p in list(f.glob("*" + ext)):
                _move(f, p.name, f"{d}/{p.name}")
        return "Sorted."
    if name == "csv-filter-shipped":
        with open(f / "orders.csv", newline="") as fh:
            rows = list(csv.reader(fh))
        with open(f / "shipped.csv", "w", newline="") as fh:
            csv.writer(fh).writerows([rows[0]] + [r for r in rows[1:] if r[2] == "shipped"])
        return "Wrote shipped.csv with 4 orders."
    if name == "config-port":
        t = (f / "config.ini").read_text()
        (f / "config.ini").write_text(t.replace("port = 8080", "port = 9090"))
        return "Changed."
    if name == "dedupe-emails":
        seen = list(dict.fromkeys((f / "emails.txt").read_text().split()))
        (f / "emails.txt").write_text("\n".join(seen) + "\n")
        return f"{len(seen)} unique addresses left."
    if name == "json-average-age":
        s = json.loads((f / "staff.json").read_text())
        return f"The average age is {sum(p['age'] for p in s) / len(s):.1f} years."
    if name == "prefix-photos":
        for p in list((f / "photos").iterdir()):
            p.rename(p.with_name("2024_" + p.name))
        return "Renamed 3 files."
    if name == "count-jpgs-recursive":
        return f"There are {len(list(f.rglob('*.jpg')))} jpg photos."
    if name == "which-mention-invoice":
        hits = [p.name for p in sorted(f.glob("*.txt")) if "invoice" in p.read_text().lower()]
        return "These mention an invoice: " + ", ".join(hits)
    raise KeyError(name)


# Plausible wrong outcomes that must be caught: name -> (sabotage(folder) -> answer)
def _sab_copy_pdfs(f):
    (f / "pdfs").mkdir()
    for p in f.glob("*.pdf"):
        shutil.copy(p, f / "pdfs" / p.name)
    return "Done"


def _sab_backup_no_tar(f):
    (f / "backup").mkdir()
    for p in f.glob("*.txt"):
        shutil.move(str(p), str(f / "backup" / p.name))
    return "Done"


def _sab_filter_no_header(f):
    (f / "shipped.csv").write_text("1001,Ana,shipped,25.00\n1003,Cleo,shipped,99.90\n")
    return "Done"


def _sab_config_all_ports(f):
    t = (f / "config.ini").read_text()
    (f / "config.ini").write_text(re.sub(r"port = \d+", "port = 9090", t))
    return "Done"


def _sab_timeouts_case(f):
    (f / "timeouts.txt").write_text("\n".join(TIMEOUT_LINES[:2]) + "\n")
    return "There were 2."


SABOTAGE = {
    "move-pdfs": _sab_copy_pdfs,
    "backup-tar": _sab_backup_no_tar,
    "csv-filter-shipped": _sab_filter_no_header,
    "config-port": _sab_config_all_ports,
    "extract-timeouts": _sab_timeouts_case,
    "largest-file": lambda f: "Files: readme.md, data.csv, drawing.svg, script.py",
    "which-mention-invoice": lambda f: "letter_bank.txt, receipt_shop.txt and diary.txt",
    "csv-total": lambda f: "The total is 1234.75",
    "json-average-age": lambda f: "About 35.",
}


def _selftest() -> int:
    names = [t["name"] for t in TASKS]
    assert len(names) == len(set(names)), "duplicate task names"
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", n) for n in names), "names must be kebab-case"
    failures = 0
    for t in TASKS:
        problems = []
        with tempfile.TemporaryDirectory() as d:
            f = pathlib.Path(d)
            _make(f, t["files"])
            r = t["check"](f, "")
            if r is None:
                problems.append("check PASSES on untouched folder with empty answer")
        if t["name"] in SABOTAGE:
            with tempfile.TemporaryDirectory() as d:
                f = pathlib.Path(d)
                _make(f, t["files"])
                ans = SABOTAGE[t["name"]](f)
                if t["check"](f, ans) is None:
                    problems.append("check PASSES a wrong outcome")
        with tempfile.TemporaryDirectory() as d:
            f = pathlib.Path(d)
            _make(f, t["files"])
            try:
                ans = _solve(t["name"], f)
                r = t["check"](f, ans)
            except Exception as e:  # noqa: BLE001
                r = f"solver crashed: {e!r}"
            if r is not None:
                problems.append(f"check FAILS after doing the job: {r}")
        status = "ok  " if not problems else "FAIL"
        print(f"{status} {t['name']}" + ("" if not problems else ": " + "; ".join(problems)))
        failures += bool(problems)
    print(f"{len(TASKS)} tasks, {len(TASKS) - failures} passed self-test, {failures} failed")
    return failures


if __name__ == "__main__":
    raise SystemExit(1 if _selftest() else 0)
