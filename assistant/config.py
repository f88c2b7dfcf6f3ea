"""One Settings object: defaults < config.toml < profile < environment < flags.

Profiles and the config file are TOML, never code, so loading settings can run nothing.
"""

from __future__ import annotations

import dataclasses
import os
import warnings
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

from assistant.choices import (
    ApprovalMode,
    CodeStyle,
    HotkeyMode,
    PeekFiles,
    SandboxMode,
    ScreenContext,
    ScreenFormat,
    SpeakProposals,
    one_of,
)
from assistant.deny import DEFAULT_DENY, DenyRules
from assistant.rulebook import profiles, resolve
from assistant.tomlread import tomllib
from assistant.tool_settings import PluginRules, ServerConfig, parse_plugin_rules, parse_servers

APP = "assistant"
ENV_PREFIX = "ASSISTANT_"
# An old name still read from config.toml, profiles, ASSISTANT_AUTO_RUN and keyword
# arguments: auto_run = true is approval = "auto", except that a mode of never stays never.
AUTO_RUN = "auto_run"


class ConfigError(Exception):
    """Bad settings; the message is one line naming the place and the problem."""


@dataclass
class Settings:
    """Everything a conversation needs to know; each Assistant owns its own copy."""

    model: str = ""
    api_base: str = ""
    api_key: str = ""
    system_message: str = ""
    max_output: int = 2800
    timeout: float = 120.0
    max_runs_per_turn: int = 20
    code_style: CodeStyle = "auto"
    context_window: int = 0
    max_tokens: int = 0
    temperature: float = 0.0
    llm_timeout: float = 60.0
    # the first lines of files a request names go with it: to local models, always, never
    peek_files: PeekFiles = "local"
    # the loop's checks of the model (assistant/checks/rules.toml): rule ids or families
    # turned off, comma-separated; and the profile that picks the set (auto = small for a
    # model on this machine or its network, hosted otherwise; all; small; hosted)
    checks_off: str = ""
    checks_profile: str = "auto"
    journal: bool = True
    profile: str = ""
    data_dir: str = ""
    config_dir: str = ""
    # voice: "" model = the built-in tiny.en (base for a language other than English);
    # stt_language = an ISO 639-1 code, auto (English on tiny.en, found per take on base), or
    # codes separated by commas (en,fr: found among them);
    # device = a name part or index ("" = default)
    stt_model: str = ""
    stt_language: str = "auto"
    input_device: str = ""
    output_device: str = ""
    tts_engine: str = "auto"
    tts_voice: str = ""
    hotkey: str = "ctrl+alt+space"
    hotkey_mode: HotkeyMode = "hold"
    speak_proposals: SpeakProposals = "code"
    # the daemon: a short soft sound when the key is let go on speech (heard, working on it)
    earcon: bool = True
    voice_approves_high_risk: bool = False
    # the daemon: a request after this many minutes of silence starts a new conversation
    # (0 = never)
    conversation_idle_minutes: float = 10.0
    # the daemon: seconds its LLM client (litellm, in a process of its own, ~200 MB) and
    # its voice stay after the last request; the hotkey loads them again (0 = always kept)
    keep_alive: float = 300.0
    # local models: offline = only models on this machine or its network (--local);
    # vision_model replaces model for turns that carry an image; embedded = start the
    # embedded model when no other model is configured or found; embedded_model = which
    # ("" = qwen2.5-coder-1.5b; a name from `assistant models`, or a .gguf path);
    # embedded_keep_alive = seconds the embedded model's server, shared by every program of
    # the user's, stays loaded after its last request (0 = stopped when the program that
    # started it exits, -1 = until `assistant models stop`)
    offline: bool = False
    vision_model: str = ""
    connect_timeout: float = 5.0
    embedded: bool = True
    embedded_model: str = ""
    embedded_keep_alive: float = 300.0
    # safety: the approval mode, ask | auto (low risk runs unasked; -y) | never (propose
    # only); deny = families never run, whoever approves, plus command:NAME entries;
    # auto_places = folders besides the working one where a run under auto may change
    # files without asking (a list in TOML, ':'-separated in the environment)
    approval: ApprovalMode = "ask"
    deny: str = DEFAULT_DENY
    auto_places: tuple[str, ...] = ()
    # per-run limits (0 = none): resident memory of the run's processes, processes at
    # once, CPU seconds, characters printed; wall time is `timeout`
    max_memory_mb: int = 2048
    max_processes: int = 128
    max_cpu_seconds: float = 240.0
    max_run_output: int = 20_000_000
    # screen: when turns carry the screen (auto = requests about the screen), as an image or
    # as the OCR text map (auto = image when the model has vision), how many stay in context
    screen_context: ScreenContext = "auto"
    screen_format: ScreenFormat = "auto"
    screen_images: int = 2
    screenshot_max_side: int = 1280
    # sandbox: guard = every run sees the system as it is but cannot change the assistant's
    # own files (when bubblewrap works here); true (on) = the full bubblewrap sandbox
    # (--sandbox); false (off) = neither. Writable folders of the full sandbox (empty = the
    # runs' working directory; a list in TOML, ':'-separated in the environment); network
    sandbox: SandboxMode = "guard"
    sandbox_writable: tuple[str, ...] = ()
    sandbox_network: bool = True
    # variables that hold secrets (*_API_KEY, *_TOKEN, *_SECRET, *PASSWORD, *_ACCESS_KEY)
    # are not in runs' environments; the names listed here are let through all the same
    run_env_allow: tuple[str, ...] = ()
    # session-bus names runs may talk to besides runtime/bus.toml's (the keyring's never)
    run_bus_allow: tuple[str, ...] = ()
    # LLM calls (each request to the model, several in a turn) in any minute, all
    # conversations of one running assistant together (0 = no limit)
    llm_calls_per_minute: int = 0
    # undo: every run is first previewed in a what-if world (where user namespaces work),
    # what it replaces or deletes is kept in the data folder, and `assistant undo` puts it back
    undo: bool = True
    # the web page (`assistant serve`; the daemon too with serve = true): its port on
    # 127.0.0.1, the LLM calls a minute while it is served (the stricter limit holds), and
    # whether its token is kept across starts (false: a new one at every start)
    serve: bool = False
    serve_port: int = 8421
    serve_llm_calls_per_minute: int = 30
    serve_keep_token: bool = False
    # tools: MCP servers by name ([mcp_servers.NAME] tables; profiles add to them)
    mcp_servers: dict[str, ServerConfig] = field(default_factory=dict)
    # plugins' tools re-rated or denied, as a server's: [plugin_tools.NAME] risk/deny, and
    # [plugin_tools.NAME.tools.TOOL] for one tool
    plugin_tools: dict[str, PluginRules] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def replace(self, **changes: Any) -> Settings:
        if changes.pop(AUTO_RUN, False) and changes.get("approval", self.approval) == "ask":
            changes["approval"] = "auto"
        return dataclasses.replace(self, **changes)

    @property
    def auto_run(self) -> bool:
        """Deprecated: whether the approval mode is auto."""
        return self.approval == "auto"

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir) if self.data_dir else default_data_dir()

    @property
    def models_path(self) -> Path:
        """Where model files live: the embedded weights and `assistant models pull`."""
        return self.data_path / "models"

    @property
    def config_path(self) -> Path:
        return Path(self.config_dir) if self.config_dir else default_config_dir()

    @property
    def own_paths(self) -> tuple[str, ...]:
        """The assistant's own files (config, profiles, journal): no run may change them."""
        own = [self.config_path, self.data_path]
        if self.profile:
            own.append(profile_path(self.config_path, self.profile))
        return tuple(dict.fromkeys(str(path) for path in own))


