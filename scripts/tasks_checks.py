"""The check kinds of the task benchmark: what a suite's data may ask of a finished task.

A task's checks (benchmarks/tasks/*.yaml) are a list of {kind: arguments}; each kind here
reads the folder the task left, or the final answer, and returns None when its part of the
job is done, else one line saying what is wrong. A task passes when every check does.

Suites were written apart and each reads files and answers its own way (how numbers are
written, what counts as a mention, whether trailing blanks matter); a suite's `reading`
names its way once, so the same kind judges each suite as its author wrote it.
"""

from __future__ import annotations

import configparser
import contextlib
import csv
import io
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

# --- a suite's reading ------------------------------------------------------------------

READINGS: dict[str, tuple[str, ...]] = {
    # "1,234.5" as 1234.5, commas anywhere between digits; or thousands separators
    # (, space _ ' and no-break space) before each group of three digits.
    "numbers": ("commas", "separators"),
    # a word is mentioned anywhere (case aside), or only as a whole token (optionally plural)
    "mentions": ("substring", "token"),
    # files compare byte for byte, or up to line endings and trailing blanks
    "text": ("exact", "trimmed"),
    # undecodable bytes are replaced, or the file counts as unreadable
    "decode": ("replace", "strict"),
    # lines split as str.splitlines after a strip, or at "\n" only (CRLF as LF)
    "lines": ("splitlines", "newlines"),
}


@dataclass(frozen=True)
class Reading:
    numbers: str
    mentions: str
    text: str
    decode: str
    lines: str


@dataclass(frozen=True)
class Context:
    """What a check sees besides its arguments: the task's folder, answer and files."""

    folder: Path
    answer: str
    files: dict[str, str]
    reading: Reading

    def read(self, name: str) -> str | None:
        path = self.folder / name
        if self.reading.decode == "replace":
            return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def same(self, found: str | None, text: str, compare: str = "") -> bool:
        if found is None:
            return False
        compare = compare or self.reading.text
        if compare == "stripped":
            return found.strip() == text.strip()
        if compare == "trimmed":
            return found.replace("\r\n", "\n").rstrip() == text.replace("\r\n", "\n").rstrip()
        return found == text

    def lines(self, text: str | None) -> list[str]:
        if text is None:
            return []
        if self.reading.lines == "splitlines":
            raw = text.strip().splitlines()
        else:
            raw = text.replace("\r\n", "\n").split("\n")
        return [line.strip() for line in raw if line.strip()]

    def numbers(self, text: str) -> list[float]:
        if self.reading.numbers == "commas":
            found = [t.replace(",", "") for t in re.findall(r"-?\d[\d,]*(?:\.\d+)?", text)]
        else:
            plain = re.sub(r"(?<=\d)[,\u00a0 _'](?=\d{3}(?!\d))", "", (text or "").lower())
            found = re.findall(r"-?\d+(?:\.\d+)?", plain)
        values = []
        for item in found:
            try:
                values.append(float(item))
            except ValueError:
                continue
        return values

    def mentions(self, word: str, plural: bool = False) -> bool:
        if self.reading.mentions == "substring":
            return word.lower() in self.answer.lower()
        pattern = (r"(?<![\w.-])" + re.escape(word.lower()) + (r"(?:e?s)?" if plural else "")
                   + r"(?![\w-]|\.\w)")
        return re.search(pattern, (self.answer or "").lower()) is not None


# --- facts of this machine, for questions about it --------------------------------------

def usable_cpus() -> list[float]:
    counts = {os.cpu_count() or 0}
    with contextlib.suppress(AttributeError, OSError):
        counts.add(len(os.sched_getaffinity(0)))
    return sorted(float(n) for n in counts if n)


def node_version() -> str:
    done = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False)
    return done.stdout.strip().lstrip("v")


FACTS: dict[str, Callable[[], Any]] = {
    "cpu_count": lambda: [float(os.cpu_count() or 0)],
    "usable_cpus": usable_cpus,
    "hostname": socket.gethostname,
    "kernel_release": platform.release,
    "node_version": node_version,
}


def fact_or(args: dict[str, Any], key: str) -> Any:
    return FACTS[args["fact"]]() if "fact" in args else args[key]


# --- the kinds ----------------------------------------------------------------------------

def files_exist(c: Context, a: dict[str, Any]) -> str | None:
    missing = [p for p in a["paths"] if not (c.folder / p).is_file()]
    return f"missing: {missing}" if missing else None


def folder_exists(c: Context, a: dict[str, Any]) -> str | None:
    return None if (c.folder / a["path"]).is_dir() else f"no folder {a['path']}"


def absent(c: Context, a: dict[str, Any]) -> str | None:
    left = [p for p in a["paths"] if (c.folder / p).exists()]
    return f"should no longer be there: {left}" if left else None


