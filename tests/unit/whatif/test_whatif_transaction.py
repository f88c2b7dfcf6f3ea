"""A run held to its preview, with real runtimes and namespaces: a real run that does
something else is said, an interrupted preview runs nothing, and undo is offered."""

from __future__ import annotations

import threading
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

from assistant.events import Event, Notice, RunEnd
from assistant.runtime.changes import UNWRITTEN, Listings, describe_changes
from assistant.whatif.preview import problem
from assistant.whatif.transaction import TransactionalRuntimes
from assistant.whatif.undo import UndoStore


@pytest.fixture
def runtimes(folder: Path, tmp_path: Path) -> Iterator[TransactionalRuntimes]:
    if problem():
        pytest.skip(problem())
    with TransactionalRuntimes(timeout=20.0, cwd=str(folder),
                               store=UndoStore(tmp_path / "undo")) as rt:
        yield rt


def test_a_real_run_unlike_its_preview_is_said_and_still_undoable(
        folder: Path, runtimes: TransactionalRuntimes, tmp_path: Path) -> None:
    events = list(runtimes.run("python", "import time\n"
                                         "Path('stamp.txt').write_text(str(time.time_ns()))"))
    said = [e.text for e in events if isinstance(e, Notice)]
    end = events[-1]
    assert isinstance(end, RunEnd)
    assert any("did not do what its preview showed: stamp.txt is not as previewed" in s
               for s in said)
    assert "did not do what its preview showed" in end.output
    assert any("To take it back: assistant undo" in s for s in said)
    UndoStore(tmp_path / "undo").undo()
    assert not (folder / "stamp.txt").exists()


def test_a_run_like_its_preview_says_only_what_it_did(folder: Path,
                                                      runtimes: TransactionalRuntimes) -> None:
    events = list(runtimes.run("shell", "mkdir old && mv logs/a.log old/"))
    said = [e.text for e in events if isinstance(e, Notice)]
    assert len(said) == 1
    assert said[0].startswith("Moves 1 file (logs/a.log) into a new folder, old. "
                              "To take it back: assistant undo ")


def test_interrupting_the_preview_runs_nothing(folder: Path,
                                               runtimes: TransactionalRuntimes) -> None:
    threading.Timer(1.0, runtimes.interrupt).start()
    events = list(runtimes.run("python", "import time\ntime.sleep(8)\n"
                                         "Path('ran.txt').write_text('ran')"))
    end = events[-1]
    assert isinstance(end, RunEnd) and end.interrupted
    assert not (folder / "ran.txt").exists()



def test_a_display_run_that_fails_only_in_its_preview_is_not_called_unlike_it(
        display: str, folder: Path, runtimes: TransactionalRuntimes) -> None:
    # The preview has no display, so code that reads the screen fails there and works
    # for real: what it could not cover makes its exit status no difference.
    events = list(runtimes.run("python", "from assistant import computer\n"
                                         "print(computer.display.size())"))
    end = events[-1]
    assert isinstance(end, RunEnd) and end.exit_status == 0, end.output
    assert not [e for e in events if isinstance(e, Notice)]


def test_a_file_a_display_run_changed_unpreviewed_is_said_so_and_not_as_a_difference(
        display: str, folder: Path, runtimes: TransactionalRuntimes) -> None:
    # As an editor on screen writes its file when a run presses its Save: the preview,
    # which has no display, never gets that far, so no preview could have shown it.
    events = list(runtimes.run("python", "from assistant import computer\n"
                                         "computer.display.size()\n"
                                         "Path('saved.txt').write_text('kept')"))
    end = events[-1]
    assert isinstance(end, RunEnd) and end.exit_status == 0, end.output
    assert "did not do what its preview showed" not in end.output
    assert "[saved.txt changed on disk (through the display, where a preview cannot " \
           "follow: an undo cannot take it back).]" in end.output
    assert (folder / "saved.txt").read_text() == "kept"


def test_a_shell_delete_of_a_file_named_in_an_earlier_run_is_previewed_and_undone(
        folder: Path, runtimes: TransactionalRuntimes, tmp_path: Path) -> None:
    list(runtimes.run("shell", "target=notes.txt"))
    events = list(runtimes.run("shell", 'rm "$target"'))
    said = [e.text for e in events if isinstance(e, Notice)]
    assert len(said) == 1 and said[0].startswith("Deletes 1 file (notes.txt")
    assert not (folder / "notes.txt").exists()
    UndoStore(tmp_path / "undo").undo()
    assert (folder / "notes.txt").read_text() == "first\n"


def drained(steps: Generator[Event, None, Listings]) -> Listings:
    """The listings a run returns, its events passed over."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def test_code_that_cannot_write_is_held_to_its_sealed_preview_without_listing_the_folder(
        folder: Path, runtimes: TransactionalRuntimes) -> None:
    """Its preview ran where every mount is read-only, so the real run is known to change
    nothing; a run that may write is still listed before and after."""
    sealed = runtimes.foresee("python", "print(6 * 7)")
    assert sealed is not None and sealed.sealed
    before, after = drained(runtimes.run_listed("python", "print(6 * 7)"))
    assert before is after is UNWRITTEN
    assert describe_changes(before, after) == describe_changes(*drained(
        runtimes.run_listed("python", "import os\nprint(len(os.listdir('.')))")))
    listed = runtimes.foresee("python", "import os\nprint(1)")
    assert listed is not None and not listed.sealed
    before, after = drained(runtimes.run_listed("shell", "echo hi > hi.txt"))
    assert before is not UNWRITTEN and after is not None and "hi.txt" in after.entries
