"""API keys kept in the system keyring (Secret Service, KWallet, ...) through `keyring`.

The keyring module is imported only when a key is stored or looked up. The names of
stored keys are kept in the keyring too, so `keys list` needs no file of its own.
"""

from __future__ import annotations

from typing import Any

SERVICE = "assistant"
INDEX = "__names__"
# The variable each provider prefix reads, for models named without a key.
PROVIDER_KEYS = (
    (("openai/", "gpt-", "o1", "o3", "o4"), "OPENAI_API_KEY"),
    (("anthropic/", "claude"), "ANTHROPIC_API_KEY"),
    (("gemini/",), "GEMINI_API_KEY"),
    (("groq/",), "GROQ_API_KEY"),
    (("mistral/",), "MISTRAL_API_KEY"),
)


class KeyringError(Exception):
    """The keyring cannot be used; the message says what to install or start."""


def _keyring() -> Any:
    try:
        import keyring
        from keyring.errors import KeyringError as Failure
    except ImportError:
        raise KeyringError("keys need the keyring package: pip install keyring") from None
    backend = keyring.get_keyring()
    if type(backend).__name__ == "Keyring" and "fail" in type(backend).__module__:
        raise KeyringError("no system keyring is running (e.g. gnome-keyring or KWallet): "
                           "start one, or set the key in the environment instead")
    return keyring, Failure


def _names(keyring: Any) -> list[str]:
    raw = keyring.get_password(SERVICE, INDEX) or ""
    return [n for n in raw.split(",") if n]


def store_key(name: str, value: str) -> None:
    keyring, failure = _keyring()
    try:
        keyring.set_password(SERVICE, name, value)
        names = sorted({*_names(keyring), name})
        keyring.set_password(SERVICE, INDEX, ",".join(names))
    except failure as exc:
        raise KeyringError(f"the keyring refused to store {name}: {exc}") from None


def delete_key(name: str) -> None:
    keyring, failure = _keyring()
    try:
        keyring.delete_password(SERVICE, name)
    except failure:
        raise KeyringError(f"no stored key {name}: `assistant keys list` shows them") from None
    keyring.set_password(SERVICE, INDEX, ",".join(n for n in _names(keyring) if n != name))


def stored_names() -> list[str]:
    keyring, _ = _keyring()
    return _names(keyring)


def key_for_model(model: str, env: dict[str, str]) -> str:
    """The stored key for a model's provider, when its variable is not in the environment.

    Returns "" when there is none or no keyring: a missing key is then reported by the
    provider's own error, as without a keyring.
    """
    name = next((var for prefixes, var in PROVIDER_KEYS if model.startswith(prefixes)), "")
    if not name or env.get(name):
        return ""
    try:
        keyring, _ = _keyring()
        return keyring.get_password(SERVICE, name) or ""
    except Exception:  # a locked or broken keyring must not stop a chat
        return ""
