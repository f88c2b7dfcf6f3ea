"""Blind benchmark tasks for a desktop assistant (set 3).

Each task: name, request (what the user says), files (relative path -> text),
check(folder, answer) -> None when done, else a one-line reason.
Run this module directly for a self-test.
"""

from __future__ import annotations

import configparser
import csv
import io
import json
import os
import re
import shutil
import socket
import sys
import tarfile
import tempfile
from pathlib import Path

# ---------------------------------------------------------------- helpers

_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
}


def _numbers(answer: str) -> list[float]:
    """All numbers in the answer: '1,234.50' -> 1234.5, '$52.99' -> 52.99, 'four' -> 4."""
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", answer or "")
    nums = [float(m) for m in re.findall(r"\d+(?:\.\d+)?", text)]
    for word in re.findall(r"[a-z]+", text.lower()):
        if word in _WORDS:
            nums.append(float(_WORDS[word]))
    return nums


def _has_number(answer: str, expected: float, tol: float = 0.005) -> bool:
    return any(abs(n - expected) <= tol for n in _numbers(answer))


def _need_number(answer: str, expected: float, what: str) -> str | None:
    if not (answer or "").strip():
        return "empty answer"
    if _has_number(answer, expected):
        return None
    return f"answer does not give the {what} ({expected:g})"


def _first_mentioned(answer: str, candidates: list[str]) -> str | None:
    """The candidate mentioned earliest in the answer (case-insensitive)."""
    low = (answer or "").lower()
    best, best_pos = None, len(low) + 1
    for cand in candidates:
        pos = low.find(cand.lower())
        if pos != -1 and pos < best_pos:
            best, best_pos = cand, pos
    return best


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _lines(text: str) -> list[str]:
    """Non-blank lines, stripped."""
    return [ln.strip() for ln in text.splitlines() if ln.strip()]


def _same(folder: Path, rel: str, content: str) -> str | None:
    """None if folder/rel exists with this content (trailing whitespace ignored)."""
    got = _read(folder / rel)
    if got is None:
        return f"{rel} is missing"
    if got.rstrip() != content.rstrip():
        return f"{rel} has the wrong content"
    return None


def _gone(folder: Path, rel: str) -> str | None:
    if (folder / rel).exists():
        return f"{rel} should no longer be there"
    return None


def _first_error(*results: str | None) -> str | None:
    for res in results:
        if res:
            return res
    return None


# ---------------------------------------------------------------- 1 sales-total

SALES_CSV = (
    "date,item,amount\n"
    "2024-01-03,widget,19.99\n"
    "2024-01-04,gadget,5.50\n"
    "\n"
    "2024-01-05,\"cable, usb-c\",120.00\n"
    "2024-01-06,stand,7.25\n"
    "2024-01-08,widget,42.10\n"
    "2024-01-09,sticker,0.99\n"
    "\n\n"
)


def check_sales_total(folder: Path, answer: str) -> str | None:
    return _need_number(answer, 195.83, "total amount")


# ---------------------------------------------------------------- 2 pdfs-to-documents

PDF_FILES = {
    "invoice.pdf": "%PDF-1.4 invoice march\n",
    "Scan_001.PDF": "%PDF-1.4 scanned receipt\n",
    "contract.Pdf": "%PDF-1.4 rental contract\n",
}
PDF_OTHERS = {
    "notes.txt": "remember to print the contract\n",
    "photo.jpg": "JPEGDATA\n",
    "pdf_tools.txt": "list of pdf tools: qpdf, pdftk\n",
}


def check_pdfs_to_documents(folder: Path, answer: str) -> str | None:
    docs = folder / "documents"
    if not docs.is_dir():
        return "no documents folder"
    inside = {p.name.lower(): p for p in docs.iterdir() if p.is_file()}
    for name, content in PDF_FILES.items():
        p = inside.get(name.lower())
        if p is None:
            return f"{name} is not in documents/"
        if _read(p) != content:
            return f"documents/{p.name} has the wrong content"
        if (folder / name).exists():
            return f"{name} is still in the main folder (should be moved)"
    for name, content in PDF_OTHERS.items():
        if name.lower() in inside:
            return f"{name} is not a PDF but was put in documents/"
        err = _same(folder, name, content)
        if err:
            return err
    return None


# ---------------------------------------------------------------- 3 notes-txt-to-md

NOTES_TXT = {
    "notes/ideas.txt": "an app that waters plants\n",
    "notes/shopping.txt": "eggs\nbread\n",
    "notes/work/meeting.txt": "standup at 9:30\n",
    "notes/work/2024/plan.txt": "Q1: hire\nQ2: ship\n",
}
NOTES_OTHERS = {
    "notes/readme.md": "# My notes\n",
    "notes/budget.csv": "item,cost\nrent,900\n",
    "todo.txt": "this one is outside notes, leave it\n",
}