def default_config_dir() -> Path:
    if os.environ.get(ENV_PREFIX + "CONFIG_DIR"):
        return Path(os.environ[ENV_PREFIX + "CONFIG_DIR"])
    import platformdirs

    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def default_data_dir() -> Path:
    if os.environ.get(ENV_PREFIX + "DATA_DIR"):
        return Path(os.environ[ENV_PREFIX + "DATA_DIR"])
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


# With no model configured, a provider key in the environment picks that provider's everyday model.
KEY_MODELS = (
    ("OPENAI_API_KEY", "gpt-4o-mini"),
    ("ANTHROPIC_API_KEY", "claude-3-5-haiku-latest"),
    ("GEMINI_API_KEY", "gemini/gemini-1.5-flash"),
    ("GROQ_API_KEY", "groq/llama-3.1-8b-instant"),
    ("MISTRAL_API_KEY", "mistral/mistral-small-latest"),
)


def model_from_keys(env: dict[str, str]) -> str:
    return next((model for key, model in KEY_MODELS if env.get(key)), "")


_FIELDS = {f.name: f for f in fields(Settings) if f.name != "extra"}
_HINTS = get_type_hints(Settings)
_PATH_KEYS = {"data_dir", "config_dir"}
_FOREVER_KEYS = {"embedded_keep_alive"}  # numbers where -1 means "forever"
# The sandbox is also switched with a boolean: TOML's true and false, and their spellings.
_SANDBOX_SWITCH = {"true": "on", "1": "on", "yes": "on", "false": "off", "0": "off", "no": "off"}


def _choice(name: str, value: Any, where: str) -> str:
    """One of the words the field's Literal declares, or an error that lists them."""
    allowed: tuple[str, ...] = get_args(_HINTS[name])
    shown = allowed
    if name == "sandbox":
        value = str(value).strip().lower()
        value = _SANDBOX_SWITCH.get(value, value)
        shown = tuple({"on": "true", "off": "false"}.get(word, word) for word in allowed)
    if value not in allowed:
        raise ConfigError(f"{where}: {name} must be {one_of(shown)}, not {value!r}")
    return str(value)


