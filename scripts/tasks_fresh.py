"""Blind benchmark tasks for a desktop assistant (set 2, 24 tasks).

Each task: {"name", "request", "files", "check"}; check(folder, answer) -> None on
success, else a one-line reason.  Standard library only.  Run this file directly for
a self-test: every check must fail on the untouched folder with an empty answer and
pass after the job is done by hand (see _SOLVERS at the bottom).
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import json
import os
import pathlib
import platform
import re
import tarfile

# --------------------------------------------------------------------------- helpers

_NUM_RE = re.compile(r"(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\d)")


def _numbers(text: str) -> list[float]:
    out = []
    for m in _NUM_RE.finditer(text or ""):
        try:
            out.append(float(m.group(0).replace(",", "")))
        except ValueError:
            pass
    return out


_WORD_NUMS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
              "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
              "seventeen", "eighteen", "nineteen", "twenty"]


def _has_number(text: str, value: float, tol: float = 1e-6) -> bool:
    if any(abs(v - value) <= tol for v in _numbers(text)):
        return True
    if value == int(value) and 0 <= value < len(_WORD_NUMS):
        return re.search(rf"\b{_WORD_NUMS[int(value)]}\b", (text or "").lower()) is not None
    return False


def _mentions(text: str, name: str) -> bool:
    return name.lower() in (text or "").lower()


def _read(path: pathlib.Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except (OSError, UnicodeError):
        return None


def _same_text(a: str | None, b: str) -> bool:
    return a is not None and a.replace("\r\n", "\n").rstrip() == b.replace("\r\n", "\n").rstrip()


def _csv_rows(text: str, delimiter: str = ",") -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(text.replace("\r\n", "\n")), delimiter=delimiter))
    return [[c.strip() for c in r] for r in rows if any(c.strip() for c in r)]


def _all_files(folder: pathlib.Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


# =========================================================================== tasks

# 1 ------------------------------------------------------------ sort pictures
_PICS_FILES = {
    "beach.jpg": "JPEGDATA beach\n",
    "cat.png": "PNGDATA cat\n",
    "sunset.jpeg": "JPEGDATA sunset\n",
    "IMG_0042.JPG": "JPEGDATA camera shot\n",
    "party.gif": "GIFDATA party\n",
    "notes.txt": "remember to back up the photos\n",
    "song.mp3": "ID3 fake audio\n",
    "budget.xlsx": "PK fake spreadsheet\n",
}
_PICS = ["beach.jpg", "cat.png", "sunset.jpeg", "IMG_0042.JPG", "party.gif"]


def check_sort_pictures(folder: pathlib.Path, answer: str):
    dest = folder / "pictures"
    if not dest.is_dir():
        return "no 'pictures' folder"
    for name in _PICS:
        if not _same_text(_read(dest / name), _PICS_FILES[name]):
            return f"pictures/{name} missing or changed"
        if (folder / name).exists():
            return f"{name} still in the top folder (should be moved)"
    for name in _PICS_FILES:
        if name not in _PICS:
            if not _same_text(_read(folder / name), _PICS_FILES[name]):
                return f"non-picture {name} missing from the top folder"
            if (dest / name).exists():
                return f"non-picture {name} was put into pictures"
    return None


# 2 ------------------------------------------------------------ spaces -> underscores
_SPACES_FILES = {
    "meeting notes.txt": "agenda: budget, hiring\n",
    "budget 2024 final.csv": "item,cost\nrent,1200\n",
    "holiday plan.md": "# Holiday\n- Lisbon\n",
    "already_fine.txt": "nothing to do here\n",
}


def check_spaces_to_underscores(folder: pathlib.Path, answer: str):
    for old, content in _SPACES_FILES.items():
        new = old.replace(" ", "_")
        if not _same_text(_read(folder / new), content):
            return f"{new!r} missing or content changed"
        if new != old and (folder / old).exists():
            return f"old name {old!r} still exists"
    extra = [n for n in _all_files(folder) if " " in n]
    if extra:
        return f"files with spaces remain: {extra}"
    return None


# 3 ------------------------------------------------------------ reports into year folders (multi-step)
_YEAR_FILES = {
    "sales_2022_q1.txt": "Q1 2022 sales: 14,200\n",
    "sales_2022_q3.txt": "Q3 2022 sales: 17,900\n",
    "sales_2023_q2.txt": "Q2 2023 sales: 19,050\n",
    "summary_2024.txt": "2024 summary: flat growth\n",
    "readme.txt": "Quarterly reports. Do not edit.\n",
}
_YEAR_OF = {"sales_2022_q1.txt": "2022", "sales_2022_q3.txt": "2022",
            "sales_2023_q2.txt": "2023", "summary_2024.txt": "2024"}


def check_reports_by_year(folder: pathlib.Path, answer: str):
    for name, year in _YEAR_OF.items():
        if (folder / name).exists():
            return f"{name} still in the top folder"
        homes = [p for p in folder.glob(f"*/{name}") if year in p.parent.name]
        if not homes:
            return f"{name} not found in a '{year}' folder"
        if not _same_text(_read(homes[0]), _YEAR_FILES[name]):
            return f"{name} content changed"
    for year in set(_YEAR_OF.values()):
        dirs = [d for d in folder.iterdir() if d.is_dir() and year in d.name]
        if len(dirs) != 1:
            return f"expected exactly one folder for {year}, found {len(dirs)}"
    if not _same_text(_read(folder / "readme.txt"), _YEAR_FILES["readme.txt"]):
        return "readme.txt should stay in the top folder untouched"
    return None


# 4 ------------------------------------------------------------ nested: collect logs
_NESTED_FILES = {
    "projects/alpha/build.log": "build ok in 42s\n",
    "projects/alpha/src/main.py": "print('alpha')\n",
    "projects/beta/logs/test.log": "12 passed, 1 failed\n",
    "projects/beta/deploy.log": "deployed to staging\n",
    "projects/gamma/notes.txt": "gamma is paused\n",
    "projects/gamma/deep/inner/crash.log": "segfault at 0x0\n",
}
_NESTED_LOGS = [k for k in _NESTED_FILES if k.endswith(".log")]


def check_collect_logs(folder: pathlib.Path, answer: str):
    dest = folder / "all_logs"
    if not dest.is_dir():
        return "no all_logs folder"
    for rel in _NESTED_LOGS:
        base = rel.rsplit("/", 1)[1]
        if not _same_text(_read(dest / base), _NESTED_FILES[rel]):
            return f"all_logs/{base} missing or changed"
        if (folder / rel).exists():
            return f"{rel} still in place (should be moved)"
    if any(p.is_dir() for p in dest.iterdir()):
        return "all_logs contains subfolders"
    left = [p for p in (folder / "projects").rglob("*.log")] if (folder / "projects").exists() else []
    if left:
        return f"log files left under projects: {left[0].name}"
    for rel, content in _NESTED_FILES.items():
        if not rel.endswith(".log") and not _same_text(_read(folder / rel), content):
            return f"non-log file {rel} was moved or changed"
    return None


# 5 ------------------------------------------------------------ count ERROR lines
_LOG_PATTERN = "IIWIEIIIWEIIIIEWIIEIIIWIEIIEIIW"
_LOG_MSG = {"I": ("INFO", "request served in {n}ms"),
            "W": ("WARN", "disk usage at {n}%"),
            "E": ("ERROR", "database timeout after {n}s")}
_SERVER_LOG = "".join(
    f"2024-03-{(i % 28) + 1:02d} 10:{i:02d}:00 {_LOG_MSG[c][0]} {_LOG_MSG[c][1].format(n=(i * 7) % 90 + 5)}\n"
    for i, c in enumerate(_LOG_PATTERN))
_ERROR_COUNT = sum(1 for line in _SERVER_LOG.splitlines() if "ERROR" in line)


def check_count_errors(folder: pathlib.Path, answer: str):
    if not _has_number(answer, _ERROR_COUNT):
        return f"answer does not give {_ERROR_COUNT}"
    return None


# 6 ------------------------------------------------------------ notes mentioning invoice
_INVOICE_FILES = {
    "notes/landlord.txt": "Ask the landlord for the Invoice for the boiler repair.\n",
    "notes/freelance_gig.txt": "Sent INVOICE #2231 to the client, due in 30 days.\n",
    "notes/meeting_0312.txt": "Action items:\n- chase unpaid invoices\n- book room\n",
    "notes/groceries.txt": "eggs\nbread\ncoffee\n",
    "notes/gym_plan.txt": "Mon legs, Wed back, Fri cardio\n",
    "notes/birthday_ideas.txt": "Mum: scarf. Dad: book about trains.\n",
}
_INVOICE_YES = ["landlord", "freelance_gig", "meeting_0312"]
_INVOICE_NO = ["groceries", "gym_plan", "birthday_ideas"]


def check_invoice_notes(folder: pathlib.Path, answer: str):
    for stem in _INVOICE_YES:
        if not _mentions(answer, stem):
            return f"answer misses {stem}.txt"
    for stem in _INVOICE_NO:
        if _mentions(answer, stem):
            return f"answer wrongly includes {stem}.txt"
    return None


# 7 ------------------------------------------------------------ replace across files
_REPLACE_FILES = {
    "docs/intro.md": "# Welcome to Acme Corp\n\nAcme Corp builds rockets.\nContact Acme Corp sales.\n",
    "docs/pricing.md": "## Pricing\n\nAll Acme Corp plans include support.\n",
    "docs/faq.md": "## FAQ\n\nQ: Is there a free tier?\nA: Yes.\n",
    "docs/legal.txt": "Copyright Acme Corp. Historic document, do not edit.\n",
    "README.md": "Top-level readme for Acme Corp (leave alone).\n",
}


def check_replace_name(folder: pathlib.Path, answer: str):
    for rel, content in _REPLACE_FILES.items():
        if rel.startswith("docs/") and rel.endswith(".md"):
            want = content.replace("Acme Corp", "Globex Inc")
        else:
            want = content
        got = _read(folder / rel)
        if got is None:
            return f"{rel} is missing"
        if not _same_text(got, want):
            if rel.endswith(".md") and rel.startswith("docs/"):
                return f"{rel} not correctly updated"
            return f"{rel} should not have been changed"
    return None


# 8 ------------------------------------------------------------ csv -> json
_CONTACTS_CSV = (
    "name,email,phone\n"
    "Maria Lopez,maria@example.com,555-0101\n"
    "\"Smith, John\",john.smith@example.com,555-0102\n"
    "Aiko Tanaka,aiko@example.org,555-0103\n"
    "Omar Haddad,omar.h@example.net,555-0104\n"
)


def check_csv_to_json(folder: pathlib.Path, answer: str):
    p = folder / "contacts.json"
    if not p.exists():
        return "contacts.json not created"
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (ValueError, OSError) as e:
        return f"contacts.json is not valid JSON: {e}"
    rows = _csv_rows(_CONTACTS_CSV)
    header, want = rows[0], rows[1:]
    if not isinstance(data, list) or len(data) != len(want):
        return f"expected a list of {len(want)} objects"
    for obj, row in zip(data, want):
        if not isinstance(obj, dict) or set(obj) != set(header):
            return f"object has wrong keys: {obj!r:.80}"
        for k, v in zip(header, row):
            if str(obj[k]).strip() != v:
                return f"{k} is {obj[k]!r}, expected {v!r}"
    return None


# 9 ------------------------------------------------------------ tsv -> markdown
_SCORES_TSV = (
    "player\tround1\tround2\ttotal\n"
    "Ana\t12\t15\t27\n"
    "Ben\t9\t14\t23\n"
    "Chloe\t17\t11\t28\n"
)


def check_tsv_markdown(folder: pathlib.Path, answer: str):
    text = _read(folder / "scores.md")
    if text is None:
        return "scores.md not created"
    lines = [ln.strip() for ln in text.splitlines() if "|" in ln]
    rows = []
    for ln in lines:
        if ln.startswith("|"):
            ln = ln[1:]
        if ln.endswith("|"):
            ln = ln[:-1]
        rows.append([c.strip() for c in ln.split("|")])
    want = [r.split("\t") for r in _SCORES_TSV.strip().split("\n")]
    if len(rows) != len(want) + 1:
        return f"expected {len(want) + 1} table lines (incl. separator), got {len(rows)}"
    if [c.lower() for c in rows[0]] != [c.lower() for c in want[0]]:
        return f"header row wrong: {rows[0]}"
    if len(rows[1]) != len(want[0]) or not all(re.fullmatch(r":?-{3,}:?", c) for c in rows[1]):
        return "second line is not a markdown separator row"
    for got, exp in zip(rows[2:], want[1:]):
        if got != exp:
            return f"row {got} should be {exp}"
    return None


# 10 ----------------------------------------------------------- write a todo file
_TODO_ITEMS = ["buy milk", "call the dentist", "renew passport"]


def check_todo(folder: pathlib.Path, answer: str):
    text = _read(folder / "todo.txt")
    if text is None:
        return "todo.txt not created"
    items = []
    for ln in text.splitlines():
        ln = re.sub(r"^\s*(?:[-*•]\s*|\d+[.)]\s*|\[[ xX]?\]\s*)*", "", ln).strip().rstrip(".").strip()
        if ln:
            items.append(ln.lower())
    if items != _TODO_ITEMS:
        return f"todo items are {items}, expected {_TODO_ITEMS}"
    return None


# 11 ----------------------------------------------------------- node: package.json facts
_PACKAGE_JSON = json.dumps({
    "name": "weather-widget",
    "version": "2.4.1",
    "description": "Tiny weather widget",
    "main": "index.js",
    "scripts": {"start": "node index.js", "test": "jest"},
    "dependencies": {"axios": "^1.6.0", "dayjs": "^1.11.10", "lodash": "^4.17.21",
                     "chalk": "^5.3.0", "express": "^4.18.2"},
    "devDependencies": {"jest": "^29.7.0", "eslint": "^8.56.0"},
}, indent=2) + "\n"


def check_node_package(folder: pathlib.Path, answer: str):
    if "2.4.1" not in (answer or ""):
        return "answer lacks version 2.4.1"
    if not _has_number(answer, 5):
        return "answer lacks the dependency count 5"
    return None


# 12 ----------------------------------------------------------- node: write config.json
def check_node_config(folder: pathlib.Path, answer: str):
    p = folder / "config.json"
    if not p.exists():
        return "config.json not created"
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (ValueError, OSError) as e:
        return f"config.json is not valid JSON: {e}"
    if not isinstance(data, dict):
        return "config.json is not an object"
    low = {str(k).lower(): v for k, v in data.items()}
    if str(low.get("port")) != "8080":
        return f"port is {low.get('port')!r}"
    if str(low.get("host", "")).lower() != "localhost":
        return f"host is {low.get('host')!r}"
    if low.get("debug") not in (True, "true"):
        return f"debug is {low.get('debug')!r}"
    return None


# 13 ----------------------------------------------------------- biggest file
_BIG_FILES = {
    "holiday.mov": "M" * 9100 + "\n",
    "song.mp3": "S" * 7400 + "\n",
    "thesis.pdf": "P" * 6100 + "\n",
    "notes.txt": "short note\n",
    "todo.md": "- nothing\n",
}


def check_biggest(folder: pathlib.Path, answer: str):
    if not _mentions(answer, "holiday"):
        return "answer does not name holiday.mov"
    others = [n for n in _BIG_FILES if n != "holiday.mov" and _mentions(answer, n.split(".")[0])]
    if len(others) > 1:
        return f"answer names several other files too: {others}"
    return None


# 14 ----------------------------------------------------------- total lines in .py files
_PY_FILES = {
    "app.py": "import utils\n\n\ndef main():\n    print(utils.greet('world'))\n\n\nif __name__ == '__main__':\n    main()\n",
    "utils.py": "def greet(name):\n    return f'hello {name}'\n\n\ndef shout(s):\n    return s.upper()\n",
    "tests/test_utils.py": "from utils import greet, shout\n\n\ndef test_greet():\n    assert greet('a') == 'hello a'\n\n\ndef test_shout():\n    assert shout('a') == 'A'\n",
    "notes.txt": "not python\nline two\nline three\n",
    "README.md": "# demo\n",
}
_PY_LINES = sum(c.count("\n") for k, c in _PY_FILES.items() if k.endswith(".py"))


def check_py_lines(folder: pathlib.Path, answer: str):
    if not _has_number(answer, _PY_LINES):
        return f"answer does not give the total {_PY_LINES}"
    return None


# 15 ----------------------------------------------------------- cpu cores (system)
def check_cpu_cores(folder: pathlib.Path, answer: str):
    cands = {os.cpu_count() or 0}
    try:
        cands.add(len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        pass
    if not any(_has_number(answer, c) for c in cands if c):
        return f"answer does not give the core count {sorted(cands)}"
    return None


# 16 ----------------------------------------------------------- kernel version (system)
def check_kernel(folder: pathlib.Path, answer: str):
    rel = platform.release()
    m = re.match(r"\d+\.\d+(?:\.\d+)?", rel)
    short = m.group(0) if m else rel
    if rel.lower() in (answer or "").lower() or re.search(
            r"(?<![\d.])" + re.escape(short) + r"(?![\d])", answer or ""):
        return None
    return f"answer does not contain kernel release {rel}"


# 17 ----------------------------------------------------------- dated backup copy
_THESIS = "Chapter 1\nIntroduction to the migration patterns of swallows.\n"


def _date_strings() -> set[str]:
    days = {_dt.date.today(), _dt.date.today() - _dt.timedelta(days=1),
            _dt.datetime.now(_dt.timezone.utc).date()}
    out = set()
    for d in days:
        out |= {d.strftime("%Y-%m-%d"), d.strftime("%Y%m%d"), d.strftime("%Y_%m_%d"),
                d.strftime("%d-%m-%Y"), d.strftime("%Y.%m.%d")}
    return out


def check_dated_copy(folder: pathlib.Path, answer: str):
    if not _same_text(_read(folder / "thesis.txt"), _THESIS):
        return "original thesis.txt missing or changed"
    dates = _date_strings()
    for rel in _all_files(folder):
        name = rel.rsplit("/", 1)[-1]
        if rel != "thesis.txt" and any(d in name for d in dates):
            if _same_text(_read(folder / rel), _THESIS):
                return None
            return f"{rel} has the date but not the same content"
    return "no copy with today's date in its name"


# 18 ----------------------------------------------------------- word count
_ESSAY = (
    "The river wakes before the town does. Mist lifts from the water in slow pale sheets,\n"
    "and the herons stand like grey statues along the bank. By the time the first bus\n"
    "rattles over the bridge, the fishermen have already packed their lines and gone home.\n"
    "\n"
    "Most people never see this hour. They hurry past on their way to work, eyes on\n"
    "their phones, and the river keeps its quiet secrets to itself. Yet if you stop\n"
    "for a moment and listen, you can hear it: the soft rush of current against stone,\n"
    "the call of a distant bird, the steady breathing of a place that was here long\n"
    "before any of us arrived and will remain long after we are gone.\n"
)
_ESSAY_WORDS = len(_ESSAY.split())


def check_word_count(folder: pathlib.Path, answer: str):
    if not _has_number(answer, _ESSAY_WORDS):
        return f"answer does not give {_ESSAY_WORDS} words"
    return None


# 19 ----------------------------------------------------------- extract a column (implied file)
_EXPORT_CSV = (
    "id,full_name,email,signup_date,plan\n"
    "101,Grace Hopper,grace@navy.example,2024-01-04,pro\n"
    "102,Alan Turing,alan.t@bletchley.example,2024-01-09,free\n"
    "103,Ada Lovelace,ada@engine.example,2024-02-11,pro\n"
    "104,Linus Pauling,linus.p@chem.example,2024-02-20,free\n"
    "105,Hedy Lamarr,hedy@radio.example,2024-03-02,team\n"
)
_EXPORT_FILES = {
    "users_export_2024-05.csv": _EXPORT_CSV,
    "readme.txt": "Export generated by the CRM on request.\n",
    "logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'></svg>\n",
}
_EMAILS = [r[2] for r in _csv_rows(_EXPORT_CSV)[1:]]


def check_extract_emails(folder: pathlib.Path, answer: str):
    text = _read(folder / "emails.txt")
    if text is None:
        return "emails.txt not created"
    got = [ln.strip().strip("\"'").strip() for ln in text.splitlines() if ln.strip()]
    if got and got[0].lower() == "email":
        return "emails.txt includes the header 'email'"
    if sorted(got) != sorted(_EMAILS):
        return f"emails.txt has {got}, expected {_EMAILS}"
    return None


# 20 ----------------------------------------------------------- merge two csv files
_JAN_CSV = "date,item,amount\n2024-01-03,coffee,3.50\n2024-01-15,train,12.00\n2024-01-28,book,18.99\n"
_FEB_CSV = "date,item,amount\n2024-02-02,coffee,3.50\n2024-02-14,flowers,25.00\n"


def check_merge_csv(folder: pathlib.Path, answer: str):
    text = _read(folder / "both_months.csv")
    if text is None:
        return "both_months.csv not created"
    rows = _csv_rows(text)
    header = _csv_rows(_JAN_CSV)[0]
    want = _csv_rows(_JAN_CSV)[1:] + _csv_rows(_FEB_CSV)[1:]
    if not rows or rows[0] != header:
        return "first row is not the header"
    if sum(1 for r in rows if r == header) != 1:
        return "header appears more than once"
    if sorted(rows[1:]) != sorted(want):
        return f"data rows differ: got {len(rows) - 1}, expected {len(want)}"
    return None


# 21 ----------------------------------------------------------- remove duplicate files
_DUP_FILES = {
    "report.pdf": "%PDF quarterly report v3 final\n",
    "report (1).pdf": "%PDF quarterly report v3 final\n",
    "scan_0001.png": "PNG receipt scan 0001\n",
    "scan_copy.png": "PNG receipt scan 0001\n",
    "Copy of scan_0001.png": "PNG receipt scan 0001\n",
    "summary.pdf": "%PDF quarterly report v3 finaL\n",   # same size, different content
    "invoice_march.pdf": "%PDF invoice march\n",
    "notes.txt": "call the accountant\n",
}


def check_dedupe(folder: pathlib.Path, answer: str):
    groups: dict[str, list[str]] = {}
    for name, content in _DUP_FILES.items():
        groups.setdefault(content, []).append(name)
    present = _all_files(folder)
    for content, names in groups.items():
        left = [n for n in names if n in present]
        if len(names) == 1:
            if not left or not _same_text(_read(folder / names[0]), content):
                return f"unique file {names[0]} was deleted or changed"
        else:
            if len(left) != 1:
                return f"expected exactly one of {names} to remain, found {left}"
            if not _same_text(_read(folder / left[0]), content):
                return f"{left[0]} content changed"
    return None


# 22 ----------------------------------------------------------- filter csv then total (multi-step)
_SALES_CSV = (
    "date,city,amount\n"
    "2024-04-01,London,120.50\n"
    "2024-04-01,Paris,98.00\n"
    "2024-04-02,Berlin,143.25\n"
    "2024-04-02,London,310.00\n"
    "2024-04-03,Paris,77.40\n"
    "2024-04-03,London,89.75\n"
    "2024-04-04,Berlin,64.10\n"
    "2024-04-05,London,523.50\n"
)
_LONDON_ROWS = [r for r in _csv_rows(_SALES_CSV)[1:] if r[1] == "London"]
_LONDON_TOTAL = round(sum(float(r[2]) for r in _LONDON_ROWS), 2)


def check_london(folder: pathlib.Path, answer: str):
    text = _read(folder / "london.csv")
    if text is None:
        return "london.csv not created"
    rows = _csv_rows(text)
    if not rows or rows[0] != ["date", "city", "amount"]:
        return "london.csv lacks the header row"
    if rows[1:] != _LONDON_ROWS:
        return f"london.csv rows wrong ({len(rows) - 1} rows, expected {len(_LONDON_ROWS)})"
    if not _same_text(_read(folder / "sales.csv"), _SALES_CSV):
        return "sales.csv was changed"
    if not _has_number(answer, _LONDON_TOTAL, tol=0.006):
        return f"answer does not give the London total {_LONDON_TOTAL}"
    return None


# 23 ----------------------------------------------------------- archive then delete (multi-step)
_DRAFTS_FILES = {
    "old_drafts/chapter1.txt": "It was a dark and stormy night.\n",
    "old_drafts/chapter2.txt": "The storm passed by morning.\n",
    "old_drafts/scraps/ideas.md": "- a lighthouse\n- a missing key\n",
    "current.txt": "The current manuscript.\n",
}


def check_archive(folder: pathlib.Path, answer: str):
    p = folder / "old_drafts.tar.gz"
    if not p.exists():
        return "old_drafts.tar.gz not created"
    try:
        with tarfile.open(p, "r:gz") as tf:
            members = {}
            for m in tf.getmembers():
                if m.isfile():
                    f = tf.extractfile(m)
                    members[m.name.lstrip("./")] = f.read().decode("utf-8", "replace") if f else ""
    except (tarfile.TarError, OSError, EOFError) as e:
        return f"old_drafts.tar.gz is not a gzip tar: {e}"
    for rel, content in _DRAFTS_FILES.items():
        if not rel.startswith("old_drafts/"):
            continue
        inner = rel[len("old_drafts/"):]
        hit = [n for n in members if n == rel or n == inner]
        if not hit:
            return f"archive lacks {rel}"
        if not _same_text(members[hit[0]], content):
            return f"{rel} in archive has wrong content"
    if (folder / "old_drafts").exists():
        return "old_drafts folder still exists"
    if not _same_text(_read(folder / "current.txt"), _DRAFTS_FILES["current.txt"]):
        return "current.txt missing or changed"
    return None


# 24 ----------------------------------------------------------- count levels -> json (multi-step)
_APP_PATTERN = "IIEIWIIIIWEIIIWIIIIEIIWIIIIIWIIE"
_APP_LOG = "".join(
    f"[{_LOG_MSG[c][0]}] 2024-05-{(i % 30) + 1:02d}T08:{i:02d}:11 worker-{i % 3} "
    f"{_LOG_MSG[c][1].format(n=(i * 11) % 97 + 3)}\n"
    for i, c in enumerate(_APP_PATTERN))
_LEVEL_COUNTS = {lvl: sum(1 for ln in _APP_LOG.splitlines() if ln.startswith(f"[{lvl}]"))
                 for lvl in ("INFO", "WARN", "ERROR")}


def check_level_summary(folder: pathlib.Path, answer: str):
    p = folder / "summary.json"
    if not p.exists():
        return "summary.json not created"
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (ValueError, OSError) as e:
        return f"summary.json is not valid JSON: {e}"
    if not isinstance(data, dict):
        return "summary.json is not an object"
    low = {str(k).upper(): v for k, v in data.items()}
    for lvl, n in _LEVEL_COUNTS.items():
        v = low.get(lvl, low.get("WARNING") if lvl == "WARN" else None)
        try:
            ok = v is not None and not isinstance(v, bool) and int(v) == n
        except (TypeError, ValueError):
            ok = False
        if not ok:
            return f"{lvl} count is {v!r}, expected {n}"
    return None


# =========================================================================== TASKS

TASKS: list[dict] = [
    {"name": "sort-pictures-into-folder",
     "request": "Can you put all the pictures in here into a new folder called pictures?",
     "files": _PICS_FILES, "check": check_sort_pictures},
    {"name": "rename-spaces-to-underscores",
     "request": "rename any files that have spaces in the name so the spaces become underscores",
     "files": _SPACES_FILES, "check": check_spaces_to_underscores},
    {"name": "reports-into-year-folders",
     "request": "Sort these reports by year please: make a folder for each year and move each "
                "report into its year's folder. Leave the readme where it is.",
     "files": _YEAR_FILES, "check": check_reports_by_year},
    {"name": "collect-nested-logs",
     "request": "I've got .log files buried all over the projects folder. Move every one of them "
                "into a single folder called all_logs here, no subfolders inside it.",
     "files": _NESTED_FILES, "check": check_collect_logs},
    {"name": "count-error-lines",
     "request": "how many ERROR lines in server.log?",
     "files": {"server.log": _SERVER_LOG}, "check": check_count_errors},
    {"name": "notes-mentioning-invoice",
     "request": "Which of my notes talk about an invoice?",
     "files": _INVOICE_FILES, "check": check_invoice_notes},
    {"name": "replace-company-name",
     "request": "Our company got renamed. In every markdown file in the docs folder, swap "
                "'Acme Corp' for 'Globex Inc'.",
     "files": _REPLACE_FILES, "check": check_replace_name},
    {"name": "contacts-csv-to-json",
     "request": "Convert contacts.csv to JSON, a list with one object per person, and save it "
                "as contacts.json.",
     "files": {"contacts.csv": _CONTACTS_CSV}, "check": check_csv_to_json},
    {"name": "tsv-to-markdown-table",
     "request": "could you turn scores.tsv into a markdown table? save it as scores.md",
     "files": {"scores.tsv": _SCORES_TSV}, "check": check_tsv_markdown},
    {"name": "write-todo-list",
     "request": "Make me a todo.txt with buy milk, call the dentist and renew passport, one per line.",
     "files": {}, "check": check_todo},
    {"name": "node-package-info",
     "request": "Using node, tell me what version package.json is at and how many dependencies "
                "it has, not counting the dev ones.",
     "files": {"package.json": _PACKAGE_JSON, "index.js": "console.log('weather');\n"},
     "check": check_node_package},
    {"name": "node-make-config",
     "request": "use node to write a config.json with port 8080, host localhost and debug turned on",
     "files": {}, "check": check_node_config},
    {"name": "biggest-file",
     "request": "biggest file in here?",
     "files": _BIG_FILES, "check": check_biggest},
    {"name": "python-total-lines",
     "request": "How many lines are there across all the Python files in this project, "
                "subfolders included? Just the total.",
     "files": _PY_FILES, "check": check_py_lines},
    {"name": "cpu-core-count",
     "request": "How many CPU cores does this computer have?",
     "files": {}, "check": check_cpu_cores},
    {"name": "kernel-version",
     "request": "what linux kernel version am I running?",
     "files": {}, "check": check_kernel},
    {"name": "dated-backup-copy",
     "request": "Before I edit it, make a copy of thesis.txt with today's date in the file name. "
                "Keep the original as is.",
     "files": {"thesis.txt": _THESIS}, "check": check_dated_copy},
    {"name": "essay-word-count",
     "request": "how many words is my essay? it's essay.txt",
     "files": {"essay.txt": _ESSAY}, "check": check_word_count},
    {"name": "export-email-column",
     "request": "Hey, can you pull just the email addresses out of the spreadsheet export and "
                "put them in emails.txt, one per line?",
     "files": _EXPORT_FILES, "check": check_extract_emails},
    {"name": "merge-monthly-csvs",
     "request": "Combine january.csv and february.csv into one file called both_months.csv, "
                "with only one header row.",
     "files": {"january.csv": _JAN_CSV, "february.csv": _FEB_CSV}, "check": check_merge_csv},
    {"name": "remove-duplicate-files",
     "request": "Some files in here are duplicates (same contents, different names). Delete the "
                "extra copies so only one of each is left.",
     "files": _DUP_FILES, "check": check_dedupe},
    {"name": "london-sales-filter-and-total",
     "request": "From sales.csv, make london.csv with only the London rows (keep the header), "
                "then tell me the total amount for London.",
     "files": {"sales.csv": _SALES_CSV}, "check": check_london},
    {"name": "archive-drafts-then-delete",
     "request": "Pack the old_drafts folder into old_drafts.tar.gz and then get rid of the folder.",
     "files": _DRAFTS_FILES, "check": check_archive},
    {"name": "log-level-summary-json",
     "request": "Count how many INFO, WARN and ERROR lines app.log has and save the counts in "
                "summary.json, like {\"INFO\": 3, \"WARN\": 1, \"ERROR\": 0}.",
     "files": {"app.log": _APP_LOG}, "check": check_level_summary},
]


# =========================================================================== self-test

def _solve(name: str, d: pathlib.Path) -> str:
    """Do the job by hand; return the answer text."""
    import hashlib
    import shutil

    if name == "sort-pictures-into-folder":
        (d / "pictures").mkdir()
        for p in list(d.iterdir()):
            if p.is_file() and p.suffix.lower() in {".jpg", ".jpeg", ".png", ".gif"}:
                shutil.move(str(p), d / "pictures" / p.name)
        return "Moved 5 pictures into pictures/."
    if name == "rename-spaces-to-underscores":
        for p in list(d.iterdir()):
            if " " in p.name:
                p.rename(d / p.name.replace(" ", "_"))
        return "Renamed 3 files."
    if name == "reports-into-year-folders":
        for p in list(d.glob("*.txt")):
            m = re.search(r"20\d\d", p.name)
            if m:
                (d / m.group(0)).mkdir(exist_ok=True)
                shutil.move(str(p), d / m.group(0) / p.name)
        return "Done."
    if name == "collect-nested-logs":
        (d / "all_logs").mkdir()
        for p in list((d / "projects").rglob("*.log")):
            shutil.move(str(p), d / "all_logs" / p.name)
        return "Moved 4 log files."
    if name == "count-error-lines":
        n = sum("ERROR" in ln for ln in (d / "server.log").read_text().splitlines())
        return f"There are {n} ERROR lines."
    if name == "notes-mentioning-invoice":
        hits = [p.name for p in sorted((d / "notes").glob("*.txt"))
                if "invoice" in p.read_text().lower()]
        return "These notes mention an invoice: " + ", ".join(hits)
    if name == "replace-company-name":
        for p in (d / "docs").glob("*.md"):
            p.write_text(p.read_text().replace("Acme Corp", "Globex Inc"))
        return "Updated."
    if name == "contacts-csv-to-json":
        with open(d / "contacts.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        (d / "contacts.json").write_text(json.dumps(rows, indent=2))
        return "Saved contacts.json with 4 contacts."
    if name == "tsv-to-markdown-table":
        rows = [ln.split("\t") for ln in (d / "scores.tsv").read_text().splitlines()]
        out = ["| " + " | ".join(rows[0]) + " |", "|" + "|".join([" --- "] * len(rows[0])) + "|"]
        out += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        (d / "scores.md").write_text("\n".join(out) + "\n")
        return "Wrote scores.md"
    if name == "write-todo-list":
        (d / "todo.txt").write_text("- Buy milk\n- Call the dentist\n- Renew passport\n")
        return "Created todo.txt."
    if name == "node-package-info":
        pk = json.loads((d / "package.json").read_text())
        return f"Version {pk['version']}; it has {len(pk['dependencies'])} dependencies."
    if name == "node-make-config":
        (d / "config.json").write_text(json.dumps({"port": 8080, "host": "localhost", "debug": True}))
        return "Wrote config.json."
    if name == "biggest-file":
        p = max((p for p in d.iterdir() if p.is_file()), key=lambda p: p.stat().st_size)
        return f"The biggest file is {p.name} ({p.stat().st_size:,} bytes)."
    if name == "python-total-lines":
        n = sum(len(p.read_text().splitlines()) for p in d.rglob("*.py"))
        return f"{n} lines in total."
    if name == "cpu-core-count":
        return f"This machine has {os.cpu_count()} CPU cores."
    if name == "kernel-version":
        return f"You're running Linux kernel {platform.release()}."
    if name == "dated-backup-copy":
        shutil.copy(d / "thesis.txt", d / f"thesis_{_dt.date.today():%Y-%m-%d}.txt")
        return "Copied."
    if name == "essay-word-count":
        return f"essay.txt has {len((d / 'essay.txt').read_text().split()):,} words."
    if name == "export-email-column":
        src = next(d.glob("*.csv"))
        with open(src, newline="") as f:
            emails = [r["email"] for r in csv.DictReader(f)]
        (d / "emails.txt").write_text("\n".join(emails) + "\n")
        return f"Wrote {len(emails)} emails."
    if name == "merge-monthly-csvs":
        a = (d / "january.csv").read_text().splitlines()
        b = (d / "february.csv").read_text().splitlines()
        (d / "both_months.csv").write_text("\n".join(a + b[1:]) + "\n")
        return "Merged."
    if name == "remove-duplicate-files":
        seen = set()
        for p in sorted(d.iterdir()):
            h = hashlib.sha256(p.read_bytes()).hexdigest()
            if h in seen:
                p.unlink()
            seen.add(h)
        return "Removed 3 duplicates."
    if name == "london-sales-filter-and-total":
        lines = (d / "sales.csv").read_text().splitlines()
        keep = [lines[0]] + [ln for ln in lines[1:] if ln.split(",")[1] == "London"]
        (d / "london.csv").write_text("\n".join(keep) + "\n")
        total = sum(float(ln.split(",")[2]) for ln in keep[1:])
        return f"London total: £{total:,.2f}."
    if name == "archive-drafts-then-delete":
        with tarfile.open(d / "old_drafts.tar.gz", "w:gz") as tf:
            tf.add(d / "old_drafts", arcname="old_drafts")
        shutil.rmtree(d / "old_drafts")
        return "Archived and deleted."
    if name == "log-level-summary-json":
        txt = (d / "app.log").read_text()
        counts = {k: txt.count(f"[{k}]") for k in ("INFO", "WARN", "ERROR")}
        (d / "summary.json").write_text(json.dumps(counts))
        return json.dumps(counts)
    raise KeyError(name)


# A few deliberately wrong outcomes: the check must reject these too.
_WRONG = {
    "count-error-lines": lambda d: f"{_ERROR_COUNT + 1} lines",
    "biggest-file": lambda d: "song.mp3, thesis.pdf and holiday.mov are all big",
    "notes-mentioning-invoice": lambda d: "landlord.txt, freelance_gig.txt, meeting_0312.txt, groceries.txt",
    "node-package-info": lambda d: "version 2.4.1 with 7 dependencies",
    "essay-word-count": lambda d: f"{_ESSAY_WORDS - 3} words",
}


def _self_test() -> int:
    import tempfile

    names = [t["name"] for t in TASKS]
    assert len(names) == len(set(names)), "duplicate names"
    assert all(re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", n) for n in names), "bad names"
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, t in enumerate(TASKS):
            name = t["name"]
            for stage in ("untouched", "wrong", "solved"):
                if stage == "wrong" and name not in _WRONG:
                    continue
                d = pathlib.Path(tmp) / f"{i:02d}-{name}-{stage}"
                d.mkdir()
                for rel, content in t["files"].items():
                    (d / rel).parent.mkdir(parents=True, exist_ok=True)
                    (d / rel).write_text(content, encoding="utf-8")
                if stage == "untouched":
                    res = t["check"](d, "")
                    ok = res is not None
                    print(f"{'ok ' if ok else 'BAD'} {name:32s} untouched -> {res}")
                elif stage == "wrong":
                    res = t["check"](d, _WRONG[name](d))
                    ok = res is not None
                    print(f"{'ok ' if ok else 'BAD'} {name:32s} wrong     -> {res}")
                else:
                    ans = _solve(name, d)
                    res = t["check"](d, ans)
                    ok = res is None
                    print(f"{'ok ' if ok else 'BAD'} {name:32s} solved    -> {res}  [{ans[:50]}]")
                failures += not ok
    print(f"\n{len(TASKS)} tasks, {failures} failure(s)")
    return failures


if __name__ == "__main__":
    raise SystemExit(1 if _self_test() else 0)
