"""What an Ollama server says of itself (its models, their windows, whether it runs), asked
directly by the choice of a local model and by the adapter (litellm does the chatting)."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

PREFIXES = ("ollama/", "ollama_chat/")
DEFAULT_BASE = "http://localhost:11434"
# Ollama runs a model with a small default window (2048 or 4096 tokens, by version)
# whatever it was trained for, and silently drops what does not fit. The adapter
# therefore always sends num_ctx, and caps the trained size, because the memory for
# the key/value cache grows with it (a 128k window of an 8B model needs ~16 GB).
NUM_CTX_CAP = 16384


class OllamaUnavailable(Exception):
    """The server did not answer; the message is one line saying how to start it."""


@dataclass(frozen=True)
class Installed:
    """One model from /api/tags."""

    name: str
    size: int = 0
    families: tuple[str, ...] = ()


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


def installed(base: str, timeout: float = 2.0) -> list[Installed]:
    """The models the server has pulled, from /api/tags.

    Raises OllamaUnavailable when nothing answers within `timeout`, so a missing
    server costs seconds at most, never a hang.
    """
    try:
        with urllib.request.urlopen(f"{base}/api/tags", timeout=timeout) as response:
            entries = json.load(response).get("models") or []
    except (OSError, ValueError, AttributeError) as exc:
        raise OllamaUnavailable(not_running(base, exc)) from None
    found = []
    for entry in entries:
        name = entry.get("name") or entry.get("model")
        if not isinstance(name, str):
            continue
        details = entry.get("details") or {}
        families = tuple(details.get("families") or [details.get("family") or ""])
        found.append(Installed(name, int(entry.get("size") or 0), tuple(f for f in families if f)))
    return found


def not_running(base: str, exc: BaseException | None = None) -> str:
    why = ""
    if isinstance(exc, urllib.error.URLError) and not isinstance(exc, urllib.error.HTTPError):
        exc = exc.reason if isinstance(exc.reason, BaseException) else exc
    if isinstance(exc, TimeoutError):
        why = " (no answer)"
    return (
        f"Ollama is not running at {base}{why}: start it with `ollama serve` "
        "(install it from ollama.com), or point OLLAMA_API_BASE at it"
    )


def pull_hint(base: str, name: str) -> str:
    return f"The model {name} was not found at {base}: install it with `ollama pull {name}`"


def has(models: list[Installed], name: str) -> bool:
    """Whether `name` is installed; a name without a tag means ":latest", as in Ollama."""
    wanted = name if ":" in name else f"{name}:latest"
    return any(m.name in (name, wanted) for m in models)


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
