"""An MCP client's code goes through the same action pipeline as a turn's: the SDK's own
stdio client calls `assistant mcp`, the code is run once in a what-if world before the
person is asked, its rating is raised by what that preview shows it does (a delete hidden
behind a loop), and `assistant undo` puts back what the approved run deleted."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client

from assistant.journal import Journal
from assistant.whatif.probe import problem
from tests.integration.conftest import ROOT
from tests.integration.tools.test_mcp_server import PROMPT, Person, parameters, person

__all__ = ["person"]  # the fixture, shared with the server's other tests
pytestmark = pytest.mark.skipif(bool(problem()), reason=problem() or "previews work")

EMPTY_EACH = ("import os\n"
              "for name in os.listdir('photos'):\n"
              "    os.remove(os.path.join('photos', name))\n")


def test_a_clients_delete_is_previewed_rated_by_its_effect_and_undone(
        person: Person, tmp_path: Path) -> None:
    work = tmp_path / "work"
    photos = work / "photos"
    photos.mkdir(parents=True)
    for number in range(12):
        (photos / f"p{number}.jpg").write_text(f"photo {number}")
    client = parameters(person.path)
    client.cwd = str(work)

    async def call() -> str:
        async with Client(client) as session:
            running = asyncio.ensure_future(session.call_tool(
                "execute", {"language": "python", "code": EMPTY_EACH}))
            await asyncio.to_thread(person.wait_for, PROMPT)
            still_there = len(list(photos.iterdir()))
            person.answer("y")
            result = await asyncio.wait_for(running, 60)
            return f"{still_there}|{result.content[0].text}"

    before, told = asyncio.run(call()).split("|", 1)
    assert before == "12", "the preview deleted real files"
    assert told == "[exit status 0]" and list(photos.iterdir()) == []
    shown = " ".join(person.shown().split())
    assert "python · risk high" in shown
    assert "are deleted, 12 files" in shown and "(the preview shows)" in shown
    assert "To take it back: assistant undo" in shown
    journal = Journal.in_dir(Path(os.environ["ASSISTANT_DATA_DIR"]))
    [conversation] = journal.conversations()
    records = journal.conversation(conversation["id"])["records"]
    journal.close()
    [proposal] = [r for r in records if r["kind"] == "proposal"]
    assert proposal["risk"] == "high" and len(proposal["effect"]["deleted"]) == 12

    undone = subprocess.run([sys.executable, "-m", "assistant.cli", "undo"], cwd=str(work),
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                            text=True, timeout=60, check=True)
    assert "12" in undone.stdout or "photos" in undone.stdout, undone.stdout
    assert sorted(p.name for p in photos.iterdir()) == sorted(f"p{n}.jpg" for n in range(12))
    assert (photos / "p3.jpg").read_text() == "photo 3"