def check_notes_txt_to_md(folder: Path, answer: str) -> str | None:
    for rel, content in NOTES_TXT.items():
        new = rel[:-4] + ".md"
        err = _first_error(_same(folder, new, content), _gone(folder, rel))
        if err:
            return err
    for rel, content in NOTES_OTHERS.items():
        err = _same(folder, rel, content)
        if err:
            return err
    if (folder / "todo.md").exists():
        return "todo.txt outside notes/ was renamed too"
    return None


# ---------------------------------------------------------------- 4 count-error-lines

SERVER_LOG = "\n".join([
    "2024-05-01 10:00:01 INFO server started on port 8080",
    "2024-05-01 10:00:05 INFO connected to database",
    "2024-05-01 10:02:13 ERROR timeout talking to payment service",
    "2024-05-01 10:02:14 WARN retrying payment request",
    "2024-05-01 10:02:20 ERROR payment request failed after 3 retries",
    "2024-05-01 10:05:00 INFO user alice logged in",
    "2024-05-01 10:07:42 ERROR could not write /var/cache/img/42.png",
    "2024-05-01 10:09:10 WARN disk usage at 85%",
    "2024-05-01 10:11:11 INFO user bob logged in",
    "2024-05-01 10:15:30 ERROR null user id in session",
    "2024-05-01 10:20:00 INFO nightly report queued",
    "2024-05-01 10:21:09 ERROR report template missing",
    "2024-05-01 10:30:00 INFO server healthy",
]) + "\n"


def check_count_error_lines(folder: Path, answer: str) -> str | None:
    return _need_number(answer, 5, "number of ERROR lines")


# ---------------------------------------------------------------- 5 json-to-csv

PEOPLE = [
    {"name": "Ana Souza", "age": 34, "city": "Lisbon"},
    {"name": "Ben Carter", "age": 27, "city": "Washington, D.C."},
    {"name": "Chen Wei", "age": 45, "city": "Shanghai"},
    {"name": "Dara O'Neill", "age": 19, "city": "Dublin"},
]


def check_json_to_csv(folder: Path, answer: str) -> str | None:
    text = _read(folder / "people.csv")
    if text is None:
        return "people.csv is missing"
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if not rows:
        return "people.csv is empty"
    header = [c.strip().lower() for c in rows[0]]
    if header != ["name", "age", "city"]:
        return f"people.csv header is {rows[0]}, expected name, age, city"
    got = [[c.strip() for c in r] for r in rows[1:]]
    want = [[p["name"], str(p["age"]), p["city"]] for p in PEOPLE]
    if len(got) != len(want):
        return f"people.csv has {len(got)} data rows, expected {len(want)}"
    for g, w in zip(got, want):
        if g != w:
            return f"people.csv row {g} should be {w}"
    if _read(folder / "people.json") is None:
        return "people.json was removed"
    return None


# ---------------------------------------------------------------- 6 write-todo-file

def check_write_todo_file(folder: Path, answer: str) -> str | None:
    text = _read(folder / "todo.txt")
    if text is None:
        return "todo.txt is missing"
    items = []
    for ln in _lines(text):
        ln = re.sub(r"^(?:[-*\u2022]|\d+[.)]|\[ ?\])\s*", "", ln)
        items.append(ln.strip().rstrip(".").strip().lower())
    if items != ["buy milk", "call mom", "pay rent"]:
        return f"todo.txt lines are {items}, expected buy milk / call mom / pay rent"
    return None


# ---------------------------------------------------------------- 7 node-cart-total

CART = {
    "customer": "sam",
    "items": [
        {"name": "coffee beans", "price": 3.50, "qty": 2},
        {"name": "mug", "price": 12.99, "qty": 1},
        {"name": "filter papers", "price": 0.75, "qty": 4},
        {"name": "grinder", "price": 10, "qty": 3},
    ],
}


def check_node_cart_total(folder: Path, answer: str) -> str | None:
    return _need_number(answer, 52.99, "cart total")


# ---------------------------------------------------------------- 8 largest-file

LARGEST_FILES = {
    "notes.txt": "short note\n",
    "data.csv": "id,value\n" + "".join(f"{i},{i * 37 % 1000}\n" for i in range(400)),
    "settings.json": json.dumps({"theme": "dark", "items": list(range(300))}),
    "a_really_long_file_name_but_tiny.txt": "hi\n",
    "readme.md": "# Project\n" + "Some words here.\n" * 40,
}


def check_largest_file(folder: Path, answer: str) -> str | None:
    if not (answer or "").strip():
        return "empty answer"
    first = _first_mentioned(answer, list(LARGEST_FILES))
    if first != "data.csv":
        return f"answer names {first!r} first, the largest is data.csv"
    return None


# ---------------------------------------------------------------- 9 poem-nonblank-lines

POEM = (
    "The fog comes\n"
    "on little cat feet.\n"
    "\n"
    "It sits looking\n"
    "over harbor and city\n"
    "on silent haunches\n"
    "and then moves on.\n"
    "   \n"
    "\n"
    "Second verse, same fog,\n"
    "a grey coat on the bay,\n"
    "\t\n"
    "it leaves before noon\n"
    "and nobody waves.\n"
    "\n"
)


