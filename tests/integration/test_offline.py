"""Offline end to end: the embedded model answers from its server, and the CLI with
nothing configured (or with --local) finds a local model by itself.

Every test runs under the no-network guard; test_offline_guard.py runs this file inside a
network namespace that has only loopback, and where it can, the suite runs it only there.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assistant.config import Settings
from assistant.llm import LLM, Reply, direct
from assistant.servers import chatml, embedded, shared
from assistant.servers.started import Servers
from tests.integration.conftest import ROOT
from tests.support.llm_server import LLMServer, closed_port_url, text
from tests.support.models import SMOLLM2, installed_gguf, require_embedded
from tests.support.netguard import no_network
from tests.support.require import require

pytestmark = pytest.mark.usefixtures(no_network.__name__)



@pytest.fixture(scope="module")
def embedded_server() -> Iterator[tuple[Servers, Settings]]:
    """A private embedded server of SmolLM2's, and the settings pointed at it."""
    require_embedded()
    with Servers() as servers:
        yield servers, servers.start(embedded.chosen(SMOLLM2),
                                     SMOLLM2.replace(embedded_keep_alive=0))


def servers_running() -> list[str]:
    """Process ids of embedded servers alive now that this test's processes started (their
    environment names its runtime folder), from /proc: a server of another test process
    running beside it is not counted."""
    ours = f"{shared.FOLDER_VARIABLE}={os.environ[shared.FOLDER_VARIABLE]}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            environment = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if (chatml.__name__.encode() in command and embedded.SMOLLM2.encode() in command
                and ours in environment):
            found.append(entry.name)
    return found


def run_cli(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True,
                          text=True, env=full_env, cwd=ROOT, timeout=180, stdin=subprocess.DEVNULL)


@pytest.mark.slow
def test_embedded_model_answers_directly_and_counts_with_its_own_tokenizer(
        embedded_server: tuple[Servers, Settings]) -> None:
    servers, ready = embedded_server
    llm = LLM(ready.replace(max_tokens=24), servers=servers)
    assert isinstance(llm.backend, direct.Direct)
    assert llm.context_window == embedded.WINDOWS[embedded.SMOLLM2] and not llm.uses_tools
    messages = [{"role": "user", "content": "Name one colour of the sky."}]
    items = list(llm.stream(messages))
    reply = items[-1]
    assert isinstance(reply, Reply) and reply.model == embedded.SMOLLM2
    deltas = [i for i in items if isinstance(i, str)]
    assert len(deltas) > 1 and "".join(deltas) == reply.text and reply.text.strip()
    import llama_cpp

    vocabulary = llama_cpp.Llama(str(embedded.chosen(SMOLLM2).path), vocab_only=True,
                                 verbose=False)
    assert reply.usage == tuple(
        len(vocabulary.tokenize(part.encode(), special=True))
        for part in (chatml.render(messages), reply.text))


@pytest.mark.slow
def test_the_default_embedded_model_answers_on_its_real_weights() -> None:
    """The 1.5B coder model setup installs, served as a user gets it: a request comes
    back as a fenced proposal that does it."""
    settings = Settings(embedded_model=str(installed_gguf(embedded.DEFAULT)), max_tokens=48,
                        llm_timeout=120)
    require_embedded(settings)
    with Servers() as servers:
        ready = servers.start(embedded.chosen(settings), settings.replace(embedded_keep_alive=0))
        llm = LLM(ready, servers=servers)
        reply = list(llm.stream([
            {"role": "system", "content": llm.system_addendum()},
            {"role": "user", "content": "Print the path of the current folder."},
        ]))[-1]
    assert isinstance(reply, Reply) and reply.model.endswith(embedded.DEFAULT)
    [call] = reply.calls
    assert call.language in ("shell", "bash", "sh", "python"), reply.text
    assert "pwd" in call.code or "getcwd" in call.code or "cwd()" in call.code, reply.text


