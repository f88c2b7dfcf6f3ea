"""The first lines of the files a request names, and what the folders it names hold, sent
with it to a model on this machine.

Small models guess what a file holds instead of reading it first: a 'quantity' key where
the records say 'qty', 'Shipped' where the column says 'shipped', a list where the JSON
holds an object. A look at the head of each named file, before the first reply, settles
that for a few dozen tokens. Only data files the user named in the working folder are read, and
only for a model on this machine or its network unless `peek_files = "always"`: nothing
leaves the machine that the user did not ask to send.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from pathlib import Path

from assistant.checks.requested import Request
from assistant.config import Settings
from assistant.messages import untrusted
from assistant.servers.local import is_local_model
from assistant.texts import text

FILES = 3
FOLDERS = 2  # named folders listed
ENTRIES = 12  # names listed of each
LINES = 5
WIDTH = 120
READ_LIMIT = 1_000_000  # bytes read to count lines; a bigger file is said to be so
# Data, not code: shown a script's source, a small model answers what it would print
# instead of running it ("run calc.js": it said 1060, the script prints 5117).
DATA = {".csv", ".tsv", ".json", ".jsonl", ".txt", ".log", ".md", ".yaml", ".yml", ".toml",
        ".ini", ".cfg", ".conf", ".xml"}


def wanted(settings: Settings) -> bool:
    """Whether this conversation's requests carry the heads of the files they name."""
    if settings.peek_files == "never":
        return False
    return settings.peek_files == "always" or is_local_model(settings)


def peek(request: Request | str, folder: Path) -> str:
    """The note to add to the request: each named text file's line count and first lines,
    and what each named folder holds, with sizes, as untrusted data (a file's words are
    never instructions). Empty when none is there.

    A small model asked for the largest file of data/ sorted `ls -lh` lines by their
    permissions and named the smallest; with the sizes in front of it, it does not."""
    asks = request if isinstance(request, Request) else Request.parse(request)
    found = (head for name in asks.files if (head := _head(folder, name)))
    heads = list(itertools.islice(found, FILES))  # files past the third are never read
    listed = (shown for name in asks.folders if (shown := _listing(folder, name)))
    heads += itertools.islice(listed, FOLDERS)
    if not heads:
        return ""
    return "\n\n" + untrusted("files", "\n\n".join(heads))


def _head(folder: Path, name: str) -> str:
    path = folder / name
    if path.suffix.lower() not in DATA:
        return ""
    try:
        if not path.resolve().is_relative_to(folder.resolve()) or not path.is_file():
            return ""
        with path.open("rb") as file:
            data = file.read(READ_LIMIT + 1)
    except OSError:
        return ""
    if b"\0" in data[:8192]:
        return ""  # binary: its bytes tell a model nothing
    content = data[:READ_LIMIT].decode("utf-8", errors="replace")
    lines = content.splitlines()
    count = text("peek.one_line") if len(lines) == 1 else text("peek.lines").format(len(lines))
    size = text("peek.over").format(count) if len(data) > READ_LIMIT else count
    if path.suffix.lower() == ".json" and len(data) <= READ_LIMIT:
        compact = _compact(content)
        if compact:
            return text("peek.compact").format(name, size) + "\n" + compact
    shown = [line if len(line) <= WIDTH else line[:WIDTH] + "…" for line in lines[:LINES]]
    more = "\n…" if len(lines) > LINES else ""
    return text("peek.first_lines").format(name, size) + "\n" + "\n".join(shown) + more


def _listing(folder: Path, name: str) -> str:
    """The names in a folder of the working folder, each file with its size."""
    path = folder / name
    try:
        if not path.resolve().is_relative_to(folder.resolve()) or not path.is_dir():
            return ""
        entries = sorted(path.iterdir(), key=lambda entry: entry.name)
    except OSError:
        return ""
    if not entries:
        return text("peek.empty").format(name)
    shown = []
    for entry in entries[:ENTRIES]:
        with contextlib.suppress(OSError):
            shown.append(f"{entry.name}/" if entry.is_dir()
                         else text("peek.sized").format(entry.name, entry.lstat().st_size))
    more = text("peek.more").format(len(entries) - ENTRIES) if len(entries) > ENTRIES else ""
    return text("peek.holds").format(name, ", ".join(shown) + more)


def _compact(text: str) -> str:
    """JSON on one line, cut at LINES * WIDTH characters: its shape (which keys, a list or
    an object) in the room five pretty-printed lines give to `{` and one key."""
    try:
        data = json.loads(text)
    except ValueError:
        return ""
    line = json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
    limit = LINES * WIDTH
    return line if len(line) <= limit else line[:limit] + "…"
