"""The check kinds of the task benchmark: what a suite's data may ask of a finished task.

A task's checks (benchmarks/tasks/*.yaml) are a list of {kind: arguments}; each kind reads
the folder the task left (here) or the final answer (answers.py) and returns None when
its part of the job is done, else one line saying what is wrong. A task passes when every
check does. How a suite reads files and answers is its `reading` (reading.py).
"""

from __future__ import annotations

import configparser
import csv
import io
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any

from benchmarks.tasks.answers import (
    answer_lists_at_most,
    answer_mentions,
    answer_names_first,
    answer_number,
    answer_omits,
    answer_picks,
    answer_when,
)
from benchmarks.tasks.files import (
    archive,
    archive_holds,
    checksums,
    csv_amounts,
    csv_split,
    file_duration,
    file_parts,
    folder_is,
    folder_texts,
    holds_in_order,
    lists_locations,
    matches,
)
from benchmarks.tasks.reading import Context
from benchmarks.tasks.reported import KINDS as REPORTED


def files_exist(c: Context, a: dict[str, Any]) -> str | None:
    missing = [p for p in a["paths"] if not (c.folder / p).is_file()]
    return f"missing: {missing}" if missing else None


def folder_exists(c: Context, a: dict[str, Any]) -> str | None:
    return None if (c.folder / a["path"]).is_dir() else f"no folder {a['path']}"


def absent(c: Context, a: dict[str, Any]) -> str | None:
    left = [p for p in a["paths"] if (c.folder / p).exists()]
    return f"should no longer be there: {left}" if left else None


def none_match(c: Context, a: dict[str, Any]) -> str | None:
    """Nothing matches the glob (only files, or only folders, if asked)."""
    found = [p for p in c.folder.glob(a["glob"])
             if not (a.get("files_only") and not p.is_file())
             and not (a.get("folders_only") and not p.is_dir())]
    return f"still here: {sorted(str(p.relative_to(c.folder)) for p in found)}" if found else None


def file_equals(c: Context, a: dict[str, Any]) -> str | None:
    found = c.read(a["path"])
    if found is None:
        return f"{a['path']} is missing"
    return None if c.same(found, a["text"], a.get("compare", "")) else f"{a['path']} is wrong"


def sorted_into(c: Context, a: dict[str, Any]) -> str | None:
    """The file sits in a top-level folder whose name contains `folder_contains`, with its
    text (the first such place found is the one judged)."""
    homes = [p for p in c.folder.glob(f"*/{a['path']}") if a["folder_contains"] in p.parent.name]
    if not homes:
        return f"{a['path']} is not in a folder named with {a['folder_contains']!r}"
    text = c.read(str(homes[0].relative_to(c.folder)))
    return None if c.same(text, a["text"]) else f"{a['path']} was changed"


def folders_named(c: Context, a: dict[str, Any]) -> str | None:
    """Exactly `count` top-level folders have `containing` in their name."""
    found = [d.name for d in c.folder.iterdir() if d.is_dir() and a["containing"] in d.name]
    return None if len(found) == a["count"] else f"folders named with {a['containing']!r}: {found}"


def keeps_one_of(c: Context, a: dict[str, Any]) -> str | None:
    """Exactly one of these files (copies of one text) is left, with that text."""
    left = [p for p in a["paths"] if (c.folder / p).is_file()]
    if len(left) != 1:
        return f"expected exactly one of {a['paths']} to remain, found {left}"
    return None if c.same(c.read(left[0]), a["text"]) else f"{left[0]} was changed"


def dated_copy(c: Context, a: dict[str, Any]) -> str | None:
    """Some other file, named with today's date (as any of a few common spellings; or
    yesterday's, or today's in UTC), is a copy of `text`."""
    days = {date.today(), date.today() - timedelta(days=1), datetime.now(timezone.utc).date()}
    spellings = {d.strftime(f) for d in days
                 for f in ("%Y-%m-%d", "%Y%m%d", "%Y_%m_%d", "%d-%m-%Y", "%Y.%m.%d")}
    for path in sorted(p for p in c.folder.rglob("*") if p.is_file()):
        rel = path.relative_to(c.folder).as_posix()
        if rel != a["path"] and any(s in path.name for s in spellings):
            return None if c.same(c.read(rel), a["text"]) else f"{rel} is not a copy"
    return f"no copy of {a['path']} with today's date in its name"


