"""`assistant keys`: a key stored in a real (file-backed) keyring reaches the provider,
and is never echoed, listed or journaled."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from tests.integration.conftest import cli_args
from tests.integration.test_cli import run_cli
from tests.support.llm_server import LLMServer, text
from tests.support.require import require

KEY = "sk-stored-in-keyring-0123456789abcdef"


@pytest.fixture(autouse=True)
def keyrings_alt() -> None:
    require(importlib.util.find_spec("keyrings.alt"), "keyrings.alt is not installed")


@pytest.fixture
def keyring_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A real keyring backend that keeps its data in this test's folder."""
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg"


def test_stored_key_is_used_and_never_shown(server: LLMServer, keyring_file: Path) -> None:
    stored = run_cli(["-m", "assistant.cli", "keys", "set", "OPENAI_API_KEY"], stdin=KEY + "\n")
    assert stored.returncode == 0, stored.stderr
    assert KEY not in stored.stdout + stored.stderr
    assert any(p.name == "keyring_pass.cfg" for p in keyring_file.rglob("*"))
    listed = run_cli(["-m", "assistant.cli", "keys", "list"])
    assert listed.stdout.split() == ["OPENAI_API_KEY"]

    server.add(text("hello"))
    args = [a for a in cli_args(server, "say hello") if a not in ("--api-key", "test-key")]
    chat = run_cli(args)
    assert chat.returncode == 0, chat.stderr
    assert server.chat_requests[0].headers["authorization"] == f"Bearer {KEY}"
    data = Path(os.environ["ASSISTANT_DATA_DIR"])
    assert all(KEY.encode() not in p.read_bytes() for p in data.iterdir())

    deleted = run_cli(["-m", "assistant.cli", "keys", "delete", "OPENAI_API_KEY"])
    assert deleted.returncode == 0 and run_cli(
        ["-m", "assistant.cli", "keys", "list"]).stdout.split() == []


def test_bad_names_and_empty_keys_get_one_line(keyring_file: Path) -> None:
    lower = run_cli(["-m", "assistant.cli", "keys", "set", "openai"], stdin="x\n")
    assert lower.returncode == 2 and "capitals" in lower.stderr
    empty = run_cli(["-m", "assistant.cli", "keys", "set", "OPENAI_API_KEY"], stdin="\n")
    assert empty.returncode == 2 and "no key given" in empty.stderr
