"""SQLite audit log of every step, durable enough to resume a conversation after a crash.

Each record is committed as it happens (WAL), so a crash, a fault or Ctrl-C loses at
most the step in flight. The message history is snapshotted after every change, so a
conversation resumes exactly where it stopped.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assistant.events import Event, Record

SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    messages TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL REFERENCES conversations(id),
    turn INTEGER NOT NULL,
    ts REAL NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_by_conversation ON records(conversation_id, id);
"""


class JournalError(Exception):
    """The journal cannot be used; the message says which file and why."""


def _to_wal(db: sqlite3.Connection, wait_s: float = 5.0) -> None:
    """Switch to write-ahead logging, waiting while another process switches the same file.

    SQLite answers "database is locked" at once, without its busy wait, when two processes
    open a new journal together and both ask for the switch; so the wait is done here.
    """
    deadline = time.monotonic() + wait_s
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class Journal:
    """One open journal file; safe to share between threads of one process."""

    def __init__(self, path: Path, redact: Callable[[str], str] | None = None) -> None:
        self.path = Path(path)
        # Everything written passes here first, so API keys never reach the file.
        self._redact = redact or (lambda text: text)
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            # User-only from the first byte: SQLite gives its -wal and -shm files the same mode.
            # Only a new file is opened here: closing a descriptor of a file drops every
            # POSIX lock this process holds on it, so another journal open in this process
            # (the daemon's next conversation) would lose its SQLite locks, and another
            # process could checkpoint and delete the WAL under it (disk I/O error).
            with contextlib.suppress(FileExistsError):
                os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600))
            os.chmod(self.path, 0o600)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA busy_timeout=5000")
            _to_wal(self._db)
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(f"{self.path}: cannot open the journal ({exc})") from None
        self._lock = threading.Lock()

    @classmethod
    def in_dir(cls, data_dir: Path, redact: Callable[[str], str] | None = None) -> Journal:
        return cls(Path(data_dir) / "journal.db", redact)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def start_conversation(self, model: str, title: str = "") -> str:
        conversation_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO conversations (id, created, updated, title, model) VALUES (?,?,?,?,?)",
                (conversation_id, now, now, title[:80], model),
            )
        return conversation_id

    def record(self, conversation_id: str, turn: int, item: Event | dict[str, Any]) -> None:
        """Append one step; plain dicts carry their own `kind` (user and assistant messages)."""
        data = item.to_dict() if isinstance(item, Record) else dict(item)
        kind = data.pop("kind")
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO records (conversation_id, turn, ts, kind, data) VALUES (?,?,?,?,?)",
                (conversation_id, turn, now, kind, self._redact(json.dumps(data, default=str))),
            )
            self._db.execute(
                "UPDATE conversations SET updated=?, title=CASE WHEN title='' AND ?='user' "
                "THEN ? ELSE title END WHERE id=?",
                (now, kind, self._redact(str(data.get("text", "")))[:80], conversation_id),
            )

    def save_messages(
        self, conversation_id: str, messages: list[dict[str, Any]], model: str
    ) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE conversations SET messages=?, model=?, updated=? WHERE id=?",
                (self._redact(json.dumps(messages, default=str)), model, time.time(),
                 conversation_id),
            )

    def resolve(self, conversation_id: str | None) -> str:
        """The full id for an id prefix, or the latest conversation for None."""
        with self._lock:
            if not conversation_id:
                row = self._db.execute(
                    "SELECT id FROM conversations ORDER BY updated DESC LIMIT 1"
                ).fetchone()
                if row is None:
                    raise JournalError("there is no conversation to resume yet")
                return str(row[0])
            rows = self._db.execute(
                "SELECT id FROM conversations WHERE id LIKE ? ORDER BY updated DESC LIMIT 2",
                (conversation_id.replace("%", "") + "%",),
            ).fetchall()
        if not rows:
            raise JournalError(
                f"no conversation {conversation_id!r}: `assistant history` lists them"
            )
        if len(rows) > 1 and rows[0][0] != conversation_id:
            raise JournalError(
                f"{conversation_id!r} matches several conversations: give more of the id"
            )
        return str(rows[0][0])

    def conversations(self, limit: int = 20, search: str = "") -> list[dict[str, Any]]:
        """The latest conversations; with `search`, those whose title or any step holds it."""
        # Steps are stored as JSON, so the text is also looked for the way JSON escapes it.
        patterns = [_like(search), _like(json.dumps(search)[1:-1])]
        with self._lock:
            rows = self._db.execute(
                "SELECT c.id, c.created, c.updated, c.title, c.model, "
                "(SELECT COUNT(*) FROM records r WHERE r.conversation_id=c.id AND r.kind='user') "
                "FROM conversations c WHERE ? = '' OR c.title LIKE ? ESCAPE '\\' OR EXISTS "
                "(SELECT 1 FROM records r WHERE r.conversation_id=c.id AND "
                "(r.data LIKE ? ESCAPE '\\' OR r.data LIKE ? ESCAPE '\\')) "
                "ORDER BY c.updated DESC LIMIT ?",
                (search, patterns[0], *patterns, limit),
            ).fetchall()
        keys = ("id", "created", "updated", "title", "model", "turns")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def conversation(self, conversation_id: str | None) -> dict[str, Any]:
        """One conversation with its message snapshot and every recorded step."""
        full_id = self.resolve(conversation_id)
        with self._lock:
            head = self._db.execute(
                "SELECT id, created, updated, title, model, messages FROM conversations WHERE id=?",
                (full_id,),
            ).fetchone()
            rows = self._db.execute(
                "SELECT turn, ts, kind, data FROM records WHERE conversation_id=? ORDER BY id",
                (full_id,),
            ).fetchall()
        keys = ("id", "created", "updated", "title", "model")
        result: dict[str, Any] = dict(zip(keys, head[:5], strict=True))
        result["messages"] = json.loads(head[5])
        result["records"] = [
            {"turn": turn, "ts": ts, "kind": kind, **json.loads(data)}
            for turn, ts, kind, data in rows
        ]
        return result


def _like(text: str) -> str:
    """A LIKE pattern that finds `text` anywhere, its own % and _ taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"