@pytest.mark.slow
def test_nothing_configured_and_no_keep_alive_starts_the_embedded_model_and_stops_it() -> None:
    require_embedded()
    before = servers_running()
    result = run_cli(["--code-style", "fenced", "Say hello."], OLLAMA_API_BASE=closed_port_url(),
                     ASSISTANT_MAX_TOKENS="16", ASSISTANT_EMBEDDED_MODEL=embedded.SMOLLM2,
                     ASSISTANT_EMBEDDED_KEEP_ALIVE="0")
    assert result.returncode == 0, result.stderr
    assert "demo quality" in result.stderr and result.stdout.strip()
    assert "Traceback" not in result.stderr
    assert servers_running() == before


@pytest.mark.slow
def test_a_voice_turn_with_embedded_stt_llm_and_tts(
    embedded_server: tuple[Servers, Settings], speech: dict[str, Any], transcriber: Any,
) -> None:
    """Speech in (a Piper fixture, then Whisper tiny.en from its wheel), the embedded
    model's answer, and that answer spoken (espeak-ng): every model on this machine, no
    network."""
    require(shutil.which("espeak-ng") is not None, "espeak-ng is not installed")
    from assistant.api import Assistant
    from assistant.voice.tts import EspeakEngine
    from assistant.voice.wav import read_wav

    heard = transcriber.transcribe(read_wav(speech["piper_disk"]["path"]))
    assert "space" in heard.lower() and re.search(r"\bdis[ck]\b", heard.lower()), heard
    servers, ready = embedded_server
    with Assistant(settings=ready.replace(journal=False, max_tokens=32),
                   servers=servers) as assistant:
        answer = assistant.ask(heard)
    assert answer.strip()
    spoken, spoken_rate = EspeakEngine().synthesize(answer)
    assert spoken_rate > 0 and len(spoken) > spoken_rate // 10


def test_local_uses_the_model_ollama_has() -> None:
    models = ("llama3.2:3b", "qwen2.5-coder:7b", "all-minilm:latest")
    with LLMServer([text("Local and private.")], models=models) as ollama:
        result = run_cli(["--local", "hi"], OLLAMA_API_BASE=ollama.url, ASSISTANT_EMBEDDED="0")
    assert result.returncode == 0, result.stderr
    assert "Local and private." in result.stdout
    assert f"using qwen2.5-coder:7b from Ollama at {ollama.url}" in result.stderr
    [chat] = [r.body for r in ollama.chat_requests]
    assert chat["model"] == "qwen2.5-coder:7b" and chat["options"]["num_ctx"] == 8192


def test_local_without_any_local_model_says_what_to_do() -> None:
    result = run_cli(["--local", "hi"], OLLAMA_API_BASE=closed_port_url(), ASSISTANT_EMBEDDED="0")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "`ollama serve`" in result.stderr


def test_local_refuses_a_hosted_model() -> None:
    result = run_cli(["--local", "--model", "gpt-4o-mini", "--api-key", "k", "hi"])
    assert result.returncode == 2
    assert "offline mode uses only local models" in result.stderr


def test_api_offline_finds_the_ollama_model_and_refuses_hosted_ones() -> None:
    from assistant.api import Assistant
    from assistant.servers.local import LocalError

    models = ("llama3.2:3b", "qwen2.5-coder:7b")
    with (
        LLMServer([text("From the API.")], models=models) as ollama,
        Assistant(offline=True, api_base=ollama.url, embedded=False, journal=False) as assistant,
    ):
        assert assistant.settings.model == "ollama_chat/qwen2.5-coder:7b"
        assert any("qwen2.5-coder:7b" in line for line in assistant.notices)
        assert assistant.ask("hi") == "From the API."
    with pytest.raises(LocalError, match="offline mode uses only local models"):
        Assistant(model="gpt-4o-mini", offline=True, api_key="k", journal=False)
