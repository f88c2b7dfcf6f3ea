"""Redaction: known secret values and well-known key shapes become [redacted]."""

from __future__ import annotations

from assistant.safety.redact import Redactor


def test_known_values_from_settings_and_environment() -> None:
    env = {"MY_SERVICE_TOKEN": "tok-abcdefgh1234", "HOME": "/home/me", "SHORT_API_KEY": "abc"}
    redact = Redactor.from_environment("custom-key-XYZ-987654", env)
    text = "key custom-key-XYZ-987654 and tok-abcdefgh1234 in /home/me with abc"
    assert redact(text) == "key [redacted] and [redacted] in /home/me with abc"


def test_key_shapes_it_was_never_told_about() -> None:
    redact = Redactor()
    leaked = ("sk-proj-" + "a1" * 12, "ghp_" + "Z" * 36, "AKIA" + "ABCDEFGHIJKLMNOP")
    assert redact(" | ".join(leaked)) == " | ".join(["[redacted]"] * 3)
    assert redact("sk-learn is a library; ghp_ alone is not a key") == (
        "sk-learn is a library; ghp_ alone is not a key")