def check_poem_nonblank_lines(folder: Path, answer: str) -> str | None:
    return _need_number(answer, 10, "number of non-blank lines")


# ---------------------------------------------------------------- 10 cpu-cores

def check_cpu_cores(folder: Path, answer: str) -> str | None:
    if not (answer or "").strip():
        return "empty answer"
    ok = {os.cpu_count() or 0}
    if hasattr(os, "sched_getaffinity"):
        ok.add(len(os.sched_getaffinity(0)))
    if any(_has_number(answer, n) for n in ok):
        return None
    return f"answer does not give the core count ({sorted(ok)})"


# ---------------------------------------------------------------- 11 hostname

def check_hostname(folder: Path, answer: str) -> str | None:
    if not (answer or "").strip():
        return "empty answer"
    names = {socket.gethostname().lower(), socket.gethostname().split(".")[0].lower()}
    if any(n and n in answer.lower() for n in names):
        return None
    return f"answer does not contain the hostname ({socket.gethostname()})"


# ---------------------------------------------------------------- 12 backup-csvs

BACKUP_CSVS = {
    "jan.csv": "day,sales\n1,10\n2,12\n",
    "feb.csv": "day,sales\n1,8\n2,15\n",
    "March Sales.CSV": "day,sales\n1,20\n2,22\n",
}
BACKUP_OTHERS = {
    "notes.txt": "csv files are exported from the till\n",
    "chart.png": "PNGDATA\n",
    "csv_export_howto.md": "# how to export csv\n",
}


def check_backup_csvs(folder: Path, answer: str) -> str | None:
    backup = folder / "backup"
    if not backup.is_dir():
        return "no backup folder"
    inside = {p.name.lower(): p for p in backup.iterdir() if p.is_file()}
    for name, content in BACKUP_CSVS.items():
        p = inside.get(name.lower())
        if p is None:
            return f"{name} was not copied into backup/"
        if _read(p) != content:
            return f"backup/{p.name} has the wrong content"
        err = _same(folder, name, content)
        if err:
            return err + " (original should stay, it was a copy)"
    for name, content in BACKUP_OTHERS.items():
        if name.lower() in inside:
            return f"{name} is not a CSV but was copied"
        err = _same(folder, name, content)
        if err:
            return err
    return _need_number(answer, 3, "number of files copied")


# ---------------------------------------------------------------- 13 collect-todos

TODO_FILES = {
    "src/main.py": (
        "import sys\n\n"
        "def main(args):\n"
        "    # TODO: handle empty input\n"
        "    return args[0]\n\n"
        "if __name__ == '__main__':\n"
        "    main(sys.argv[1:])  # TODO: add a --verbose flag\n"
    ),
    "src/utils/helpers.py": (
        "def slug(s):\n"
        "    # TODO: strip accents before lowercasing\n"
        "    return s.lower().replace(' ', '-')\n"
    ),
    "src/utils/io.py": (
        "def load(path):\n"
        "    with open(path) as f:\n"
        "        return f.read()\n"
    ),
    "src/db/models.py": (
        "class User:\n"
        "    # TODO: validate email addresses\n"
        "    pass\n"
    ),
    "src/NOTES.md": "TODO: write proper docs\n",
    "tests/test_main.py": "# TODO: test the verbose flag\ndef test_x():\n    pass\n",
}
TODO_WANT = [
    "handle empty input",
    "add a --verbose flag",
    "strip accents before lowercasing",
    "validate email addresses",
]
TODO_NOT = ["write proper docs", "test the verbose flag"]


def check_collect_todos(folder: Path, answer: str) -> str | None:
    text = _read(folder / "todos.txt")
    if text is None:
        return "todos.txt is missing"
    low = text.lower()
    for want in TODO_WANT:
        if want not in low:
            return f"todos.txt is missing the TODO '{want}'"
    for bad in TODO_NOT:
        if bad in low:
            return f"todos.txt includes '{bad}', which is not in a Python file under src"
    for ln in _lines(text):
        if sum(want in ln.lower() for want in TODO_WANT) > 1:
            return "todos.txt puts several TODOs on one line, expected one per line"
    return _need_number(answer, 4, "number of TODOs")


# ---------------------------------------------------------------- 14 adults-csv

PEOPLE_CSV = (
    "name,age,email\n"
    "Mia,17,mia@example.com\n"
    "Noah,18,noah@example.com\n"
    "Olivia,42,olivia@example.com\n"
    "Liam,9,liam@example.com\n"
    "Emma,18,emma@example.com\n"
    "Lucas,65,lucas@example.com\n"
    "Zoe,16,zoe@example.com\n"
)


def check_adults_csv(folder: Path, answer: str) -> str | None:
    text = _read(folder / "adults.csv")
    if text is None:
        return "adults.csv is missing"
    rows = [[c.strip() for c in r] for r in csv.reader(io.StringIO(text)) if any(r)]
    if not rows or [c.lower() for c in rows[0]] != ["name", "age", "email"]:
        return "adults.csv does not start with the header name,age,email"
    got = sorted(tuple(r) for r in rows[1:])
    want = sorted(
        tuple(r) for r in list(csv.reader(io.StringIO(PEOPLE_CSV)))[1:] if int(r[1]) >= 18
    )
    if got != want:
        names = [r[0] for r in got]
        return f"adults.csv has {names}, expected Noah, Olivia, Emma, Lucas"
    return _same(folder, "people.csv", PEOPLE_CSV)