def none_match(c: Context, a: dict[str, Any]) -> str | None:
    found = [p for p in c.folder.glob(a["glob"]) if p.is_file() or not a.get("files_only")]
    return f"still here: {sorted(str(p.relative_to(c.folder)) for p in found)}" if found else None


def file_equals(c: Context, a: dict[str, Any]) -> str | None:
    found = c.read(a["path"])
    if found is None:
        return f"{a['path']} is missing"
    return None if c.same(found, a["text"], a.get("compare", "")) else f"{a['path']} is wrong"


def unchanged(c: Context, a: dict[str, Any]) -> str | None:
    return next((f"{name} was changed or removed" for name, text in c.files.items()
                 if not c.same(c.read(name), text)), None)


def file_text(c: Context, a: dict[str, Any]) -> str | None:
    text = c.read(a["path"]) or ""
    if text.startswith(a.get("starts_with", "")) and text.rstrip("\n").endswith(
            a.get("ends_with", "")):
        return None
    return f"{a['path']} does not start and end as asked: {text[-40:]!r}"


def lines(c: Context, a: dict[str, Any]) -> str | None:
    """The file's non-blank lines, each optionally rewritten (a regex and its replacement),
    stripped of trailing `trim_end` characters and lower-cased, against the wanted ones."""
    got = c.lines(c.read(a["path"]))
    if "rewrite" in a:
        got = [re.sub(a["rewrite"][0], a["rewrite"][1], line) for line in got]
    if "trim_end" in a:
        got = [line.rstrip(a["trim_end"]).strip() for line in got]
    if a.get("lower"):
        got = [line.lower() for line in got]
    if a.get("sort"):
        got = sorted(got)
    wrong = f"{a['path']} holds {got}"
    if a.get("unique") and len(got) != len(set(got)):
        return f"{a['path']} has duplicate lines"
    if "as_set" in a:
        return None if set(got) == set(a["as_set"]) else wrong
    return None if got in a.get("any_of", [a.get("equals")]) else wrong


def parsed_json(c: Context, path: str) -> tuple[Any, str | None]:
    try:
        return json.loads(c.read(path) or ""), None
    except ValueError:
        return None, f"{path} is missing or not JSON"


def json_equals(c: Context, a: dict[str, Any]) -> str | None:
    """The whole document; with `key_lstrip`/`drop_keys` an object's keys are cleaned first."""
    data, problem = parsed_json(c, a["path"])
    if problem:
        return problem
    if "key_lstrip" in a or "drop_keys" in a:
        if not isinstance(data, dict):
            return f"{a['path']} is not an object"
        strip = a.get("key_lstrip", "")
        data = {k.lstrip(strip): v for k, v in data.items()
                if k.lstrip(strip) not in a.get("drop_keys", [])}
    return None if data == a["value"] else f"{a['path']} is {data}"


def json_at(c: Context, a: dict[str, Any]) -> str | None:
    data, problem = parsed_json(c, a["path"])
    if problem:
        return problem
    if not isinstance(data, dict):
        return f"{a['path']} is not an object"
    got = data.get(a["key"])
    return None if got == a["equals"] else f"{a['path']} has {a['key']} = {got!r}"


def json_records(c: Context, a: dict[str, Any]) -> str | None:
    """A list of objects, one per wanted row, whose `keys` hold the row's values as text;
    `loose`: keys match with blanks and case aside, values with blanks aside."""
    data, problem = parsed_json(c, a["path"])
    if problem:
        return problem
    if not isinstance(data, list) or len(data) != len(a["rows"]):
        return f"{a['path']} is not a list of {len(a['rows'])} objects"
    if not all(isinstance(item, dict) for item in data):
        return f"{a['path']} holds something other than objects"
    got = []
    for item in data:
        if a.get("loose"):
            item = {str(k).strip().lower(): str(v).strip() for k, v in item.items()}
            got.append([item.get(k) for k in a["keys"]])
        else:
            got.append([str(item.get(k)) for k in a["keys"]])
    return None if got == a["rows"] else f"{a['path']} holds {got}"


def csv_column(c: Context, a: dict[str, Any]) -> str | None:
    """One column's values in order (and, given `header`, the columns in order)."""
    text = c.read(a["path"])
    if text is None:
        return f"{a['path']} is missing"
    rows = list(csv.DictReader(io.StringIO(text.strip())))
    got = [r.get(a["column"]) for r in rows]
    if got != a["values"]:
        return f"{a['path']} {a['column']} values are {got}"
    if "header" in a and list(rows[0]) != a["header"]:
        return f"{a['path']} lost its header"
    return None


