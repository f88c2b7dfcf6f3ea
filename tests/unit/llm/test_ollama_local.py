"""Local models through Ollama's wire protocol: discovery, choice, num_ctx, and no hangs.

The scripted server speaks Ollama's /api/tags, /api/show and /api/chat; litellm is real.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator

import pytest

from assistant.config import Settings
from assistant.llm import LLM, LLMError
from assistant.servers import local, ollama
from tests.support.llm_server import LLMServer, closed_port_url, delay, error, text
from tests.support.netguard import no_network

pytestmark = pytest.mark.usefixtures(no_network.__name__)

MODELS = ("llama3.1:8b", "nomic-embed-text:latest", "qwen2.5-coder:7b", "llava:13b")


@pytest.fixture
def ollama_server() -> Iterator[LLMServer]:
    with LLMServer(models=MODELS, context_length=131072) as running:
        yield running


@pytest.fixture
def dead_url() -> Iterator[str]:
    """A port whose listen queue is full: connections are never accepted, as with a hung host."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        filler = socket.create_connection(listener.getsockname())
        try:
            yield f"http://127.0.0.1:{listener.getsockname()[1]}"
        finally:
            filler.close()


def reply_of(llm: LLM, messages: list[dict]) -> str:
    return [item for item in llm.stream(messages) if not isinstance(item, str)][-1].text


def test_installed_models_come_from_api_tags(ollama_server: LLMServer) -> None:
    found = ollama.installed(ollama_server.url)
    assert [m.name for m in found] == list(MODELS)
    assert ollama.has(found, "qwen2.5-coder:7b") and ollama.has(found, "nomic-embed-text")
    assert not ollama.has(found, "qwen2.5-coder")  # no :latest tag of it is installed


@pytest.mark.parametrize(
    ("names", "vision", "expected"),
    [
        (MODELS, False, "qwen2.5-coder:7b"),
        (MODELS, True, "llava:13b"),
        (("mistral:7b", "llama3.2:3b"), False, "llama3.2:3b"),
        (("my-own-model:latest", "nomic-embed-text:latest"), False, "my-own-model:latest"),
        (("nomic-embed-text:latest",), False, None),
        (("llama3.1:8b",), True, None),
    ],
)
def test_preference_lists(names: tuple[str, ...], vision: bool, expected: str | None) -> None:
    assert local.pick([ollama.Installed(n) for n in names], vision=vision) == expected


def test_the_largest_tag_and_vision_families_win() -> None:
    tags = [ollama.Installed("qwen2.5-coder:1.5b", 1), ollama.Installed("qwen2.5-coder:14b", 9)]
    assert local.pick(tags) == "qwen2.5-coder:14b"
    unknown = [ollama.Installed("text-only", 5), ollama.Installed("seeing", 2, ("llama", "clip"))]
    assert local.pick(unknown, vision=True) == "seeing"


def test_local_mode_discovers_and_uses_the_best_model(ollama_server: LLMServer) -> None:
    settings = Settings(offline=True, api_base=ollama_server.url, llm_timeout=5)
    plan = local.choose(settings, embedded_available=False)
    assert plan.settings.model == "ollama_chat/qwen2.5-coder:7b"
    assert plan.settings.vision_model == "ollama_chat/llava:13b"
    assert not plan.embedded and "qwen2.5-coder:7b" in plan.notice

    ollama_server.add(text("Coder here."), text("I see a window."))
    llm = LLM(plan.settings)
    assert reply_of(llm, [{"role": "user", "content": "list files"}]) == "Coder here."
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
    shot = [{"role": "user", "content": [{"type": "text", "text": "what is this?"}, image]}]
    assert reply_of(llm, shot) == "I see a window."

    code, seen = (r.body for r in ollama_server.chat_requests)
    assert code["model"] == "qwen2.5-coder:7b" and seen["model"] == "llava:13b"
    assert seen["messages"][0]["images"]
    # Trained for 131072 tokens, run with the cap, and Ollama is told so on every request.
    assert code["options"]["num_ctx"] == seen["options"]["num_ctx"] == ollama.NUM_CTX_CAP


