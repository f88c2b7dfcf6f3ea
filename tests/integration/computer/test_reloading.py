"""A file the assistant's run wrote while Mousepad held it: the run goes ahead (the model
wrote the file whatever it was told), the approval says the editor is reloaded, and the
editor then shows the file as written, with nothing unsaved; an editor holding unsaved
changes is never written behind. Real Mousepad, openbox and the accessibility bus."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant import computer
from assistant.computer import tree
from assistant.events import RuleFired, RunEnd
from tests.support.desktop import Program, desktop
from tests.support.display import wait_until
from tests.support.llm_server import LLMServer, text, tool_call
from tests.support.loop import on_desktop, told

REQUEST = "Put Priya Becker in place of Tom Becker on my guest list in the editor."
WRITE = ('with open("guests.txt", "w") as f:\n'
         '    f.write("Guest list\\nPriya Becker\\nJun Park\\n")')


@pytest.fixture(scope="module", autouse=True)
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop("mousepad") as name:
        yield name


def _area(title: str) -> str:
    window = tree.window(title)
    assert window is not None, f"no window titled {title!r}"
    [area] = [c for c in window.controls if c.role == "text"]
    return area.value


@pytest.fixture
def guests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """guests.txt in the working folder, Tom Becker on it."""
    monkeypatch.chdir(tmp_path)
    guests = tmp_path / "guests.txt"
    guests.write_text("Guest list\nTom Becker\nJun Park\n")
    return guests


def test_a_file_written_while_the_editor_holds_it_is_reloaded_there_and_said_before(
        server: LLMServer, guests: Path) -> None:
    server.add(tool_call("python", WRITE), text("Priya is on the list."))
    with Program("mousepad", str(guests)) as editor:
        title = editor.titled("guests.txt")
        time.sleep(3)  # Mousepad watches its file only a moment after it opened it
        asked, events = on_desktop(server, REQUEST)
        wait_until(lambda: "Priya" in _area(title), "the editor showing the file as written",
                   10)
        active = computer.windows.active()
        assert active is not None and active["title"] == title  # the prompt answered, gone
        assert guests.read_text() == "Guest list\nPriya Becker\nJun Park\n"
    [proposal] = asked
    assert proposal.effect is not None
    assert f"Reloads guests.txt in the window {title!r}." in proposal.effect.summary
    assert [e.exit_status for e in events if isinstance(e, RunEnd)] == [0]
    assert f"the window {title!r} was reloaded: it shows guests.txt as the run wrote it" \
        in told(server, 1)
    assert "screen.offscreen" not in [e.rule for e in events if isinstance(e, RuleFired)]


def test_a_file_whose_editor_holds_unsaved_changes_is_never_written_behind(
        server: LLMServer, guests: Path) -> None:
    server.add(tool_call("python", WRITE), text("The editor has changes I must not lose."))
    with Program("mousepad", str(guests)) as editor:
        editor.titled("guests.txt")
        computer.type("Ana Lopez\n", window="guests.txt")
        changed = editor.titled("*")
        asked, events = on_desktop(server, REQUEST)
        assert "Ana Lopez" in _area(changed)
        assert guests.read_text() == "Guest list\nTom Becker\nJun Park\n"
        computer.save(window="guests.txt")  # a Mousepad killed over unsaved changes would
        # offer them back at the next start, over the next test's window
    assert asked == []
    assert "screen.offscreen" in [e.rule for e in events if isinstance(e, RuleFired)]
    assert f"guests.txt is open in the window {changed!r} with changes not yet saved" \
        in told(server, 1)