def csv_numbers(c: Context, a: dict[str, Any]) -> str | None:
    """A number per key: column `key` names the row, column `column` holds its number."""
    text = c.read(a["path"])
    if text is None:
        return f"{a['path']} is missing"
    try:
        got = {r[a["key"]]: float(r[a["column"]])
               for r in csv.DictReader(io.StringIO(text.strip()))}
    except (KeyError, ValueError, TypeError):
        return f"{a['path']} has no {a['key']},{a['column']} columns"
    want, tolerance = a["values"], a.get("tolerance", 0.0)
    if set(got) != set(want) or any(abs(got[k] - want[k]) > tolerance for k in want):
        return f"{a['path']} is {got}"
    return None


def csv_rows(c: Context, a: dict[str, Any]) -> str | None:
    """The header (case aside) and then exactly these rows, in any order, blanks aside."""
    text = c.read(a["path"])
    if text is None:
        return f"{a['path']} is missing"
    rows = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text))
            if any(cell.strip() for cell in row)]
    if not rows or [h.lower() for h in rows[0]] != a["header"]:
        return f"{a['path']} does not start with the header {a['header']}"
    got = sorted(tuple(row) for row in rows[1:])
    if got != sorted(tuple(row) for row in a["rows"]):
        return f"{a['path']} has {len(got)} data rows, not the {len(a['rows'])} wanted"
    return None


def ini(c: Context, a: dict[str, Any]) -> str | None:
    text = c.read(a["path"])
    if text is None:
        return f"{a['path']} is missing"
    parser = configparser.ConfigParser()
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        return f"{a['path']} no longer parses: {exc}"
    for section, values in a["values"].items():
        for key, want in values.items():
            got = parser.get(section, key, fallback=None)
            if got is None or got.strip() != want:
                return f"[{section}] {key} is {got!r}, not {want!r}"
    return None


def archive_files(path: Path) -> list[tuple[str, str]]:
    """(base name, text) of each entry of a .zip (its text unread), or of each regular file
    of a .tar.gz, in archive order."""
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as archive:
            return [(Path(n).name, "") for n in archive.namelist()]
    found = []
    with tarfile.open(path, "r:gz") as archive:
        for member in archive.getmembers():
            if member.isfile():
                data = archive.extractfile(member)
                text = data.read().decode("utf-8", "replace") if data else ""
                found.append((PurePosixPath(member.name).name, text))
    return found


def archive(c: Context, a: dict[str, Any]) -> str | None:
    """`members`: exactly these base names; `contains`: at least these files, by base name."""
    path = c.folder / a["path"]
    if not path.is_file():
        return f"{a['path']} is missing"
    try:
        found = archive_files(path)
    except (zipfile.BadZipFile, tarfile.TarError, OSError, EOFError) as exc:
        return f"{a['path']} is not a readable archive: {exc}"
    names = sorted(name for name, _ in found)
    if "members" in a and names != a["members"]:
        return f"{a['path']} holds {names}"
    texts = dict(found)
    wrong = [n for n, text in a.get("contains", {}).items()
             if n not in texts or not c.same(texts[n], text)]
    return f"{a['path']} lacks {wrong[0]} with its content" if wrong else None


def program(c: Context, a: dict[str, Any]) -> str | None:
    """Run a command in the folder: it prints `prints` (stripped) or a line with the number
    `prints_number`; `exit_zero` asks a clean exit; `needs` skips it when that program is
    not installed."""
    if "needs" in a and shutil.which(a["needs"]) is None:
        return None
    try:
        done = subprocess.run(a["run"], cwd=c.folder, capture_output=True, text=True,
                              timeout=a.get("timeout", 30), check=False)
    except subprocess.TimeoutExpired:
        return f"{' '.join(a['run'])} timed out"
    if a.get("exit_zero") and done.returncode != 0:
        return f"{' '.join(a['run'])} failed: {done.stderr.strip().splitlines()[-1:]}"
    if "prints" in a and done.stdout.strip() != a["prints"]:
        return f"{' '.join(a['run'])} prints {done.stdout.strip()[:60]!r}"
    if "prints_number" in a and not any(
            abs(n - a["prints_number"]) <= 1e-6 for n in c.numbers(done.stdout)):
        return f"{' '.join(a['run'])} does not print {a['prints_number']:g}"
    return None


def answer_number(c: Context, a: dict[str, Any]) -> str | None:
    """The answer gives the number (or one of the numbers) within `tolerance`."""
    wanted = fact_or(a, "value")
    wanted = wanted if isinstance(wanted, list) else [wanted]
    tolerance = a.get("tolerance", 1e-6)
    found = c.numbers(c.answer)
    if any(abs(n - w) <= tolerance for n in found for w in wanted):
        return None
    return f"the answer does not give {' or '.join(f'{w:g}' for w in wanted)}: {c.answer[:120]!r}"