# ---------------------------------------------------------------- 15 archive-logs

LOG_FILES = {
    "logs/app.log": "app started\napp stopped\n",
    "logs/error.log": "disk full\n",
    "logs/old/app-2023.log": "last year's log\n",
}


def _tar_member_rel(name: str) -> str:
    """'./logs/a.log', 'logs/a.log', 'tmp/x/logs/a.log' -> 'a.log'; 'a.log' stays."""
    name = re.sub(r"^(?:\./)+", "", name).strip("/")
    if "logs/" in "/" + name:
        name = ("/" + name).split("/logs/", 1)[1]
    return name


def check_archive_logs(folder: Path, answer: str) -> str | None:
    tgz = folder / "logs.tar.gz"
    if not tgz.is_file():
        return "logs.tar.gz is missing"
    try:
        with tarfile.open(tgz, "r:gz") as tar:
            found = {}
            for m in tar.getmembers():
                if m.isfile():
                    f = tar.extractfile(m)
                    found[_tar_member_rel(m.name)] = f.read().decode() if f else ""
    except (tarfile.TarError, OSError, EOFError, UnicodeDecodeError) as exc:
        return f"logs.tar.gz is not a valid gzipped tar ({exc.__class__.__name__})"
    for rel, content in LOG_FILES.items():
        inner = rel[len("logs/"):]
        if inner not in found:
            return f"logs.tar.gz does not contain {rel}"
        if found[inner] != content:
            return f"{rel} in the archive has the wrong content"
    if (folder / "logs").exists():
        return "the logs folder was not deleted"
    return None


# ---------------------------------------------------------------- 16 dedupe-emails

EMAILS_TXT = (
    "zoe@example.com\n"
    "adam@example.com\n"
    "zoe@example.com\n"
    "maria@example.org\n"
    "adam@example.com \n"
    "kim@example.net\n"
    "maria@example.org\n"
    "zoe@example.com\n"
    "bob@example.com\n"
)
EMAILS_WANT = [
    "zoe@example.com", "adam@example.com", "maria@example.org",
    "kim@example.net", "bob@example.com",
]


def check_dedupe_emails(folder: Path, answer: str) -> str | None:
    text = _read(folder / "emails.txt")
    if text is None:
        return "emails.txt is missing"
    got = _lines(text)
    if sorted(got) != sorted(EMAILS_WANT) or len(set(got)) != len(got):
        return f"emails.txt holds {got}, expected each address once: {EMAILS_WANT}"
    if got != EMAILS_WANT:
        return "emails.txt lost the original order"
    return None


# ---------------------------------------------------------------- 17 sort-names

NAMES = ["Priya", "Tom", "Aisha", "Zack", "Beatriz", "Omar", "Chloe", "Kenji", "Amelia"]
NAMES_TXT = "\n".join(NAMES) + "\n\n"


def check_sort_names(folder: Path, answer: str) -> str | None:
    text = _read(folder / "names_sorted.txt")
    if text is None:
        return "names_sorted.txt is missing"
    got = _lines(text)
    want = sorted(NAMES, key=str.lower)
    if got != want:
        return f"names_sorted.txt is {got}, expected {want}"
    return _same(folder, "names.txt", NAMES_TXT)


# ---------------------------------------------------------------- 18 rename-spaced-file

SPACED_FILES = {
    "meeting notes.txt": "Attendees: Ana, Ben\nDecided: ship on Friday\n",
    "meeting.txt": "room booking for tuesday\n",
    "notes.txt": "random notes\n",
    "meeting notes old.txt": "old meeting, ignore\n",
}


def check_rename_spaced_file(folder: Path, answer: str) -> str | None:
    err = _first_error(
        _same(folder, "meeting-notes-2024.txt", SPACED_FILES["meeting notes.txt"]),
        _gone(folder, "meeting notes.txt"),
    )
    if err:
        return err
    for name, content in SPACED_FILES.items():
        if name != "meeting notes.txt":
            err = _same(folder, name, content)
            if err:
                return err
    return None


# ---------------------------------------------------------------- 19 sort-downloads

DL_IMAGES = {"beach.JPG": "JPG1\n", "cat.png": "PNG1\n", "Screenshot 2024-03-01.PNG": "PNG2\n"}
DL_DOCS = {"resume.pdf": "PDF1\n", "cover letter.docx": "DOCX1\n", "Tax Form.PDF": "PDF2\n"}
DL_OTHERS = {"setup.sh": "echo hi\n", "song.mp3": "MP3\n", "pdf-reader.deb": "DEB\n"}


