"""Choosing a local model: what `--local` (offline = true) and an unconfigured start use.

Order: the model the user named (checked to be local and, on Ollama, installed);
else the best model installed in Ollama by the preference lists below; else the
embedded model. Nothing here talks to a host outside this machine's network.
"""

from __future__ import annotations

import ipaddress
import urllib.parse
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assistant.config import Settings
from assistant.servers import ollama

if TYPE_CHECKING:
    from assistant.servers.started import Servers

# Best first. The assistant's every answer is code, so coder models lead; then strong
# general models that write code well. Matched against the name without its tag
# ("qwen2.5-coder:7b" -> "qwen2.5-coder"); among tags of one name the largest wins.
CODE_PREFERENCE = (
    "qwen3-coder", "qwen2.5-coder", "devstral", "deepseek-coder-v2", "codestral",
    "qwen3", "qwen2.5", "llama3.3", "mistral-small", "llama3.1", "gemma3", "phi4",
    "mistral-nemo", "llama3.2", "mistral", "codellama", "deepseek-coder", "starcoder2",
    "gemma2", "phi3", "llama3", "smollm2",
)
# For turns that carry a screenshot: models that read images, best first.
VISION_PREFERENCE = (
    "qwen2.5vl", "llama3.2-vision", "gemma3", "minicpm-v", "llava-llama3", "llava",
    "llava-phi3", "bakllava", "moondream",
)
VISION_FAMILIES = {"clip", "mllama"}
EMBEDDING_FAMILIES = {"bert", "nomic-bert"}
RECOMMENDED = "qwen2.5-coder:7b"


class LocalError(Exception):
    """No local model can be used; the message is one line saying what to do."""


@dataclass(frozen=True)
class Plan:
    """What to run with: the settings to use, a line for the user, and whether the
    embedded server must be started (and the settings pointed at it)."""

    settings: Settings
    notice: str = ""
    embedded: bool = False


def base_name(name: str) -> str:
    """"library/qwen2.5-coder:7b" -> "qwen2.5-coder"."""
    return name.split(":", 1)[0].rsplit("/", 1)[-1].lower()


def pick(models: list[ollama.Installed], *, vision: bool = False) -> str | None:
    """The best installed model for code (or for images), or None when none fits."""
    usable = [m for m in models if not set(m.families) & EMBEDDING_FAMILIES
              and "embed" not in m.name.lower()]
    for wanted in VISION_PREFERENCE if vision else CODE_PREFERENCE:
        matches = [m for m in usable if base_name(m.name) == wanted]
        if matches:
            return max(matches, key=lambda m: m.size).name
    if vision:
        usable = [m for m in usable if set(m.families) & VISION_FAMILIES]
    return max(usable, key=lambda m: m.size).name if usable else None


def is_local_address(url: str) -> bool:
    """Whether a URL names this machine or its own network (never the internet).

    Loopback, private and link-local addresses, `localhost`, `*.local` and single-label
    host names (a machine on the LAN) count; any other name or public address does not.
    """
    host = urllib.parse.urlsplit(url if "//" in url else f"//{url}").hostname or ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host == "localhost" or host.endswith((".localhost", ".local")) or (
            bool(host) and "." not in host
        )
    return address.is_loopback or address.is_private or address.is_link_local


def _address(settings: Settings) -> str:
    """Where the model is reached; empty for a hosted provider's own endpoint."""
    if ollama.is_ollama(settings.model):
        return ollama.base_url(settings.api_base)
    return settings.api_base


def is_local_model(settings: Settings) -> bool:
    """Whether requests to the model stay on this machine or its network."""
    where = _address(settings)
    return bool(where) and is_local_address(where)


def check_local(settings: Settings) -> None:
    """Refuse, in offline mode, a model that would be reached over the internet."""
    model = settings.model
    where = _address(settings)
    if not where:
        raise LocalError(
            f"offline mode uses only local models, and {model} is a hosted one: use "
            "--model ollama_chat/NAME, or --api-base for a server on this machine or network"
        )
    if not is_local_address(where):
        raise LocalError(
            f"offline mode uses only local models, and {where} is not on this machine or its "
            "network: point --api-base at a local server"
        )


def choose(settings: Settings, *, embedded_available: bool) -> Plan:
    """The plan for `settings`: unchanged when a model is set and allowed, else a local one.

    Raises LocalError in offline mode when nothing local can answer; without offline
    mode and with nothing found, the settings come back unchanged (still without a
    model) for the caller to explain how to choose one.
    """
    if settings.model:
        if settings.offline:
            check_local(settings)
            if ollama.is_ollama(settings.model):
                _check_installed(settings)
        return Plan(settings)
    base = ollama.base_url(settings.api_base)
    try:
        models = ollama.installed(base, timeout=settings.connect_timeout)
    except ollama.OllamaUnavailable as exc:
        models, problem = [], str(exc)
    else:
        problem = f"Ollama at {base} has no models: run `ollama pull {RECOMMENDED}`"
    code = pick(models)
    if code:
        vision = settings.vision_model or pick(models, vision=True) or ""
        chosen = settings.replace(
            model=f"ollama_chat/{code}", api_base=base,
            vision_model=f"ollama_chat/{vision}" if vision and "/" not in vision else vision,
        )
        return Plan(chosen, f"using {code} from Ollama at {base}")
    if settings.embedded and embedded_available:
        return Plan(settings, problem, embedded=True)
    if settings.offline:
        hint = "" if embedded_available else (
            "; or install the embedded model with ./scripts/setup"
        )
        raise LocalError(f"no local model: {problem}{hint}")
    return Plan(settings)


def _check_installed(settings: Settings) -> None:
    base = ollama.base_url(settings.api_base)
    try:
        models = ollama.installed(base, timeout=settings.connect_timeout)
    except ollama.OllamaUnavailable as exc:
        raise LocalError(str(exc)) from None
    name = ollama.model_name(settings.model)
    if not ollama.has(models, name):
        raise LocalError(ollama.pull_hint(base, name))


def ready(settings: Settings, servers: Servers) -> Settings:
    """The settings to chat with: `choose`, then the embedded server when the plan needs
    it, started into `servers` (the user's shared one, found or started, or with
    `embedded_keep_alive` 0 a private one, which `servers` stops when closed).

    `servers.tell` receives the one line a user should see (which model is used, a
    restart). Raises LocalError, or EmbeddedError when the embedded server cannot start.
    """
    from assistant.servers import embedded

    plan = choose(settings, embedded_available=embedded.available(settings))
    if not plan.embedded:
        if plan.notice:
            servers.tell(plan.notice)
        return plan.settings
    return servers.start(embedded.chosen(settings), plan.settings)
