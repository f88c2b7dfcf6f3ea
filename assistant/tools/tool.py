"""A tool as the LLM is offered it, and its risk as rated from what its server says of it.

MCP annotations are hints from the server: read-only is low risk, destructive is high,
open-world (reaching outside this machine) is at least medium, and a tool that says
nothing is medium. The user's config has the last word (`risk`, `deny`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from assistant.safety.findings import Level, higher
from assistant.tool_settings import Rule

SOURCES = ("builtin", "mcp:", "plugin:")
_WIRE = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True)
class Hints:
    """What a tool says of itself (MCP ToolAnnotations); None is "not said"."""

    read_only: bool | None = None
    destructive: bool | None = None
    open_world: bool | None = None


@dataclass(frozen=True)
class Tool:
    """One tool offered to the LLM, named `OWNER.TOOL` (a server's or a plugin's name)."""

    name: str
    source: str
    description: str
    parameters: dict[str, Any]
    risk: Level = "medium"
    reasons: tuple[str, ...] = ()

    @property
    def wire(self) -> str:
        """The function name sent to providers, which allow only [A-Za-z0-9_-]{1,64}."""
        return _WIRE.sub("_", self.name.replace(".", "__", 1))[:64]

    @property
    def summary(self) -> str:
        """The description's first line, for lists."""
        lines = self.description.strip().splitlines()
        return lines[0].strip() if lines else ""

    def spec(self) -> dict[str, Any]:
        """The OpenAI-style function the LLM is offered."""
        parameters = self.parameters if self.parameters.get("type") == "object" else {
            "type": "object", "properties": {}}
        return {"type": "function", "function": {
            "name": self.wire, "description": self.description or self.name,
            "parameters": parameters}}

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "source": self.source, "risk": self.risk,
                "description": self.summary}


@dataclass(frozen=True)
class PluginTool:
    """A tool a plugin registers: a Python function called with the JSON arguments.

    `parameters` is the JSON Schema of its arguments; the hints rate it as MCP ones do.
    """

    name: str
    function: Callable[..., Any]
    description: str = ""
    parameters: dict[str, Any] = field(
        default_factory=lambda: {"type": "object", "properties": {}})
    hints: Hints = Hints()


def rate(name: str, hints: Hints | None, rule: Rule) -> tuple[Level, tuple[str, ...]]:
    """The risk of calling `name`, and the reasons a person is shown."""
    if rule.deny:
        return "blocked", (f"denied: `{name}` is denied in the config",)
    if rule.risk is not None:
        return rule.risk, (f"config: `{name}` is set to {rule.risk} risk",)
    hints = hints or Hints()
    if hints.read_only:
        level: Level = "low"
        reasons = [f"read-only: `{name}` says it changes nothing"]
    elif hints.destructive:
        level, reasons = "high", [f"destructive: `{name}` says it may delete or overwrite"]
    else:
        level, reasons = "medium", [f"tool: `{name}` may change things"]
    if hints.open_world:
        level = higher(level, "medium")
        reasons.append(f"open-world: `{name}` reaches beyond this machine")
    return level, tuple(reasons)