def _flag(name: str, value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off", ""):
        return False
    raise ConfigError(f"{where}: {name} must be true or false, not {value!r}")


def _checks(name: str, value: str, where: str) -> None:
    """The fields that name rules: deny rules that parse, the loop's rule ids and families
    that exist, a checks profile that profiles.toml defines."""
    if name == "deny":
        try:
            DenyRules.parse(value)
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    elif name == "checks_profile":
        known = ("auto", *profiles())
        if value not in known:
            raise ConfigError(f"{where}: checks_profile must be {one_of(known)}, not {value!r}")
    elif name == "checks_off":
        try:
            resolve(value)
        except ValueError as exc:
            raise ConfigError(f"{where}: checks_off: {exc}") from None


def _coerce(name: str, value: Any, where: str) -> Any:
    """Turn a TOML or environment value into the field's type, or say what is wrong."""
    if name == AUTO_RUN:
        return _flag(name, value, where)
    if get_origin(_HINTS[name]) is Literal:
        return _choice(name, value, where)
    if name in ("mcp_servers", "plugin_tools"):
        try:
            return (parse_servers if name == "mcp_servers" else parse_plugin_rules)(value, where)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    kind = type(getattr(Settings(), name))
    _checks(name, str(value), where)
    if kind is tuple:
        items = value.split(os.pathsep) if isinstance(value, str) else value
        if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items):
            what = "names" if name in ("run_env_allow", "run_bus_allow") else "folders"
            raise ConfigError(f"{where}: {name} must be a list of {what}, not {value!r}")
        return tuple(i for i in items if i)
    if kind is bool:
        return _flag(name, value, where)
    if kind in (int, float):
        if isinstance(value, bool):
            raise ConfigError(f"{where}: {name} must be a number, not {value!r}")
        try:
            number = kind(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{where}: {name} must be a number, not {value!r}") from None
        if number < 0 and not (name in _FOREVER_KEYS and number == -1):
            raise ConfigError(f"{where}: {name} must not be negative, got {value!r}")
        return number
    if not isinstance(value, str):
        raise ConfigError(f"{where}: {name} must be text, not {value!r}")
    return value


def read_toml(path: Path) -> dict[str, Any]:
    """Read a TOML file; a syntax error becomes one line with the file and line."""
    try:
        with path.open("rb") as handle:
            return dict(tomllib.load(handle))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc} — fix or remove that line") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None


def _apply_table(values: dict[str, Any], table: dict[str, Any], source: Path) -> None:
    for key, value in table.items():
        name = key.replace("-", "_")
        if name == AUTO_RUN:
            _deprecated(str(source))
        elif name not in _FIELDS or name in _PATH_KEYS:
            known = ", ".join(sorted(n for n in _FIELDS if n not in _PATH_KEYS))
            raise ConfigError(f"{source}: unknown setting {key!r} (known: {known})")
        coerced = _coerce(name, value, str(source))
        if name in ("mcp_servers", "plugin_tools"):  # a profile's join those of config.toml
            coerced = {**values.get(name, {}), **coerced}
        values[name] = coerced


def _deprecated(where: str) -> None:
    warnings.warn(f'{where}: auto_run is deprecated; use approval = "auto"', DeprecationWarning,
                  stacklevel=4)


def profile_path(config_dir: Path, name: str) -> Path:
    """Profiles live beside config.toml; a bare name gets the .toml suffix."""
    candidate = Path(name).expanduser()
    if candidate.suffix == ".toml" and candidate.exists():
        return candidate
    return config_dir / "profiles" / f"{name}.toml"


def load_settings(
    flags: dict[str, Any] | None = None, env: dict[str, str] | None = None
) -> Settings:
    """Build Settings from every layer; flags with value None are treated as not given."""
    env = dict(os.environ) if env is None else env
    flags = {k: v for k, v in (flags or {}).items() if v is not None}
    values: dict[str, Any] = {}

    config_dir = Path(flags.get("config_dir") or env.get(ENV_PREFIX + "CONFIG_DIR") or "")
    config_dir = config_dir if str(config_dir) not in ("", ".") else default_config_dir()
    config_file = config_dir / "config.toml"
    if config_file.exists():
        _apply_table(values, read_toml(config_file), config_file)

    env_values: dict[str, Any] = {}
    for name in [*_FIELDS, AUTO_RUN]:
        raw = env.get(ENV_PREFIX + name.upper())
        if raw is not None:
            where = f"environment {ENV_PREFIX}{name.upper()}"
            if name == AUTO_RUN:
                _deprecated(where)
            env_values[name] = _coerce(name, raw, where)

    profile = flags.get("profile") or env_values.get("profile") or values.get("profile")
    if profile:
        path = profile_path(config_dir, profile)
        if not path.exists():
            raise ConfigError(f"profile {profile!r} not found: create {path}")
        _apply_table(values, read_toml(path), path)
        values["profile"] = profile

    values.update(env_values)
    for name, value in flags.items():
        if name not in _FIELDS and name != AUTO_RUN:
            raise ConfigError(f"unknown setting {name!r}")
        values[name] = _coerce(name, value, f"option --{name.replace('_', '-')}")
    if values.pop(AUTO_RUN, False) and values.get("approval", "ask") == "ask":
        values["approval"] = "auto"
    values["config_dir"] = str(config_dir)
    if not values.get("model"):
        values["model"] = model_from_keys(env)
    return Settings(**values)
