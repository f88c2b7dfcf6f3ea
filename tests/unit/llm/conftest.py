"""A scripted LLM server per test, and settings that point the adapter at it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from assistant.config import Settings
from tests.support.llm_server import LLMServer


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as running:
        yield running


@pytest.fixture
def openai_settings(server: LLMServer) -> Settings:
    """An OpenAI-compatible endpoint; code_style is left for each test to choose."""
    return Settings(
        model="openai/test-model", api_base=server.openai_url, api_key="test", llm_timeout=5
    )


@pytest.fixture
def ollama_settings(server: LLMServer) -> Settings:
    return Settings(model="ollama_chat/llama3.2", api_base=server.url, llm_timeout=5)