def answer_mentions(c: Context, a: dict[str, Any]) -> str | None:
    """Each of `words` (a word, or a list of which any one will do) is mentioned; with
    `anywhere`, inside other words too whatever the suite's reading; with `short_version`,
    a release like 6.1.0-18-amd64 may be given as 6.1.0."""
    words = [FACTS[a["fact"]]()] if "fact" in a else a["words"]
    for word in words:
        aliases = word if isinstance(word, list) else [word]
        if any(c.mentions(alias, a.get("plural", False)) for alias in aliases):
            continue
        if a.get("anywhere") and aliases[0].lower() in c.answer.lower():
            continue
        short = re.match(r"\d+\.\d+(?:\.\d+)?", aliases[0]) if a.get("short_version") else None
        if short and re.search(r"(?<![\d.])" + re.escape(short.group()) + r"(?![\d])",
                               c.answer.lower()):
            continue
        return f"the answer does not mention {aliases[0]!r}: {c.answer[:120]!r}"
    return None


def answer_names_first(c: Context, a: dict[str, Any]) -> str | None:
    """The answer names `name` before any other file of the task: an answer that lists
    every file names the right one too."""
    lowered = c.answer.lower()
    found = {Path(n).name: lowered.find(Path(n).name.lower()) for n in c.files}
    named = sorted((at, n) for n, at in found.items() if at >= 0)
    if not named or named[0][1] != a["name"]:
        first = named[0][1] if named else "no file"
        return f"the answer names {first} first, not {a['name']!r}: {c.answer[:120]!r}"
    return None


def answer_lists_at_most(c: Context, a: dict[str, Any]) -> str | None:
    """At most `count` of `words` are mentioned: an answer listing them all singles out none."""
    named = [w for w in a["words"] if c.mentions(w, a.get("plural", False))]
    return f"the answer lists {named}" if len(named) > a["count"] else None


def answer_omits(c: Context, a: dict[str, Any]) -> str | None:
    """None of `words` (each a word or a list of aliases) is mentioned, unless the answer
    matches `unless` (it says they are not what was asked)."""
    named = [w for w in a["words"]
             if any(c.mentions(alias) for alias in (w if isinstance(w, list) else [w]))]
    unless = a.get("unless")
    if named and not (unless and re.search(unless, c.answer.lower().replace("\u2019", "'"))):
        return f"the answer wrongly includes {named[0]}"
    return None


@dataclass(frozen=True)
class Kind:
    """A check kind: its function, the fields it needs, those it may have, and the field a
    bare value stands for (`absent: notes.txt` is `absent: {paths: [notes.txt]}`)."""

    check: Callable[[Context, dict[str, Any]], str | None]
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()
    bare: str = ""
    one_of: tuple[str, ...] = ()  # at least one of these


KINDS: dict[str, Kind] = {
    "files_exist": Kind(files_exist, ("paths",), bare="paths"),
    "folder_exists": Kind(folder_exists, ("path",), bare="path"),
    "absent": Kind(absent, ("paths",), bare="paths"),
    "none_match": Kind(none_match, ("glob",), ("files_only",), bare="glob"),
    "file_equals": Kind(file_equals, ("path", "text"), ("compare",)),
    "unchanged": Kind(unchanged, ()),
    "file_text": Kind(file_text, ("path",), ("starts_with", "ends_with")),
    "lines": Kind(lines, ("path",), ("rewrite", "trim_end", "lower", "sort", "unique",
                                     "equals", "any_of", "as_set"),
                  one_of=("equals", "any_of", "as_set")),
    "json_equals": Kind(json_equals, ("path", "value"), ("key_lstrip", "drop_keys")),
    "json_at": Kind(json_at, ("path", "key", "equals")),
    "json_records": Kind(json_records, ("path", "keys", "rows"), ("loose",)),
    "csv_column": Kind(csv_column, ("path", "column", "values"), ("header",)),
    "csv_numbers": Kind(csv_numbers, ("path", "key", "column", "values"), ("tolerance",)),
    "csv_rows": Kind(csv_rows, ("path", "header", "rows")),
    "ini": Kind(ini, ("path", "values")),
    "archive": Kind(archive, ("path",), ("members", "contains"),
                    one_of=("members", "contains")),
    "program": Kind(program, ("run",), ("prints", "prints_number", "exit_zero", "needs",
                                        "timeout")),
    "answer_number": Kind(answer_number, (), ("value", "fact", "tolerance"), bare="value",
                          one_of=("value", "fact")),
    "answer_mentions": Kind(answer_mentions, (), ("words", "fact", "plural", "anywhere",
                                                  "short_version"),
                            bare="words", one_of=("words", "fact")),
    "answer_names_first": Kind(answer_names_first, ("name",), bare="name"),
    "answer_lists_at_most": Kind(answer_lists_at_most, ("words", "count"), ("plural",)),
    "answer_omits": Kind(answer_omits, ("words",), ("unless",)),
}