def folder_holds(c: Context, a: dict[str, Any]) -> str | None:
    """The folder holds these files, their names matched case aside, with their text."""
    folder = c.folder / a["folder"]
    if not folder.is_dir():
        return f"no folder {a['folder']}"
    inside = {p.name.lower(): p for p in folder.iterdir() if p.is_file()}
    for name, text in a["files"].items():
        path = inside.get(name.lower())
        if path is None:
            return f"{name} is not in {a['folder']}/"
        if not c.same(c.read(str(path.relative_to(c.folder))), text, a.get("compare", "")):
            return f"{a['folder']}/{path.name} has the wrong content"
    return None


def folder_lacks(c: Context, a: dict[str, Any]) -> str | None:
    """None of these names (case aside) is a file in the folder."""
    folder = c.folder / a["folder"]
    inside = {p.name.lower() for p in folder.iterdir() if p.is_file()} if folder.is_dir() else set()
    there = [n for n in a["names"] if n.lower() in inside]
    return f"{there[0]} should not be in {a['folder']}/" if there else None


def file_mentions(c: Context, a: dict[str, Any]) -> str | None:
    """The file's text (case aside) holds each of `words` and none of `none_of`; with
    `one_per_line`, no line holds two of `words`."""
    text = c.read(a["path"])
    if text is None:
        return f"{a['path']} is missing"
    low = text.lower()
    missing = [w for w in a["words"] if w not in low]
    wrong = [w for w in a.get("none_of", []) if w in low]
    if missing or wrong:
        return f"{a['path']} lacks {missing} or holds {wrong}"
    if a.get("one_per_line") and any(sum(w in line.lower() for w in a["words"]) > 1
                                     for line in c.lines(text)):
        return f"{a['path']} puts several on one line"
    return None


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
    stripped of `trim_end` characters at the end or `trim` characters at both ends, those
    left empty dropped (`skip_emptied`), lower-cased, sorted, against the wanted ones;
    `keep_indent`: a line's leading blanks count."""
    text = c.read(a["path"])
    got = ([line.rstrip() for line in (text or "").splitlines() if line.strip()]
           if a.get("keep_indent") else c.lines(text))
    if "rewrite" in a:
        got = [re.sub(a["rewrite"][0], a["rewrite"][1], line) for line in got]
    if "trim_end" in a:
        got = [line.rstrip(a["trim_end"]).strip() for line in got]
    if "trim" in a:
        got = [line.strip(a["trim"]).strip() for line in got]
    if a.get("skip_emptied"):
        got = [line for line in got if line]
    if a.get("lower"):
        got = [line.lower() for line in got]
    if a.get("sort"):
        got = sorted(got)
    wrong = f"{a['path']} holds {got}"
    if a.get("unique") and len(got) != len(set(got)):
        return f"{a['path']} has duplicate lines"
    if "has_each" in a:
        lacking = [w for w in a["has_each"] if not set(w if isinstance(w, list) else [w])
                   & set(got)]
        return f"{a['path']} has no line {lacking[0]!r}" if lacking else None
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
    """The object's `key` (any case, with `any_case_keys`) equals `equals` (as text with
    `as_text`, case aside with `lower`) or is one of `one_of`."""
    data, problem = parsed_json(c, a["path"])
    if problem:
        return problem
    if not isinstance(data, dict):
        return f"{a['path']} is not an object"
    if a.get("any_case_keys"):
        data = {str(k).lower(): v for k, v in data.items()}
    got = data.get(a["key"])
    if a.get("as_text"):
        got = str(got).lower() if a.get("lower") else str(got)
    right = got in a["one_of"] if "one_of" in a else got == a["equals"]
    return None if right else f"{a['path']} has {a['key']} = {got!r}"


def json_counts(c: Context, a: dict[str, Any]) -> str | None:
    """An object of counts, keys in any case (a key may go by an alias: WARN as WARNING),
    each a whole number equal to the one wanted."""
    data, problem = parsed_json(c, a["path"])
    if problem:
        return problem
    if not isinstance(data, dict):
        return f"{a['path']} is not an object"
    upper = {str(k).upper(): v for k, v in data.items()}
    for key, count in a["counts"].items():
        alias = a.get("aliases", {}).get(key)
        got = upper.get(key, upper.get(alias) if alias else None)
        try:
            right = got is not None and not isinstance(got, bool) and int(got) == count
        except (TypeError, ValueError):
            right = False
        if not right:
            return f"{a['path']}: {key} is {got!r}, not {count}"
    return None