def check_sort_downloads(folder: Path, answer: str) -> str | None:
    dl = folder / "downloads"
    for sub, group in (("images", DL_IMAGES), ("docs", DL_DOCS)):
        d = dl / sub
        if not d.is_dir():
            return f"downloads/{sub} folder is missing"
        inside = {p.name.lower(): p for p in d.iterdir() if p.is_file()}
        for name, content in group.items():
            p = inside.get(name.lower())
            if p is None:
                return f"{name} is not in downloads/{sub}"
            if _read(p) != content:
                return f"downloads/{sub}/{p.name} has the wrong content"
            if (dl / name).exists():
                return f"{name} is still loose in downloads (should be moved)"
    for name, content in DL_OTHERS.items():
        err = _same(dl, name, content)
        if err:
            return "downloads/" + err + " (other files should stay put)"
    return None


# ---------------------------------------------------------------- 20 change-port

CONFIG_INI = (
    "; app settings\n"
    "[server]\n"
    "host = 0.0.0.0\n"
    "port = 8080\n"
    "workers = 4\n"
    "\n"
    "[proxy]\n"
    "host = 127.0.0.1\n"
    "port = 18080\n"
    "\n"
    "[database]\n"
    "host = db.local\n"
    "port = 5432\n"
    "name = shop\n"
)


def check_change_port(folder: Path, answer: str) -> str | None:
    text = _read(folder / "config.ini")
    if text is None:
        return "config.ini is missing"
    got = configparser.ConfigParser()
    want = configparser.ConfigParser()
    try:
        got.read_string(text)
    except configparser.Error:
        return "config.ini is no longer a valid ini file"
    want.read_string(CONFIG_INI)
    want["server"]["port"] = "9090"
    if got.has_option("server", "port") and got["server"]["port"].strip() == "8080":
        return "server port is still 8080"
    for sec in want.sections():
        if not got.has_section(sec):
            return f"section [{sec}] is missing"
        for key, val in want[sec].items():
            have = got[sec].get(key)
            if have is None or have.strip() != val:
                return f"[{sec}] {key} is {have!r}, expected {val!r}"
    if got.sections() != want.sections():
        return "config.ini sections changed"
    return None


# ---------------------------------------------------------------- 21 count-nested-jpgs

PHOTO_FILES = {
    "photos/2023/summer/beach.jpg": "J1\n",
    "photos/2023/summer/SUNSET.JPG": "J2\n",
    "photos/2023/winter/snow.png": "P1\n",
    "photos/2024/birthday.jpg": "J3\n",
    "photos/2024/raw/IMG_0042.JPG": "J4\n",
    "photos/2024/raw/IMG_0042.CR2": "RAW\n",
    "photos/jpg_list.txt": "beach.jpg\nbirthday.jpg\n",
    "photos/cover.gif": "G1\n",
}


def check_count_nested_jpgs(folder: Path, answer: str) -> str | None:
    return _need_number(answer, 4, "number of jpg photos")


# ---------------------------------------------------------------- 22 node-dependencies

PACKAGE_JSON = {
    "name": "shop-frontend",
    "version": "2.3.1",
    "dependencies": {"express": "^4.19.2", "lodash": "^4.17.21", "dayjs": "^1.11.10"},
    "devDependencies": {"jest": "^29.7.0", "eslint": "^8.57.0"},
}


def check_node_dependencies(folder: Path, answer: str) -> str | None:
    if not (answer or "").strip():
        return "empty answer"
    low = answer.lower()
    for dep in PACKAGE_JSON["dependencies"]:
        if dep not in low:
            return f"answer does not mention {dep}"
    for dev in PACKAGE_JSON["devDependencies"]:
        if re.search(rf"\b{dev}\b", low):
            return f"answer lists dev dependency {dev}"
    return None


# ---------------------------------------------------------------- 23 top-product

ORDERS_CSV = (
    "order_id,product,units\n"
    "1001,Blue Mug,3\n"
    "1002,Tea Towel,2\n"
    "1003,Desk Lamp,9\n"
    "1004,Blue Mug,4\n"
    "1005,Tea Towel,5\n"
    "1006,Blue Mug,2\n"
    "1007,Tea Towel,1\n"
    "1008,Notebook,6\n"
)


def check_top_product(folder: Path, answer: str) -> str | None:
    if not (answer or "").strip():
        return "empty answer"
    first = _first_mentioned(answer, ["Blue Mug", "Tea Towel", "Desk Lamp", "Notebook"])
    if first != "Blue Mug":
        return f"answer names {first!r}, the top seller is Blue Mug (9 units in total)"
    return None


# ---------------------------------------------------------------- 24 reports-by-year

REPORTS = {
    "report-2022-03.txt": "march 2022\n",
    "report-2022-11.txt": "november 2022\n",
    "report-2023-01.txt": "january 2023\n",
    "report-2024-06.txt": "june 2024\n",
}
REPORT_OTHERS = {"summary.txt": "all years summary\n", "template.docx": "TEMPLATE\n"}


def check_reports_by_year(folder: Path, answer: str) -> str | None:
    for name, content in REPORTS.items():
        year = name.split("-")[1]
        err = _first_error(_same(folder, f"{year}/{name}", content), _gone(folder, name))
        if err:
            return err
    for name, content in REPORT_OTHERS.items():
        err = _same(folder, name, content)
        if err:
            return err
    return None


