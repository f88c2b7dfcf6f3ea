"""The installed plugins, loaded once per process from their entry points.

Each entry point is imported on its own, so one that fails to import (or whose hooks
fail) is one line in `problems` and the others still count. What each plugin registered
is kept with its name, for `assistant plugins` and for `plugin:NAME` sources.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import pluggy

from assistant.plugins import GROUP
from assistant.runtime.spec import Language
from assistant.tools.tool import PluginTool

Command = tuple[str, Callable[[list[str]], int]]


@dataclass
class Plugin:
    """One loaded plugin: its entry point name, the package that installed it, its hooks."""

    name: str
    package: str
    version: str
    adds: list[str] = field(default_factory=list)


@dataclass
class Plugins:
    """Everything the installed plugins add, by kind."""

    loaded: list[Plugin] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    languages: dict[str, tuple[str, Language]] = field(default_factory=dict)
    tools: list[tuple[str, PluginTool]] = field(default_factory=list)
    tts_engines: dict[str, tuple[str, Callable[[str], Any]]] = field(default_factory=dict)
    stt_engines: dict[str, tuple[str, Callable[[], Any]]] = field(default_factory=dict)
    commands: dict[str, tuple[str, str, Callable[[list[str]], int]]] = field(
        default_factory=dict)


def languages() -> dict[str, Language]:
    """The languages installed plugins add (a built-in name always wins), for the parts
    that run, offer or read code in them."""
    from assistant.runtime.languages import SPECS

    return {name: spec for name, (_, spec) in installed().languages.items()
            if name not in SPECS}


@functools.cache
def installed() -> Plugins:
    """The plugins installed in this Python environment (read once per process)."""
    from assistant.plugins import hookspecs

    manager = pluggy.PluginManager(GROUP)
    manager.add_hookspecs(hookspecs)
    found = Plugins()
    for entry in metadata.entry_points(group=GROUP):
        package = entry.dist.name if entry.dist is not None else ""
        version = entry.dist.version if entry.dist is not None else ""
        try:
            manager.register(entry.load(), name=entry.name)
        except Exception as exc:
            found.problems.append(f"plugin {entry.name} ({package}) was skipped: it failed to "
                                  f"load ({type(exc).__name__}: {exc})")
            continue
        found.loaded.append(Plugin(entry.name, package, version))
    for plugin in found.loaded:
        _collect(manager, plugin, found)
    return found


def _collect(manager: pluggy.PluginManager, plugin: Plugin, found: Plugins) -> None:
    """Call one plugin's hooks, each with a `register` that files what it is given."""
    name = plugin.name

    def language(spec: Language) -> None:
        found.languages.setdefault(spec.name, (name, spec))
        plugin.adds.append(f"language {spec.name}")

    def tool(item: PluginTool) -> None:
        found.tools.append((name, item))
        plugin.adds.append(f"tool {name}.{item.name}")

    def tts(engine: str, factory: Callable[[str], Any]) -> None:
        found.tts_engines.setdefault(engine, (name, factory))
        plugin.adds.append(f"tts engine {engine}")

    def stt(engine: str, factory: Callable[[], Any]) -> None:
        found.stt_engines.setdefault(engine, (name, factory))
        plugin.adds.append(f"stt engine {engine}")

    def command(word: str, help_text: str, main: Callable[[list[str]], int]) -> None:
        found.commands.setdefault(word, (name, help_text, main))
        plugin.adds.append(f"command {word}")

    hooks: dict[str, Callable[..., None]] = {
        "register_languages": language, "register_tools": tool,
        "register_tts_engines": tts, "register_stt_engines": stt,
        "register_commands": command}
    for hook, register in hooks.items():
        try:
            for implementation in getattr(manager.hook, hook).get_hookimpls():
                if implementation.plugin_name == name:
                    implementation.function(register=register)
        except Exception as exc:
            found.problems.append(f"plugin {name}: {hook} failed ({type(exc).__name__}: "
                                  f"{exc}); what it added before that is kept")
