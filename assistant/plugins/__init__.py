"""Plugins: installed packages that add languages, speech engines, tools and subcommands.

A plugin is a module named by an entry point in the `assistant` group; it implements any
of the hooks in `assistant.plugins.hookspecs`, marked with `hookimpl`:

    from assistant.plugins import PluginTool, hookimpl

    @hookimpl
    def register_tools(register):
        register(PluginTool("word_count", lambda text: len(text.split()), "Count words."))

A plugin that fails to load is reported in one line and skipped; the rest still load.
"""

from __future__ import annotations

import pluggy

from assistant.runtime.spec import Language
from assistant.tools.tool import Hints, PluginTool

GROUP = "assistant"
hookimpl = pluggy.HookimplMarker(GROUP)

__all__ = ["GROUP", "Hints", "Language", "PluginTool", "hookimpl"]
