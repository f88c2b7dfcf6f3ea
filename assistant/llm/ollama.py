"""The little the adapter asks an Ollama server directly (litellm does the chatting)."""

from __future__ import annotations

import json
import os
import urllib.request
from typing import Any

PREFIXES = ("ollama/", "ollama_chat/")
DEFAULT_BASE = "http://localhost:11434"


def is_ollama(model: str) -> bool:
    return model.startswith(PREFIXES)


def model_name(model: str) -> str:
    """The name Ollama knows the model by: "ollama_chat/llama3.1" -> "llama3.1"."""
    return model.split("/", 1)[1] if is_ollama(model) else model


def base_url(api_base: str = "") -> str:
    """The server root, whether the setting names the root or its /api/chat endpoint."""
    base = (api_base or os.environ.get("OLLAMA_API_BASE") or DEFAULT_BASE).rstrip("/")
    for suffix in ("/api/chat", "/api/generate"):
        base = base.removesuffix(suffix)
    return base


def context_length(base: str, name: str, timeout: float = 2.0) -> int | None:
    """The model's trained context length from /api/show, or None if the server cannot say.

    The timeout is short because this runs before the first request and a missing
    answer only means falling back to a default.
    """
    request = urllib.request.Request(
        f"{base}/api/show",
        data=json.dumps({"model": name}).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            info: dict[str, Any] = json.load(response).get("model_info") or {}
    except (OSError, ValueError, AttributeError):
        return None
    arch = info.get("general.architecture")
    value = info.get(f"{arch}.context_length")
    if value is None:
        value = next((v for k, v in info.items() if k.endswith(".context_length")), None)
    return value if isinstance(value, int) and value > 0 else None