# ---------------------------------------------------------------- task list

TASKS: list[dict] = [
    {
        "name": "sales-total",
        "request": "What's the total of the amount column in sales.csv?",
        "files": {"sales.csv": SALES_CSV},
        "check": check_sales_total,
    },
    {
        "name": "pdfs-to-documents",
        "request": "Can you put all my PDFs into a new folder called documents?",
        "files": {**PDF_FILES, **PDF_OTHERS},
        "check": check_pdfs_to_documents,
    },
    {
        "name": "notes-txt-to-md",
        "request": "Rename every .txt file in the notes folder, subfolders included, "
                   "so they end in .md instead.",
        "files": {**NOTES_TXT, **NOTES_OTHERS},
        "check": check_notes_txt_to_md,
    },
    {
        "name": "count-error-lines",
        "request": "hey, how many ERROR lines are there in server.log?",
        "files": {"server.log": SERVER_LOG},
        "check": check_count_error_lines,
    },
    {
        "name": "json-to-csv",
        "request": "Turn people.json into a CSV file called people.csv with the columns "
                   "name, age and city.",
        "files": {"people.json": json.dumps(PEOPLE, indent=2) + "\n"},
        "check": check_json_to_csv,
    },
    {
        "name": "write-todo-file",
        "request": "Make me a file called todo.txt with three lines: buy milk, call mom, "
                   "and pay rent.",
        "files": {},
        "check": check_write_todo_file,
    },
    {
        "name": "node-cart-total",
        "request": "Using node, work out what my cart in cart.json costs in total, "
                   "price times quantity for each item.",
        "files": {"cart.json": json.dumps(CART, indent=2) + "\n"},
        "check": check_node_cart_total,
    },
    {
        "name": "largest-file",
        "request": "Which file in this folder is the biggest?",
        "files": LARGEST_FILES,
        "check": check_largest_file,
    },
    {
        "name": "poem-nonblank-lines",
        "request": "How many lines of actual text are in poem.txt? Don't count the "
                   "empty ones.",
        "files": {"poem.txt": POEM},
        "check": check_poem_nonblank_lines,
    },
    {
        "name": "cpu-cores",
        "request": "how many CPU cores does this machine have?",
        "files": {},
        "check": check_cpu_cores,
    },
    {
        "name": "hostname",
        "request": "What's the hostname of this computer?",
        "files": {},
        "check": check_hostname,
    },
    {
        "name": "backup-csvs",
        "request": "Make a folder called backup, copy every CSV file from here into it, "
                   "then tell me how many you copied.",
        "files": {**BACKUP_CSVS, **BACKUP_OTHERS},
        "check": check_backup_csvs,
    },
    {
        "name": "collect-todos",
        "request": "Can you find all the TODO comments in the Python files under src, "
                   "write them into todos.txt one per line, and tell me how many there are?",
        "files": TODO_FILES,
        "check": check_collect_todos,
    },
    {
        "name": "adults-csv",
        "request": "From people.csv, make adults.csv with only the people who are 18 or "
                   "older. Keep the header row.",
        "files": {"people.csv": PEOPLE_CSV},
        "check": check_adults_csv,
    },
    {
        "name": "archive-logs",
        "request": "Pack the logs folder into logs.tar.gz, and once that's done, delete "
                   "the logs folder.",
        "files": LOG_FILES,
        "check": check_archive_logs,
    },
    {
        "name": "dedupe-emails",
        "request": "emails.txt has a bunch of duplicate addresses. Clean it up so each "
                   "one is in there only once, and keep them in the original order.",
        "files": {"emails.txt": EMAILS_TXT},
        "check": check_dedupe_emails,
    },
    {
        "name": "sort-names",
        "request": "Sort the names in names.txt alphabetically and save them as "
                   "names_sorted.txt.",
        "files": {"names.txt": NAMES_TXT},
        "check": check_sort_names,
    },
    {
        "name": "rename-spaced-file",
        "request": "Please rename \"meeting notes.txt\" to meeting-notes-2024.txt.",
        "files": SPACED_FILES,
        "check": check_rename_spaced_file,
    },
    {
        "name": "sort-downloads",
        "request": "hey, can you tidy up my downloads folder? Put the pictures (jpg and "
                   "png) in downloads/images and the documents (pdf and docx) in "
                   "downloads/docs. Leave everything else where it is.",
        "files": {f"downloads/{k}": v for k, v in {**DL_IMAGES, **DL_DOCS, **DL_OTHERS}.items()},
        "check": check_sort_downloads,
    },
    {
        "name": "change-port",
        "request": "In config.ini, change the server port from 8080 to 9090.",
        "files": {"config.ini": CONFIG_INI},
        "check": check_change_port,
    },
    {
        "name": "count-nested-jpgs",
        "request": "how many jpg photos are in the photos folder? Count the ones in "
                   "subfolders too.",
        "files": PHOTO_FILES,
        "check": check_count_nested_jpgs,
    },
    {
        "name": "node-dependencies",
        "request": "Using node, tell me which packages package.json lists as "
                   "dependencies. Just the regular ones, not the dev dependencies.",
        "files": {"package.json": json.dumps(PACKAGE_JSON, indent=2) + "\n"},
        "check": check_node_dependencies,
    },
    {
        "name": "top-product",
        "request": "Which product sold the most units overall in orders.csv?",
        "files": {"orders.csv": ORDERS_CSV},
        "check": check_top_product,
    },
    {
        "name": "reports-by-year",
        "request": "Make a folder for each year and move each report into its year's "
                   "folder, so report-2022-03.txt ends up in 2022/, and so on.",
        "files": {**REPORTS, **REPORT_OTHERS},
        "check": check_reports_by_year,
    },
]


