from __future__ import annotations

import multiprocessing
import os
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest

from assistant.events import Proposal, RunEnd
from assistant.journal import Journal, JournalError


def test_records_and_snapshot_round_trip(tmp_path: Path) -> None:
    journal = Journal.in_dir(tmp_path)
    cid = journal.start_conversation("m1")
    journal.record(cid, 1, {"kind": "user", "text": "list files"})
    journal.record(cid, 1, Proposal("p1", "shell", "ls"))
    journal.record(cid, 1, RunEnd("p1", 0, "a\nb\n", 0.01))
    journal.save_messages(cid, [{"role": "user", "content": "list files"}], "m1")
    journal.close()

    again = Journal.in_dir(tmp_path)
    record = again.conversation(cid[:12])
    assert record["title"] == "list files"
    assert record["messages"] == [{"role": "user", "content": "list files"}]
    assert [r["kind"] for r in record["records"]] == ["user", "proposal", "run_end"]
    assert record["records"][2]["output"] == "a\nb\n"
    listed = again.conversations()
    assert listed[0]["id"] == cid and listed[0]["turns"] == 1


def test_resolve_latest_and_errors(tmp_path: Path) -> None:
    journal = Journal.in_dir(tmp_path)
    with pytest.raises(JournalError, match="no conversation to resume"):
        journal.resolve(None)
    first = journal.start_conversation("m")
    second = journal.start_conversation("m")
    journal.record(second, 1, {"kind": "user", "text": "hi"})
    assert journal.resolve(None) == second
    assert journal.resolve(first) == first
    with pytest.raises(JournalError, match="assistant history"):
        journal.resolve("nope")


def _write_and_die(path: str) -> None:
    journal = Journal(Path(path))
    cid = journal.start_conversation("m")
    journal.record(cid, 1, {"kind": "user", "text": "survive me"})
    os._exit(1)  # no close, no cleanup: as a crash would leave it


def test_records_survive_a_crash(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    child = multiprocessing.get_context("spawn").Process(target=_write_and_die, args=(str(db),))
    child.start()
    child.join(30)
    assert child.exitcode == 1
    record = Journal(db).conversation(None)
    assert record["records"][0]["text"] == "survive me"


def test_unwritable_location_is_one_clear_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(JournalError, match="cannot open the journal"):
        Journal(blocker / "sub" / "journal.db")


def test_search_finds_conversations_by_title_and_by_any_step(tmp_path: Path) -> None:
    journal = Journal.in_dir(tmp_path)
    files = journal.start_conversation("m")
    journal.record(files, 1, {"kind": "user", "text": "list files"})
    journal.record(files, 1, Proposal("p1", "shell", 'ls "Zoë\'s photos"'))
    other = journal.start_conversation("m")
    journal.record(other, 1, {"kind": "user", "text": "what time is it, 100% sure?"})
    found = {q: [row["id"] for row in journal.conversations(search=q)]
             for q in ("", "LIST", "Zoë's photos", "100%", "0%", "_", "nothing like it")}
    assert set(found[""]) == {files, other}
    assert found["LIST"] == [files]
    assert found["Zoë's photos"] == [files]  # stored as JSON, found as typed
    assert found["100%"] == [other] and found["0%"] == [other]
    assert found["_"] == [] and found["nothing like it"] == []


def test_a_second_journal_in_this_process_keeps_the_first_ones_locks(tmp_path: Path) -> None:
    """The daemon opens the next conversation's journal while the last one is open; another
    process reading the journal then must not checkpoint and delete the WAL under it."""
    import subprocess
    import sys

    first = Journal.in_dir(tmp_path)
    cid = first.start_conversation("m1")
    first.record(cid, 1, {"kind": "user", "text": "one"})
    Journal.in_dir(tmp_path).close()
    reader = ("import sys; from pathlib import Path; from assistant.journal import Journal; "
              "j = Journal.in_dir(Path(sys.argv[1])); j.conversations(); j.close()")
    subprocess.run([sys.executable, "-c", reader, str(tmp_path)], check=True, timeout=60)
    assert (tmp_path / "journal.db-wal").exists(), "the WAL was deleted while still open"
    first.record(cid, 1, {"kind": "user", "text": "two"})
    assert [r["text"] for r in first.conversation(cid)["records"]] == ["one", "two"]
    first.close()


def _open_and_write(path: Path, start: Barrier, results: Queue[str]) -> None:
    start.wait()
    try:
        journal = Journal(path)
        journal.record(journal.start_conversation("m"), 1, {"kind": "user", "text": "hi"})
        journal.close()
        results.put("ok")
    except JournalError as exc:
        results.put(str(exc))


def test_programs_opening_a_new_journal_at_the_same_moment_all_open_it(tmp_path: Path) -> None:
    """Two commands started together (a daemon and a typed command) create the journal at
    once; neither may fail with "database is locked" while the other switches it to WAL."""
    context = multiprocessing.get_context("fork")
    for round_ in range(15):
        path = tmp_path / f"{round_}" / "journal.db"
        start, results = context.Barrier(4), context.Queue()
        workers = [context.Process(target=_open_and_write, args=(path, start, results))
                   for _ in range(4)]
        for worker in workers:
            worker.start()
        outcomes = [results.get(timeout=60) for _ in workers]
        for worker in workers:
            worker.join(timeout=60)
        assert outcomes == ["ok"] * 4, outcomes
        reader = Journal(path)
        assert len(reader.conversations()) == 4
        reader.close()
