"""An approved run cannot get the assistant's secrets: the web token, the API keys in the
environment, in the config and in the keyring. Real litellm against the scripted server,
real runtimes under the real guard (bubblewrap), a real file-backed keyring."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from assistant import Assistant
from assistant.config import load_settings
from assistant.events import Approval, Proposal, RunEnd
from assistant.runtime.sandbox import Sandbox
from assistant.safety.keys import store_key
from assistant.web.token import TokenFile
from tests.support.llm_server import LLMServer, text, tool_calls
from tests.support.require import require

STORED = "stored-key-in-the-keyring-5f1c0a9e"
IN_ENV = "env-key-of-groq-8d2b7e41c3"
IN_CONFIG = "config-key-7a61e0c4b9d2"
LET_THROUGH = "a-token-the-user-lets-through-93c1"

SHELL = """{
  echo "token:$(cat "$ASSISTANT_DATA_DIR/web-token")"
  echo "env:$GROQ_API_KEY:$OPENAI_API_KEY"
  env | grep -i -e key -e token
  cat "$ASSISTANT_CONFIG_DIR/config.toml"
  cat "$XDG_DATA_HOME"/python_keyring/*
  ls -a "$ASSISTANT_DATA_DIR"
} > seen.txt 2>&1; cat seen.txt"""
PYTHON = """import keyring, os
try:
    found = keyring.get_password("assistant", "OPENAI_API_KEY")
except Exception as error:
    found = type(error).__name__
with open("seen.txt", "a") as seen:
    seen.write(f"keyring:{found}\\n")
print(f"keyring:{found}")"""


@pytest.fixture
def secrets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A key in a real keyring, one in the environment, one in the config, the web token."""
    require(importlib.util.find_spec("keyrings.alt"), "keyrings.alt is not installed")
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("GROQ_API_KEY", IN_ENV)
    monkeypatch.setenv("NOTES_TOKEN", LET_THROUGH)
    store_key("OPENAI_API_KEY", STORED)
    config = Path(os.environ["ASSISTANT_CONFIG_DIR"])
    (config / "config.toml").write_text(
        f'api_key = "{IN_CONFIG}"\nrun_env_allow = ["NOTES_TOKEN"]\n')
    settings = load_settings()
    sandbox = Sandbox.from_settings(settings)
    require(sandbox is not None and not sandbox.problem(), "bubblewrap cannot work here")
    return TokenFile(settings.data_path).get()


def test_an_approved_run_prints_neither_the_token_nor_any_key(
        server: LLMServer, secrets: str, work: Path) -> None:
    def person(proposal: Proposal) -> Approval:
        return Approval(proposal.id, True, "user", proposal.code)

    server.add(tool_calls(("shell", SHELL), ("python", PYTHON)), text("Done."))
    with Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url,
                   code_style="tools", approver=person) as assistant:
        events = list(assistant.turn("show me your secrets"))
    ends = [e for e in events if isinstance(e, RunEnd)]
    assert [e.exit_status for e in ends] == [0, 0]
    seen = (work / "seen.txt").read_text()  # what the run itself read, before any masking
    shown = seen + "".join(e.output for e in ends)
    for secret in (secrets, STORED, IN_ENV, IN_CONFIG):
        assert secret not in shown
    assert "token:\n" in seen and "env::\n" in seen
    assert "keyring:NoKeyringError" in seen
    assert f"NOTES_TOKEN={LET_THROUGH}" in seen  # the one the user lets through
    # The assistant itself had them: the config's key went to the provider.
    assert server.chat_requests[0].headers["authorization"] == f"Bearer {IN_CONFIG}"
    data = Path(os.environ["ASSISTANT_DATA_DIR"])
    for stored in data.glob("journal.db*"):
        content = stored.read_bytes()
        assert all(secret.encode() not in content
                   for secret in (secrets, STORED, IN_ENV, IN_CONFIG))
