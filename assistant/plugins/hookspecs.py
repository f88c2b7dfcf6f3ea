"""What a plugin can add. Each hook is given a `register` function to call once per thing.

Everything a plugin registers is named `PLUGIN.NAME` where names could meet the LLM's
(tools); languages and engines keep their own names, and a built-in one always wins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

hookspec = pluggy.HookspecMarker("assistant")


@hookspec
def register_languages(register: Callable[[Any], None]) -> None:
    """Register a runtime: `register(Language(...))` (assistant.runtime.spec.Language,
    with `driver` the absolute path of a driver that speaks the runtimes' protocol)."""


@hookspec
def register_tools(register: Callable[[Any], None]) -> None:
    """Register a tool the LLM may call: `register(PluginTool(name, function, ...))`."""


@hookspec
def register_tts_engines(register: Callable[[str, Callable[[str], Any]], None]) -> None:
    """Register a speech engine: `register(NAME, factory)`; factory(voice) returns an object
    with `name` and `synthesize(text) -> (float32 samples, sample rate)`."""


@hookspec
def register_stt_engines(register: Callable[[str, Callable[[], Any]], None]) -> None:
    """Register a speech recogniser: `register(NAME, factory)`; factory() returns an object
    with `transcribe(samples: float32 16 kHz mono) -> str`. Chosen by stt_model = "NAME"."""


@hookspec
def register_commands(
    register: Callable[[str, str, Callable[[list[str]], int]], None],
) -> None:
    """Register a subcommand: `register(NAME, one-line help, main(argv) -> exit status)`."""