def json_records(c: Context, a: dict[str, Any]) -> str | None:
    """A list of objects, one per wanted row, whose `keys` hold the row's values as text;
    `loose`: keys match with blanks and case aside, values with blanks aside;
    `strict_keys`: the objects have exactly these keys, values match with blanks aside."""
    data, problem = parsed_json(c, a["path"])
    if problem:
        return problem
    if not isinstance(data, list) or len(data) != len(a["rows"]):
        return f"{a['path']} is not a list of {len(a['rows'])} objects"
    if not all(isinstance(item, dict) for item in data):
        return f"{a['path']} holds something other than objects"
    got = []
    for item in data:
        if a.get("strict_keys"):
            if set(item) != set(a["keys"]):
                return f"an object of {a['path']} has the keys {sorted(item)}"
            got.append([str(item[k]).strip() for k in a["keys"]])
        elif a.get("loose"):
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
    """The header (case aside, unless `exact_header`) and then exactly these rows, in any
    order (unless `ordered`), blanks aside; rows of blank cells are skipped (unless
    `keep_blank_rows`)."""
    text = c.read(a["path"])
    if text is None:
        return f"{a['path']} is missing"
    rows = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text))
            if any(row if a.get("keep_blank_rows") else (cell.strip() for cell in row))]
    header = (rows[0] if a.get("exact_header") else [h.lower() for h in rows[0]]) if rows else []
    loose = a.get("any_column_order")
    if not rows or (sorted(header) if loose else header) != (
            sorted(a["header"]) if loose else a["header"]):
        return f"{a['path']} does not start with the header {a['header']}"
    data = rows[1:]
    if loose:
        if any(len(row) != len(header) for row in data):
            return f"{a['path']} has a row of other than {len(header)} cells"
        data = [[row[header.index(h)] for h in a["header"]] for row in data]
    blank = [b.lower() for b in a.get("blank_as", [])]
    got = [tuple("" if x.lower() in blank else x for x in row) for row in data]
    want = [tuple(row) for row in a["rows"]]
    if a.get("ordered"):
        for n, (row, wanted) in enumerate(zip(got, want, strict=False), start=1):
            if row != wanted:
                return f"{a['path']} data row {n} is {list(row)}, not {list(wanted)}"
    else:
        extra = [list(row) for row in sorted(set(got) - set(want))]
        lacking = [list(row) for row in sorted(set(want) - set(got))]
        if extra or lacking:
            return f"{a['path']} has rows {extra} not wanted and lacks {lacking}"
    if sorted(got) != sorted(want):
        return f"{a['path']} has {len(got)} data rows, not the {len(want)} wanted"
    return None