def test_a_model_not_installed_names_the_exact_pull(ollama_server: LLMServer) -> None:
    settings = Settings(offline=True, model="ollama_chat/qwen3:8b", api_base=ollama_server.url)
    with pytest.raises(local.LocalError, match=re.escape("`ollama pull qwen3:8b`")):
        local.choose(settings, embedded_available=True)
    # Without the check up front, Ollama's own 404 gives the same line.
    ollama_server.add(error(404, 'model "qwen3:8b" not found, try pulling it first'))
    with pytest.raises(LLMError, match=re.escape("`ollama pull qwen3:8b`")):
        reply_of(LLM(settings.replace(offline=False)), [{"role": "user", "content": "hi"}])


def test_offline_refuses_hosted_models() -> None:
    for model, base in (("gpt-4o", ""), ("openai/x", "https://api.example.com/v1")):
        settings = Settings(offline=True, model=model, api_base=base, api_key="k")
        with pytest.raises(local.LocalError, match="offline mode uses only local models"):
            local.choose(settings, embedded_available=True)
        with pytest.raises(LLMError, match="offline mode uses only local models"):
            reply_of(LLM(settings), [{"role": "user", "content": "hi"}])
    lan = Settings(offline=True, model="openai/x", api_base="http://192.168.1.20:8000/v1")
    assert local.choose(lan, embedded_available=False).settings is lan


def test_ollama_not_running_is_one_line_not_a_hang() -> None:
    base = closed_port_url()
    started = time.monotonic()
    with pytest.raises(local.LocalError, match=r"no local model: Ollama is not running at .*"
                       r"`ollama serve`.*install the embedded model"):
        local.choose(Settings(offline=True, api_base=base), embedded_available=False)
    plan = local.choose(Settings(offline=True, api_base=base), embedded_available=True)
    assert plan.embedded and plan.settings.model == ""
    # Without --local and with nothing found, nothing is decided here.
    assert local.choose(Settings(api_base=base), embedded_available=False).settings.model == ""
    with pytest.raises(LLMError, match=re.escape(f"Ollama is not running at {base}")):
        reply_of(LLM(Settings(model="ollama_chat/llama3.1", api_base=base)),
                 [{"role": "user", "content": "hi"}])
    assert time.monotonic() - started < 5


def test_a_server_that_never_accepts_fails_within_the_connect_timeout(dead_url: str) -> None:
    started = time.monotonic()
    with pytest.raises(ollama.OllamaUnavailable, match="no answer"):
        ollama.installed(dead_url, timeout=0.5)
    settings = Settings(model="ollama_chat/llama3.1", api_base=dead_url, connect_timeout=0.5,
                        context_window=4096, llm_timeout=30)
    with pytest.raises(LLMError, match=re.escape(f"Ollama is not running at {dead_url}")):
        reply_of(LLM(settings), [{"role": "user", "content": "hi"}])
    assert time.monotonic() - started < 3


def test_a_slow_first_token_times_out(ollama_server: LLMServer) -> None:
    ollama_server.add(delay(5, text("too late")))
    settings = Settings(model="ollama_chat/llama3.1:8b", api_base=ollama_server.url,
                        llm_timeout=0.5)
    started = time.monotonic()
    with pytest.raises(LLMError, match=r"did not answer within 0\.5 s"):
        reply_of(LLM(settings), [{"role": "user", "content": "hi"}])
    assert time.monotonic() - started < 3


def test_local_addresses() -> None:
    for url in ("http://127.0.0.1:11434", "http://localhost:8080/v1", "http://[::1]:1",
                "http://10.0.0.5", "http://gpu-box:8000", "http://studio.local:1234"):
        assert local.is_local_address(url), url
    for url in ("https://api.openai.com/v1", "http://8.8.8.8", "http://ollama.example.com"):
        assert not local.is_local_address(url), url
