from __future__ import annotations

from pathlib import Path

import pytest

from assistant.config import ConfigError, load_settings


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_defaults_without_any_file_or_key() -> None:
    settings = load_settings(env={})
    assert settings.model == ""
    assert settings.approval == "ask"
    assert settings.timeout == 120.0
    assert settings.max_output == 2800


def test_layers_override_in_order(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    write(config / "config.toml", 'model = "from-file"\nmax_output = 100\ntimeout = 5\n')
    env = {"ASSISTANT_CONFIG_DIR": str(config), "ASSISTANT_MAX_OUTPUT": "200"}
    settings = load_settings({"timeout": 7.5, "model": None}, env=env)
    assert settings.model == "from-file"
    assert settings.max_output == 200
    assert settings.timeout == 7.5


def test_profile_applies_between_file_and_environment(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    write(config / "config.toml", 'model = "base"\napproval = "ask"\n')
    write(config / "profiles" / "fast.toml", 'model = "fast-model"\napproval = "auto"\n')
    env = {"ASSISTANT_CONFIG_DIR": str(config)}
    settings = load_settings({"profile": "fast"}, env=env)
    assert (settings.model, settings.approval, settings.profile) == ("fast-model", "auto", "fast")
    env["ASSISTANT_MODEL"] = "env-model"
    assert load_settings({"profile": "fast"}, env=env).model == "env-model"


def test_missing_profile_names_the_file_to_create(tmp_path: Path) -> None:
    env = {"ASSISTANT_CONFIG_DIR": str(tmp_path)}
    expected = r"profile 'nope' not found: create .*profiles/nope\.toml"
    with pytest.raises(ConfigError, match=expected):
        load_settings({"profile": "nope"}, env=env)


def test_malformed_file_gives_file_and_line(tmp_path: Path) -> None:
    write(tmp_path / "config.toml", 'model = "ok"\nmax_output = = 3\n')
    with pytest.raises(ConfigError) as info:
        load_settings(env={"ASSISTANT_CONFIG_DIR": str(tmp_path)})
    message = str(info.value)
    assert str(tmp_path / "config.toml") in message
    assert "line 2" in message
    assert "\n" not in message


def test_the_old_auto_run_still_sets_the_approval_mode(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    write(config / "config.toml", 'auto_run = true\n')
    env = {"ASSISTANT_CONFIG_DIR": str(config)}
    with pytest.warns(DeprecationWarning, match="auto_run is deprecated"):
        assert load_settings(env=env).approval == "auto"
    with pytest.warns(DeprecationWarning, match="ASSISTANT_AUTO_RUN"):
        assert load_settings(env={"ASSISTANT_AUTO_RUN": "1"}).approval == "auto"
    assert load_settings({"auto_run": True, "approval": "never"}, env={}).approval == "never"
    assert load_settings({"auto_run": False}, env={}).approval == "ask"
    settings = load_settings(env={}).replace(auto_run=True)
    assert settings.approval == "auto" and settings.auto_run


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("max_output = 'lots'", "max_output must be a number"),
        ("auto_run = 'maybe'", "auto_run must be true or false"),
        ("colour = 'blue'", "unknown setting 'colour'"),
        ("code_style = 'magic'", "code_style must be auto, tools or fenced"),
        ("approval = 'sometimes'", "approval must be ask, auto or never, not 'sometimes'"),
        ("hotkey_mode = 'tap'", "hotkey_mode must be hold or toggle"),
        ("timeout = -1", "timeout must not be negative"),
    ],
)
@pytest.mark.filterwarnings("ignore:.*auto_run is deprecated:DeprecationWarning")
def test_bad_values_are_named(tmp_path: Path, text: str, needle: str) -> None:
    write(tmp_path / "config.toml", text + "\n")
    with pytest.raises(ConfigError, match=needle):
        load_settings(env={"ASSISTANT_CONFIG_DIR": str(tmp_path)})


def test_bad_environment_value_names_the_variable() -> None:
    with pytest.raises(ConfigError, match="ASSISTANT_TIMEOUT"):
        load_settings(env={"ASSISTANT_TIMEOUT": "soon"})


def test_provider_key_picks_a_model_only_when_none_is_set() -> None:
    assert load_settings(env={"OPENAI_API_KEY": "sk-x"}).model == "gpt-4o-mini"
    assert load_settings({"model": "mine"}, env={"OPENAI_API_KEY": "sk-x"}).model == "mine"


def test_profiles_are_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    payload = f'__import__(\\"os\\").system(\\"touch {marker}\\")'
    write(tmp_path / "profiles" / "evil.toml", f'model = "{payload}"\n')
    settings = load_settings({"profile": "evil"}, env={"ASSISTANT_CONFIG_DIR": str(tmp_path)})
    assert settings.model.startswith("__import__")
    assert not marker.exists()


def test_checks_off_takes_rule_ids_and_families_and_names_a_wrong_one() -> None:
    settings = load_settings({"checks_off": "peek,answer.no_figure"}, env={})
    assert settings.checks_off == "peek,answer.no_figure"
    assert load_settings(env={"ASSISTANT_CHECKS_PROFILE": "hosted"}).checks_profile == "hosted"
    with pytest.raises(ConfigError, match=r"option --checks-off: checks_off: unknown check "
                                          r"'hints': name a rule id"):
        load_settings({"checks_off": "hints"}, env={})
    with pytest.raises(ConfigError, match="checks_profile must be auto, all, small or hosted"):
        load_settings({"checks_profile": "tiny"}, env={})
