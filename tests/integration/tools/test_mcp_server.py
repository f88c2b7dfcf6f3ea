"""The SDK's own client talks to `assistant mcp` over stdio; each call waits for a person
answering on a real terminal (a pseudo-terminal the test types into), and is journaled."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from assistant.journal import Journal
from tests.integration.conftest import ROOT
from tests.support.display import wait_until, xdotool
from tests.support.require import require

PROMPT = b"Run this python code?"


class Person:
    """Reads what the server shows on the terminal and types answers into it."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        self._slave = slave
        self.seen = b""
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                return
            with self._lock:
                self.seen += chunk

    def wait_for(self, text: bytes, count: int = 1, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while self.seen.count(text) < count:
            assert time.monotonic() < deadline, f"never shown {text!r}: {self.seen[-500:]!r}"
            time.sleep(0.05)

    def shown(self) -> str:
        """The terminal's text without its colours."""
        return re.sub(r"\x1b\[[0-9;]*m", "", self.seen.decode(errors="replace"))

    def answer(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    def close(self) -> None:
        os.close(self.master)
        os.close(self._slave)


@pytest.fixture
def person() -> Iterator[Person]:
    at_terminal = Person()
    yield at_terminal
    at_terminal.close()


def parameters(tty: str) -> StdioServerParameters:
    env = {key: os.environ[key] for key in ("ASSISTANT_CONFIG_DIR", "ASSISTANT_DATA_DIR")}
    return StdioServerParameters(
        command=sys.executable, args=["-m", "assistant.cli", "mcp", "--approver", "terminal",
                                      "--tty", tty],
        env={**env, "PYTHONPATH": str(ROOT)}, cwd=str(ROOT))


def test_a_call_waits_for_the_person_and_a_declined_one_runs_nothing(
    person: Person, tmp_path: Path
) -> None:
    marker = tmp_path / "made-by-mcp"

    async def client() -> tuple[list[str], str, str, bool]:
        async with Client(parameters(person.path)) as session:
            names = sorted(tool.name for tool in (await session.list_tools()).tools)
            call = asyncio.ensure_future(session.call_tool(
                "execute", {"language": "python", "code": "print(21 * 2)"}))
            await asyncio.to_thread(person.wait_for, PROMPT)
            await asyncio.sleep(1.0)
            waited = not call.done()
            person.answer("y")
            result = await asyncio.wait_for(call, 60)
            second = asyncio.ensure_future(session.call_tool(
                "execute", {"language": "shell", "code": f"touch {marker}"}))
            await asyncio.to_thread(person.wait_for, b"Run this shell code?")
            person.answer("n")
            declined = await asyncio.wait_for(second, 60)
            return names, result.content[0].text, declined.content[0].text, waited

    names, ran, declined, waited = asyncio.run(client())
    assert names == ["computer_click", "computer_type", "computer_view", "execute"]
    assert waited, "the call returned before the person answered"
    assert ran == "42\n[exit status 0]"
    assert declined == "Not run: declined by the user."
    assert not marker.exists()
    shown = person.shown()
    assert "print(21 * 2)" in shown and "python · risk low" in shown
    journal = Journal.in_dir(Path(os.environ["ASSISTANT_DATA_DIR"]))
    [conversation] = journal.conversations()
    records = journal.conversation(conversation["id"])["records"]
    journal.close()
    assert conversation["title"] == "assistant mcp"
    assert [r["kind"] for r in records] == [
        "mcp_call", "proposal", "approval", "run_end", "mcp_call", "proposal", "approval"]
    assert records[1]["code"] == "print(21 * 2)" and records[2]["decided_by"] == "user"
    assert records[3]["output"] == "42\n" and records[6]["approved"] is False


def test_computer_calls_are_proposed_as_code_and_a_high_risk_one_is_declined_unasked(
    person: Person, tmp_path: Path
) -> None:
    """With `--approval never`, no call runs: a high-risk one (a line added to the log-in
    script) is declined as the others are, nobody is asked, and the file never appears."""
    startup = tmp_path / ".bashrc"

    async def client() -> list[str]:
        parameters_never = parameters(person.path)
        parameters_never.args.extend(["--approval", "never"])
        parameters_never.env = {**(parameters_never.env or {}), "HOME": str(tmp_path)}
        async with Client(parameters_never) as session:
            typed = await session.call_tool("computer_type", {"text": "héllo", "into": "Name"})
            clicked = await session.call_tool("computer_click", {"text": "Save", "index": 1})
            risky = await session.call_tool(
                "execute", {"language": "shell", "code": "echo 'touch ~/owned' >> ~/.bashrc"})
            return [typed.content[0].text, clicked.content[0].text, risky.content[0].text]

    typed, clicked, risky = asyncio.run(client())
    assert typed.startswith("Not run: declined by the policy: approval mode is never")
    assert clicked.startswith("Not run")
    assert risky.startswith("Not run: declined by the policy: approval mode is never")
    assert not startup.exists()
    shown = person.shown()
    assert "computer.keyboard.write('héllo', into='Name')" in shown
    assert "computer.mouse.click('Save', index=1)" in shown
    assert "~/.bashrc" in shown and "shell · risk high" in shown
    assert PROMPT not in person.seen and b"Run this shell code?" not in person.seen


def test_auto_approval_in_the_config_does_not_reach_the_clients_calls(
    person: Person, tmp_path: Path
) -> None:
    """The person's `approval = "auto"` is for their own requests: a client's low-risk call
    still waits for them, and runs only once they say yes."""
    config = Path(os.environ["ASSISTANT_CONFIG_DIR"])
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text('approval = "auto"\n')
    marker = tmp_path / "made-by-mcp"

    async def client() -> tuple[bool, str]:
        async with Client(parameters(person.path)) as session:
            call = asyncio.ensure_future(session.call_tool(
                "execute", {"language": "python",
                            "code": f"open({str(marker)!r}, 'w').write('yes')"}))
            await asyncio.to_thread(person.wait_for, PROMPT)
            await asyncio.sleep(0.5)
            waited = not call.done() and not marker.exists()
            person.answer("y")
            result = await asyncio.wait_for(call, 60)
            return waited, result.content[0].text

    waited, said = asyncio.run(client())
    assert waited, "the call ran before the person answered"
    assert said == "3\n[exit status 0]" and marker.read_text() == "yes"  # write()'s value shown
    assert "python · risk low" in person.shown()


def test_computer_view_returns_the_screen_when_allowed(person: Person, display: str) -> None:
    """Looking is low risk, but a preview cannot reach the display: under auto approval the
    person is still asked, and with their yes the image comes back."""

    def say_yes() -> None:
        person.wait_for(PROMPT)
        person.answer("y")

    threading.Thread(target=say_yes, daemon=True).start()

    async def client() -> list[str]:
        looking = parameters(person.path)
        looking.args.extend(["--approval", "auto"])
        looking.env = {**(looking.env or {}), "DISPLAY": display}
        async with Client(looking) as session:
            seen = await session.call_tool("computer_view", {})
            return [item.type for item in seen.content]

    assert asyncio.run(client()) == ["text", "image"]
    assert "its preview could not cover it" in " ".join(person.shown().split())


def test_on_a_desktop_the_popup_asks_and_run_lets_the_call_through(display: str) -> None:
    """No terminal: the popup is the approver; its title says it waits, Enter runs."""
    require(shutil.which("xdotool"), "xdotool is not installed")
    on_desktop = parameters("/nonexistent-tty")
    on_desktop.args[on_desktop.args.index("terminal")] = "auto"
    on_desktop.env = {**(on_desktop.env or {}), "DISPLAY": display}

    def press_run() -> None:
        window = wait_until(lambda: _visible("assistant: run this?"), "the popup asks", 60)
        xdotool("windowfocus", "--sync", window)
        xdotool("key", "Return")

    async def client() -> str:
        async with Client(on_desktop) as session:
            call = asyncio.ensure_future(session.call_tool(
                "execute", {"language": "shell", "code": "echo from-the-popup"}))
            await asyncio.to_thread(press_run)
            result = await asyncio.wait_for(call, 60)
            return str(result.content[0].text)

    assert asyncio.run(client()) == "from-the-popup\n[exit status 0]"


def _visible(title: str) -> str:
    try:
        found = xdotool("search", "--onlyvisible", "--name", title).split()
    except subprocess.CalledProcessError:  # none yet
        return ""
    return found[0] if found else ""
