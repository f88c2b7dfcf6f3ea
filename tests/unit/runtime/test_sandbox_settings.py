"""Sandbox settings: folders from TOML lists or the environment, and what stays protected."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from assistant.config import ConfigError, load_settings
from assistant.runtime.sandbox import Sandbox


def test_writable_folders_from_toml_environment_and_flags(isolated_dirs: Path) -> None:
    config = isolated_dirs / "config" / "config.toml"
    config.write_text('sandbox = true\nsandbox_writable = ["~/Documents", "/srv/data"]\n'
                      "sandbox_network = false\n")
    settings = load_settings(env={"ASSISTANT_CONFIG_DIR": str(config.parent)})
    assert (settings.sandbox, settings.sandbox_network) == ("on", False)
    assert settings.sandbox_writable == ("~/Documents", "/srv/data")
    sandbox = Sandbox.from_settings(settings)
    assert sandbox.writable == (str(Path.home() / "Documents"), "/srv/data")
    from_env = load_settings(env={"ASSISTANT_CONFIG_DIR": str(config.parent),
                                  "ASSISTANT_SANDBOX_WRITABLE": "/a:/b"})
    assert from_env.sandbox_writable == ("/a", "/b")
    config.write_text("sandbox_writable = 3\n")
    with pytest.raises(ConfigError, match="sandbox_writable must be a list of folders"):
        load_settings(env={"ASSISTANT_CONFIG_DIR": str(config.parent)})


def test_the_assistants_own_folders_are_protected(isolated_dirs: Path) -> None:
    settings = load_settings()
    protected = Sandbox.from_settings(settings).protected
    package = Path(__file__).resolve().parents[3] / "assistant"
    own = (str(isolated_dirs / "config"), str(isolated_dirs / "data"), str(package),
           sys.prefix, sys.base_prefix)  # base_prefix: the interpreter a venv points to
    assert protected == tuple(dict.fromkeys(own))


def test_the_guard_is_the_default_and_each_choice_has_one_spelling(isolated_dirs: Path) -> None:
    assert load_settings().sandbox == "guard"
    config = isolated_dirs / "config" / "config.toml"
    for written, meant in (("true", "on"), ("false", "off"), ('"guard"', "guard")):
        config.write_text(f"sandbox = {written}\n")
        assert load_settings().sandbox == meant
    config.write_text('sandbox = "maybe"\n')
    with pytest.raises(ConfigError, match="sandbox must be true, guard or false"):
        load_settings()
    config.write_text("sandbox = false\n")
    assert Sandbox.from_settings(load_settings()) is None
