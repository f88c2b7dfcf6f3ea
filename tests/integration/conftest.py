"""Fixtures that reach reality: the scripted LLM server, the CLI as a real process, and the
confirmation popup on the shared Xvfb."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pexpect
import pytest

from tests.support.llm_server import LLMServer
from tests.support.popup_thread import popup_thread
from tests.support.require import require

if TYPE_CHECKING:
    from assistant.ui.popup import Popup

ROOT = Path(__file__).resolve().parents[2]
MODEL = "openai/gpt-4o-mini"
OFFLINE_TESTS = ["tests/integration/test_offline.py"]  # the in-process tests have the guard
IN_NAMESPACE = "test_offline_tests_pass_in_a_namespace_without_network"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Where the test that runs the offline tests again inside a network namespace is
    collected and can work, they do not also run outside it (about 75 s): inside, they pass
    under the guard and with no network at all."""
    from tests.support.netguard import namespace_problem

    if not any(item.name == IN_NAMESPACE for item in items) or namespace_problem():
        return
    offline = [item for item in items if item.nodeid.startswith(tuple(OFFLINE_TESTS))]
    if offline:
        config.hook.pytest_deselected(items=offline)
        items[:] = [item for item in items if item not in offline]


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as running:
        yield running


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working folder the runtimes start in, apart from the test's config and journal."""
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def cli_args(server: LLMServer, *extra: str) -> list[str]:
    """Flags that point the CLI at the scripted server with native tool calls."""
    return [
        "-m", "assistant.cli", "--model", MODEL, "--api-base", server.openai_url,
        "--api-key", "test-key", "--code-style", "tools", *extra,
    ]


def spawn(
    args: list[str], env: dict[str, str] | None = None, timeout: float = 90
) -> pexpect.spawn:
    """The CLI on a real pseudo-terminal, as a person would run it."""
    child_env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "dumb", "COLUMNS": "120",
                 **(env or {})}
    child = pexpect.spawn(sys.executable, args, env=child_env, cwd=str(ROOT),
                          encoding="utf-8", timeout=timeout, dimensions=(40, 120))
    return child


@pytest.fixture(scope="module")
def popup(display: str) -> Iterator[Popup]:
    """The popup with Tk on a thread of its own, as in the daemon."""
    require(shutil.which("xdotool"), "xdotool is not installed")
    with popup_thread() as shown:
        yield shown
