"""Check kinds about archives and sets of files: what is packed, split, listed or summed
across a folder, beyond one file's text (those kinds are in checks.py, which lists
them all)."""

from __future__ import annotations

import csv
import hashlib
import io
import re
import tarfile
import zipfile
from collections import Counter
from pathlib import Path, PurePosixPath
from typing import Any

from benchmarks.tasks.reading import Context


def member_name(name: str, a: dict[str, Any]) -> str:
    """How a .tar.gz member is named: its base name; its path without a leading ./ or /
    (`by_path`); or its path below the first folder named `relative_to`."""
    if "relative_to" in a:
        name = re.sub(r"^(?:\./)+", "", name).strip("/")
        mark = f"/{a['relative_to']}/"
        return ("/" + name).split(mark, 1)[1] if mark in "/" + name else name
    return name.lstrip("./") if a.get("by_path") else PurePosixPath(name).name


def archive_files(path: Path, a: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, text) of each entry of a .zip (base names, text unread), or of each regular
    file of a .tar.gz (named by member_name), in archive order."""
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as archive:
            return [(Path(n).name, "") for n in archive.namelist()]
    found = []
    with tarfile.open(path, "r:gz") as archive:
        for member in archive.getmembers():
            if member.isfile():
                data = archive.extractfile(member)
                text = data.read().decode("utf-8", "replace") if data else ""
                found.append((member_name(member.name, a), text))
    return found


def archive(c: Context, a: dict[str, Any]) -> str | None:
    """`members`: exactly these base names; `contains`: at least these files with their
    text, by base name (by path with `by_path`; with `prefix_optional`, a path may also be
    stored without that leading folder)."""
    path = c.folder / a["path"]
    if not path.is_file():
        return f"{a['path']} is missing"
    try:
        found = archive_files(path, a)
    except (zipfile.BadZipFile, tarfile.TarError, OSError, EOFError) as exc:
        return f"{a['path']} is not a readable archive: {exc}"
    names = sorted(name for name, _ in found)
    if "members" in a and names != a["members"]:
        return f"{a['path']} holds {names}"
    texts = dict(found)
    for name, text in a.get("contains", {}).items():
        inner = name.removeprefix(a.get("prefix_optional", ""))
        hit = [n for n in texts if n in (name, inner)]
        if not hit or not c.same(texts[hit[0]], text, a.get("compare", "")):
            return f"{a['path']} lacks {name} with its content"
    return None


def archive_paths(path: Path) -> dict[str, str]:
    """Path -> text of each regular file of a .zip or .tar.gz, as stored (strictly UTF-8:
    an entry that is not text breaks the check)."""
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as archive:
            return {n: archive.read(n).decode() for n in archive.namelist()
                    if not n.endswith("/")}
    with tarfile.open(path, "r:gz") as archive:
        return {m.name: data.read().decode() for m in archive.getmembers()
                if m.isfile() and (data := archive.extractfile(m))}


def archive_holds(c: Context, a: dict[str, Any]) -> str | None:
    """Exactly these files, by path (a leading ./ and the folder `prefix_optional` aside),
    each with its text."""
    path = c.folder / a["path"]
    if not path.is_file():
        return f"{a['path']} is missing"
    found = {}
    for name, text in archive_paths(path).items():
        name = name.removeprefix("./").removeprefix(a.get("prefix_optional", ""))
        found[name] = text
    if set(found) != set(a["files"]):
        return f"{a['path']} holds {sorted(found)}"
    wrong = [n for n, text in a["files"].items() if not c.same(found[n], text)]
    return f"{wrong[0]} in {a['path']} differs from the original" if wrong else None


def matches(c: Context, a: dict[str, Any]) -> str | None:
    """Exactly `count` paths (files or folders) match the glob (`**/` for subfolders)."""
    found = list(c.folder.glob(a["glob"]))
    return None if len(found) == a["count"] else f"{len(found)} paths match {a['glob']}"


def folder_is(c: Context, a: dict[str, Any]) -> str | None:
    """The folder holds exactly these files, subfolders too, by path, with their text."""
    base = c.folder / a["folder"]
    have = {p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file()} \
        if base.is_dir() else set()
    if have != set(a["files"]):
        return (f"{a['folder']} lacks {sorted(set(a['files']) - have)[:2]}, "
                f"holds {sorted(have - set(a['files']))[:2]}")
    wrong = [n for n, text in a["files"].items()
             if not c.same(c.read(f"{a['folder']}/{n}"), text)]
    return f"{a['folder']}/{wrong[0]} has the wrong content" if wrong else None


def folder_texts(c: Context, a: dict[str, Any]) -> str | None:
    """The folder's files (not its subfolders') hold these texts, each exactly once,
    whatever their names."""
    base = c.folder / a["folder"]
    found = Counter(p.read_text(encoding="utf-8") for p in base.iterdir() if p.is_file()) \
        if base.is_dir() else Counter()
    return None if found == Counter(set(a["texts"])) else f"{a['folder']} holds {dict(found)}"


def holds_in_order(c: Context, a: dict[str, Any]) -> str | None:
    """The first of `paths` that is a file holds each of `texts` exactly once, in order."""
    path = next((p for p in a["paths"] if (c.folder / p).is_file()), None)
    text = c.read(path) if path else None
    if path is None or text is None:
        return f"none of {a['paths']} is there"
    if any(text.count(t) != 1 for t in a["texts"]):
        return f"{path} does not hold each part exactly once"
    at = [text.index(t) for t in a["texts"]]
    return None if at == sorted(at) else f"{path} has the parts out of order"


def lists_locations(c: Context, a: dict[str, Any]) -> str | None:
    """For each `entries` item [file, line, words]: the first line of the file holding the
    words (case aside) gives the line number and the file's base name, or the name heads
    its group (the nearest earlier line naming a file of that extension names it)."""
    text = c.read(a["path"])
    if text is None:
        return f"{a['path']} is missing"
    rows = text.splitlines()
    for file, number, words in a["entries"]:
        base = PurePosixPath(file).name.lower()
        hit = next((i for i, row in enumerate(rows) if words.lower() in row.lower()), None)
        if hit is None:
            return f"{words!r} ({file}) is not in {a['path']}"
        if not re.search(rf"(?<!\d){number}(?!\d)", rows[hit]):
            return f"line number {number} missing for {words!r}"
        suffix = re.escape(PurePosixPath(base).suffix)
        heading = next((rows[j] for j in range(hit - 1, -1, -1)
                        if re.search(rf"\w{suffix}\b", rows[j])), "")
        if base not in rows[hit].lower() and base not in heading.lower():
            return f"file name {base} not given for {words!r}"
    return None


def checksums(c: Context, a: dict[str, Any]) -> str | None:
    """A sha256sum-style file (`hash  name` or `hash *name`; names relative to its folder,
    a leading ./ or that folder aside) with the right `algorithm` sum of each starting file
    in `of`, and no other entry but itself."""
    sums = PurePosixPath(a["path"])
    text = c.read(a["path"])
    if text is None:
        return f"{a['path']} is missing"
    got = {}
    for line in filter(str.strip, text.splitlines()):
        m = re.match(r"^([0-9a-fA-F]+) [ *](.+)$", line.strip())
        if not m:
            return f"line not in sha256sum format: {line[:60]!r}"
        name = m.group(2).strip().removeprefix("./")
        got[name.removeprefix(f"{sums.parent}/")] = m.group(1).lower()
    wanted = {str(PurePosixPath(p).relative_to(sums.parent)):
              hashlib.new(a["algorithm"], c.files[p].encode()).hexdigest() for p in a["of"]}
    wrong = [n for n, digest in wanted.items() if got.get(n) != digest]
    if wrong:
        return f"missing or wrong sum for {wrong[0]}"
    extra = set(got) - set(wanted) - {sums.name}
    return f"unexpected entries: {sorted(extra)}" if extra else None


def file_parts(c: Context, a: dict[str, Any]) -> str | None:
    """The starting file `of`, cut into `paths` of `lines` lines each (the last holds the
    rest): each part is there with its count of lines, and together they are the file."""
    parts = [c.read(p) for p in a["paths"]]
    missing = [p for p, t in zip(a["paths"], parts, strict=True) if t is None]
    if missing:
        return f"a part is missing: {missing}"
    whole = c.files[a["of"]]
    total = len(whole.splitlines())
    want = [min(a["lines"], total - k) for k in range(0, total, a["lines"])]
    counts = [len(str(t).splitlines()) for t in parts]
    if counts != want:
        return f"the parts have {counts} lines, not {want}"
    joined = "".join(t if str(t).endswith("\n") else f"{t}\n" for t in parts)
    return None if joined == whole else f"the parts together are not {a['of']}"


def file_duration(c: Context, a: dict[str, Any]) -> str | None:
    """The file gives one length of time, as m:ss or h:mm:ss, of `seconds` seconds."""
    text = c.read(a["path"])
    if text is None:
        return f"{a['path']} is missing"
    times = set(re.findall(r"(?<![\d:.])(?:\d{1,2}:)?\d{1,3}:\d{2}(?![\d:])", text))
    if len(times) != 1:
        return f"{a['path']} gives {len(times)} times, not one: {text.strip()[:40]!r}"
    *hours, minutes, seconds = (int(x) for x in times.pop().split(":"))
    total = seconds + 60 * minutes + 3600 * sum(hours)
    return None if total == a["seconds"] else f"{a['path']} gives {total} seconds"


def money(cell: str) -> float:
    return float(re.sub("[$,\u20ac\u00a3]", "", cell.strip()))


def csv_amounts(c: Context, a: dict[str, Any]) -> str | None:
    """Rows of a name (case aside) and an amount ($, EUR, GBP signs and commas aside),
    exactly these in this order, within `tolerance`; a heading row before them is allowed."""
    text = c.read(a["path"])
    if text is None:
        return f"{a['path']} is missing"
    got: list[tuple[str, float]] = []
    for row in csv.reader(io.StringIO(text)):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < 2:
            return f"row {row} has fewer than 2 columns"
        try:
            got.append((row[0].strip().lower(), money(row[1])))
        except ValueError:
            if got:
                return f"row {row} has no amount"
    if [n for n, _ in got] != [str(n).lower() for n, _ in a["rows"]]:
        return f"{a['path']} names {[n for n, _ in got]} in that order"
    wrong = [n for (n, v), (_, w) in zip(got, a["rows"], strict=True)
             if abs(v - w) > a.get("tolerance", 0) + 1e-9]
    return f"the amount for {wrong[0]} is wrong" if wrong else None


def csv_split(c: Context, a: dict[str, Any]) -> str | None:
    """`rows` split by the value of column `key_column`: one file matching `glob` (but for
    those in `except`) per value, named with it (case aside), each with the `header` (case
    aside) and exactly that value's rows in any order (numbers to two decimals, words case
    aside), and no other such file."""
    def cell(value: str) -> str:
        try:
            return f"{float(value.strip()):.2f}"
        except ValueError:
            return value.strip().lower()

    new = [p for p in c.folder.glob(a["glob"])
           if p.relative_to(c.folder).as_posix() not in a.get("except", [])]
    keys = list(dict.fromkeys(row[a["key_column"]] for row in a["rows"]))
    for key in keys:
        mine = [p for p in new if key.lower() in p.stem.lower()]
        if len(mine) != 1:
            return f"expected one file for {key}, found {len(mine)}"
        got = [row for row in csv.reader(io.StringIO(mine[0].read_text(encoding="utf-8")))
               if any(x.strip() for x in row)]
        if not got or [x.strip().lower() for x in got[0]] != a["header"]:
            return f"{mine[0].name} does not start with the header row"
        want = sorted([cell(x) for x in row] for row in a["rows"] if row[a["key_column"]] == key)
        if sorted([cell(x) for x in row] for row in got[1:]) != want:
            return f"{mine[0].name} does not hold exactly the {key} rows"
    return None if len(new) == len(keys) else f"{len(new)} files, not {len(keys)}"
