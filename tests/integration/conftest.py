"""Fixtures that reach reality: the scripted LLM server, and the CLI as a real process."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from tests.support.llm_server import LLMServer

ROOT = Path(__file__).resolve().parents[2]
MODEL = "openai/gpt-4o-mini"


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as running:
        yield running


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