# ---------------------------------------------------------------- self-test solvers
# Each solver does the job by hand in Python and returns the answer text.

def _solve_sales_total(d: Path) -> str:
    with open(d / "sales.csv", newline="") as f:
        total = sum(float(r["amount"]) for r in csv.DictReader(f) if r.get("amount"))
    return f"The total is ${total:,.2f}."


def _move_matching(src: Path, dst: Path, exts: set[str]) -> None:
    dst.mkdir(parents=True, exist_ok=True)
    for p in list(src.iterdir()):
        if p.is_file() and p.suffix.lower() in exts:
            shutil.move(str(p), dst / p.name)


def _solve_pdfs_to_documents(d: Path) -> str:
    _move_matching(d, d / "documents", {".pdf"})
    return "Moved 3 PDFs into documents/."


def _solve_notes_txt_to_md(d: Path) -> str:
    for p in (d / "notes").rglob("*.txt"):
        p.rename(p.with_suffix(".md"))
    return "Done."


def _solve_count_error_lines(d: Path) -> str:
    lines = (d / "server.log").read_text().splitlines()
    return f"There are {sum(' ERROR ' in ln for ln in lines)} ERROR lines."


def _solve_json_to_csv(d: Path) -> str:
    data = json.loads((d / "people.json").read_text())
    with open(d / "people.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["name", "age", "city"])
        w.writeheader()
        w.writerows(data)
    return "Wrote people.csv"


def _solve_write_todo_file(d: Path) -> str:
    (d / "todo.txt").write_text("- Buy milk\n- Call mom\n- Pay rent\n")
    return "Created todo.txt"


def _solve_node_cart_total(d: Path) -> str:
    cart = json.loads((d / "cart.json").read_text())
    total = sum(i["price"] * i["qty"] for i in cart["items"])
    return f"Total: {total:.2f}"


def _solve_largest_file(d: Path) -> str:
    files = sorted((p for p in d.iterdir() if p.is_file()), key=lambda p: -p.stat().st_size)
    return ", ".join(f"{p.name} ({p.stat().st_size} bytes)" for p in files)


def _solve_poem_nonblank_lines(d: Path) -> str:
    return f"{len(_lines((d / 'poem.txt').read_text()))} lines"


def _solve_cpu_cores(d: Path) -> str:
    return f"This machine has {os.cpu_count()} CPU cores."


def _solve_hostname(d: Path) -> str:
    return f"The hostname is {socket.gethostname()}."


def _solve_backup_csvs(d: Path) -> str:
    (d / "backup").mkdir()
    n = 0
    for p in d.iterdir():
        if p.is_file() and p.suffix.lower() == ".csv":
            shutil.copy2(p, d / "backup" / p.name)
            n += 1
    return f"Copied {n} CSV files to backup/."


def _solve_collect_todos(d: Path) -> str:
    out = []
    for p in sorted((d / "src").rglob("*.py")):
        for ln in p.read_text().splitlines():
            if "TODO" in ln:
                out.append(f"{p.relative_to(d)}: {ln[ln.index('TODO'):]}")
    (d / "todos.txt").write_text("\n".join(out) + "\n")
    return f"Found {len(out)} TODOs."


def _solve_adults_csv(d: Path) -> str:
    with open(d / "people.csv", newline="") as f:
        rows = list(csv.reader(f))
    keep = [rows[0]] + [r for r in rows[1:] if int(r[1]) >= 18]
    with open(d / "adults.csv", "w", newline="") as f:
        csv.writer(f).writerows(keep)
    return "Done"


def _solve_archive_logs(d: Path) -> str:
    with tarfile.open(d / "logs.tar.gz", "w:gz") as tar:
        tar.add(d / "logs", arcname="logs")
    shutil.rmtree(d / "logs")
    return "Archived and deleted."


def _solve_dedupe_emails(d: Path) -> str:
    seen: list[str] = []
    for ln in _lines((d / "emails.txt").read_text()):
        if ln not in seen:
            seen.append(ln)
    (d / "emails.txt").write_text("\n".join(seen) + "\n")
    return "Removed duplicates."


def _solve_sort_names(d: Path) -> str:
    names = sorted(_lines((d / "names.txt").read_text()), key=str.lower)
    (d / "names_sorted.txt").write_text("\n".join(names) + "\n")
    return "Sorted."


def _solve_rename_spaced_file(d: Path) -> str:
    (d / "meeting notes.txt").rename(d / "meeting-notes-2024.txt")
    return "Renamed."


def _solve_sort_downloads(d: Path) -> str:
    dl = d / "downloads"
    _move_matching(dl, dl / "images", {".jpg", ".png"})
    _move_matching(dl, dl / "docs", {".pdf", ".docx"})
    return "Tidied."


def _solve_change_port(d: Path) -> str:
    p = d / "config.ini"
    p.write_text(p.read_text().replace("port = 8080\n", "port = 9090\n"))
    return "Changed."


def _solve_count_nested_jpgs(d: Path) -> str:
    n = sum(1 for p in (d / "photos").rglob("*") if p.suffix.lower() == ".jpg")
    return f"{n} jpg photos"


def _solve_node_dependencies(d: Path) -> str:
    deps = json.loads((d / "package.json").read_text())["dependencies"]
    return "Dependencies: " + ", ".join(deps)


def _solve_top_product(d: Path) -> str:
    totals: dict[str, int] = {}
    with open(d / "orders.csv", newline="") as f:
        for r in csv.DictReader(f):
            totals[r["product"]] = totals.get(r["product"], 0) + int(r["units"])
    best = max(totals, key=lambda k: totals[k])
    return f"{best} with {totals[best]} units."


def _solve_reports_by_year(d: Path) -> str:
    for p in list(d.glob("report-*.txt")):
        year = p.name.split("-")[1]
        (d / year).mkdir(exist_ok=True)
        shutil.move(str(p), d / year / p.name)
    return "Moved."


_SOLVERS = {
    name[len("_solve_"):].replace("_", "-"): fn
    for name, fn in list(globals().items())
    if name.startswith("_solve_")
}


# ---------------------------------------------------------------- careless solutions
# Plausible sloppy attempts; the self-test checks these are caught.

def _careless_pdfs(d: Path) -> str:
    _move_matching(d, d / "documents", {".pdf"})
    shutil.move(str(d / "documents" / "Scan_001.PDF"), d / "Scan_001.PDF")
    return "Moved."


def _careless_poem(d: Path) -> str:
    text = (d / "poem.txt").read_text()
    return str(sum(1 for ln in text.splitlines() if ln != ""))


def _careless_backup(d: Path) -> str:
    (d / "backup").mkdir()
    for p in d.glob("*.csv"):
        shutil.copy2(p, d / "backup" / p.name)
    return "Copied 2 files."


def _careless_emails(d: Path) -> str:
    lines = (d / "emails.txt").read_text().splitlines()
    (d / "emails.txt").write_text("\n".join(dict.fromkeys(lines)) + "\n")
    return "Done."


def _careless_port(d: Path) -> str:
    p = d / "config.ini"
    p.write_text(p.read_text().replace("8080", "9090"))
    return "Done."


def _careless_top(d: Path) -> str:
    return "Desk Lamp (9 units in one order)."


def _careless_json_csv(d: Path) -> str:
    data = json.loads((d / "people.json").read_text())
    lines = ["name,age,city"] + [f"{p['name']},{p['age']},{p['city']}" for p in data]
    (d / "people.csv").write_text("\n".join(lines) + "\n")
    return "Done."


def _careless_sales(d: Path) -> str:
    lines = (d / "sales.csv").read_text().splitlines()[1:]
    return str(sum(float(ln.split(",")[-1]) for ln in lines if ln and "\"" not in ln))


_CARELESS = {
    "pdfs-to-documents": _careless_pdfs,
    "poem-nonblank-lines": _careless_poem,
    "backup-csvs": _careless_backup,
    "dedupe-emails": _careless_emails,
    "change-port": _careless_port,
    "top-product": _careless_top,
    "json-to-csv": _careless_json_csv,
    "sales-total": _careless_sales,
}


# ---------------------------------------------------------------- self-test

def _make(folder: Path, files: dict[str, str]) -> None:
    for rel, content in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


def _self_test() -> int:
    failures = 0
    names = [t["name"] for t in TASKS]
    if len(names) != len(set(names)):
        print("FAIL duplicate task names")
        failures += 1
    for task in TASKS:
        name = task["name"]
        problems = []
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            _make(d, task["files"])
            if task["check"](d, "") is None:
                problems.append("check passes on the untouched folder")
            answer = _SOLVERS[name](d)
            reason = task["check"](d, answer)
            if reason is not None:
                problems.append(f"check fails after solving: {reason}")
        if name in _CARELESS:
            with tempfile.TemporaryDirectory() as tmp:
                d = Path(tmp)
                _make(d, task["files"])
                answer = _CARELESS[name](d)
                if task["check"](d, answer) is None:
                    problems.append("careless solution passes")
        if problems:
            failures += 1
            print(f"FAIL {name}: {'; '.join(problems)}")
        else:
            print(f"ok   {name}")
    print(f"{len(TASKS)} tasks, {len(TASKS) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(_self_test())