def markdown_table(c: Context, a: dict[str, Any]) -> str | None:
    """The lines with a | are one table: the header (case aside), a separator row (---,
    optionally with colons), then exactly these rows in order."""
    text = c.read(a["path"])
    if text is None:
        return f"{a['path']} is missing"
    rows = []
    for line in (ln.strip() for ln in text.splitlines() if "|" in ln):
        line = line[1:] if line.startswith("|") else line
        line = line[:-1] if line.endswith("|") else line
        rows.append([cell.strip() for cell in line.split("|")])
    header = a["header"]
    if len(rows) != len(a["rows"]) + 2:
        return f"{a['path']} has {len(rows)} table lines, not {len(a['rows']) + 2}"
    if [cell.lower() for cell in rows[0]] != [h.lower() for h in header]:
        return f"{a['path']} header row is {rows[0]}"
    if len(rows[1]) != len(header) or not all(re.fullmatch(r":?-{3,}:?", x) for x in rows[1]):
        return f"{a['path']}: the second line is not a separator row"
    wrong = [row for row, want in zip(rows[2:], a["rows"], strict=True) if row != want]
    return f"{a['path']}: row {wrong[0]} is wrong" if wrong else None


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
            right = ((got or "").strip().lower() in want if isinstance(want, list)
                     else got is not None and got.strip() == want)
            if not right:
                return f"[{section}] {key} is {got!r}, not {want!r}"
    if "sections" in a and parser.sections() != a["sections"]:
        return f"{a['path']} has the sections {parser.sections()}"
    return None


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
    if "prints_number" in a and not c.has_number(done.stdout, a["prints_number"], 1e-6):
        return f"{' '.join(a['run'])} does not print {a['prints_number']:g}"
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
    "none_match": Kind(none_match, ("glob",), ("files_only", "folders_only"), bare="glob"),
    "sorted_into": Kind(sorted_into, ("path", "folder_contains", "text")),
    "folders_named": Kind(folders_named, ("containing", "count")),
    "keeps_one_of": Kind(keeps_one_of, ("paths", "text")),
    "folder_holds": Kind(folder_holds, ("folder", "files"), ("compare",)),
    "folder_lacks": Kind(folder_lacks, ("folder", "names")),
    "file_mentions": Kind(file_mentions, ("path", "words"), ("none_of", "one_per_line")),
    "dated_copy": Kind(dated_copy, ("path", "text")),
    "file_equals": Kind(file_equals, ("path", "text"), ("compare",)),
    "unchanged": Kind(unchanged, ()),
    "file_text": Kind(file_text, ("path",), ("starts_with", "ends_with")),
    "lines": Kind(lines, ("path",), ("rewrite", "trim_end", "trim", "skip_emptied", "lower",
                                     "sort", "unique", "equals", "any_of", "as_set",
                                     "has_each", "keep_indent"),
                  one_of=("equals", "any_of", "as_set", "has_each")),
    "json_equals": Kind(json_equals, ("path", "value"), ("key_lstrip", "drop_keys")),
    "json_at": Kind(json_at, ("path", "key"), ("equals", "one_of", "any_case_keys", "as_text",
                                              "lower"), one_of=("equals", "one_of")),
    "json_counts": Kind(json_counts, ("path", "counts"), ("aliases",)),
    "json_records": Kind(json_records, ("path", "keys", "rows"), ("loose", "strict_keys")),
    "csv_column": Kind(csv_column, ("path", "column", "values"), ("header",)),
    "csv_numbers": Kind(csv_numbers, ("path", "key", "column", "values"), ("tolerance",)),
    "csv_rows": Kind(csv_rows, ("path", "header", "rows"), ("exact_header", "ordered",
                                                           "keep_blank_rows", "any_column_order",
                                                           "blank_as")),
    "markdown_table": Kind(markdown_table, ("path", "header", "rows")),
    "ini": Kind(ini, ("path", "values"), ("sections",)),
    "archive": Kind(archive, ("path",), ("members", "contains", "by_path", "relative_to",
                                         "prefix_optional", "compare"),
                    one_of=("members", "contains")),
    "archive_holds": Kind(archive_holds, ("path", "files"), ("prefix_optional",)),
    "matches": Kind(matches, ("glob", "count")),
    "folder_is": Kind(folder_is, ("folder", "files")),
    "folder_texts": Kind(folder_texts, ("folder", "texts")),
    "holds_in_order": Kind(holds_in_order, ("paths", "texts")),
    "lists_locations": Kind(lists_locations, ("path", "entries")),
    "checksums": Kind(checksums, ("path", "algorithm", "of")),
    "file_parts": Kind(file_parts, ("paths", "lines", "of")),
    "file_duration": Kind(file_duration, ("path", "seconds")),
    "csv_amounts": Kind(csv_amounts, ("path", "rows"), ("tolerance",)),
    "csv_split": Kind(csv_split, ("glob", "key_column", "header", "rows"), ("except",)),
    "program": Kind(program, ("run",), ("prints", "prints_number", "exit_zero", "needs",
                                        "timeout")),
    "answer_number": Kind(answer_number, (), ("value", "fact", "tolerance", "decoys", "ignore",
                                             "max_distinct", "kib_as_bytes"),
                          bare="value", one_of=("value", "fact")),
    "answer_picks": Kind(answer_picks, ("name", "among"), ("aliases", "max_others"),),
    "answer_when": Kind(answer_when, ("as", "value", "max_distinct"), ("decoys", "among",
                                                                         "ignore")),
    "answer_mentions": Kind(answer_mentions, (), ("words", "fact", "plural", "anywhere",
                                                  "short_version"),
                            bare="words", one_of=("words", "fact")),
    "answer_names_first": Kind(answer_names_first, ("name",), ("among",), bare="name"),
    "answer_lists_at_most": Kind(answer_lists_at_most, ("words", "count"), ("plural",)),
    "answer_omits": Kind(answer_omits, ("words",), ("unless", "word_bounds")),
}
KINDS.update({name: Kind(*spec) for name, spec in REPORTED.items()})
