"""The `[mcp_servers.NAME]` and `[plugin_tools.NAME]` tables of config.toml and profiles,
read into typed settings.

Kept free of the MCP SDK, so reading settings stays fast and runs nothing.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

from assistant.choices import LEVELS, Level

NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")
SERVER_KEYS = ("command", "args", "env", "url", "headers", "risk", "deny", "timeout", "tools")
RULE_KEYS = ("risk", "deny")


@dataclass(frozen=True)
class Rule:
    """The user's word on a server's or a tool's risk: a level replacing the rating from
    the tool's annotations, and whether it is never called."""

    risk: Level | None = None
    deny: bool = False


@dataclass(frozen=True)
class ServerConfig:
    """One MCP server: a command started over stdio, or the URL of a streamable-HTTP one."""

    name: str
    command: str = ""
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict)  # sent to an HTTP server
    rule: Rule = Rule()
    timeout: float = 0.0  # seconds a call may take; 0 = the run timeout
    tools: dict[str, Rule] = field(default_factory=dict)

    def rule_for(self, tool: str) -> Rule:
        return _rule_for(self.rule, self.tools, tool)

    @property
    def transport(self) -> str:
        return "http" if self.url else "stdio"


def _tables(value: Any, where: str, key: str) -> dict[str, Any]:
    """The `key` table of named tables, from TOML or from JSON text in the environment;
    ValueError naming `where` when it is neither."""
    if isinstance(value, str):
        try:
            value = json.loads(value or "{}")
        except ValueError:
            raise ValueError(f"{where}: {key} must be a JSON object here") from None
    if not isinstance(value, dict):
        raise ValueError(f"{where}: {key} must be a table of [{key}.NAME] tables")
    return value


def parse_servers(value: Any, where: str) -> dict[str, ServerConfig]:
    """Every server of a `mcp_servers` table (JSON text in the environment).

    Raises ValueError with a message naming `where`, the server and the problem.
    """
    value = _tables(value, where, "mcp_servers")
    return {name: _server(name, table, f"{where}: mcp_servers.{name}")
            for name, table in value.items()}


def _server(name: str, table: Any, where: str) -> ServerConfig:
    if isinstance(table, ServerConfig):
        return table
    if not NAME.fullmatch(name):
        raise ValueError(f"{where}: a server name is letters, digits, '-' and '_' only")
    if not isinstance(table, dict):
        raise ValueError(f"{where} must be a table")
    _known(table, SERVER_KEYS, where)
    command, url = table.get("command", ""), table.get("url", "")
    if not isinstance(command, str) or not isinstance(url, str) or bool(command) == bool(url):
        raise ValueError(f"{where} needs either command = \"...\" (stdio) or url = \"http...\"")
    if url and not url.startswith(("http://", "https://")):
        raise ValueError(f"{where}: url must start with http:// or https://, not {url!r}")
    args, env, headers = table.get("args", []), table.get("env", {}), table.get("headers", {})
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise ValueError(f"{where}: args must be a list of strings")
    for key, value in (("env", env), ("headers", headers)):
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise ValueError(f"{where}: {key} must be a table of strings")
    timeout = table.get("timeout", 0)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout < 0:
        raise ValueError(f"{where}: timeout must be a number of seconds")
    tools = table.get("tools", {})
    if not isinstance(tools, dict):
        raise ValueError(f"{where}: tools must be a table of [mcp_servers.{name}.tools.TOOL]")
    return ServerConfig(
        name=name,
        command=os.path.expanduser(command),
        args=tuple(os.path.expanduser(a) for a in args),
        env={str(k): _expand(v) for k, v in env.items()},
        url=url,
        headers={str(k): os.path.expandvars(v) for k, v in headers.items()},
        rule=_rule(table, where),
        timeout=float(timeout),
        tools={tool: _rule(rule, f"{where}.tools.{tool}") for tool, rule in tools.items()},
    )


@dataclass(frozen=True)
class PluginRules:
    """The user's word on one plugin's tools, as for a server's: `[plugin_tools.NAME]`
    with `risk`/`deny` for all of them, `[plugin_tools.NAME.tools.TOOL]` for one."""

    rule: Rule = Rule()
    tools: dict[str, Rule] = field(default_factory=dict)

    def rule_for(self, tool: str) -> Rule:
        return _rule_for(self.rule, self.tools, tool)


def _rule_for(owner: Rule, tools: dict[str, Rule], tool: str) -> Rule:
    """The tool's own rule over its owner's: deny from either, the tool's risk first."""
    own = tools.get(tool, Rule())
    return Rule(own.risk or owner.risk, own.deny or owner.deny)


def parse_plugin_rules(value: Any, where: str) -> dict[str, PluginRules]:
    """Every plugin's rules of a `plugin_tools` table (JSON text in the environment).

    Raises ValueError with a message naming `where`, the plugin and the problem.
    """
    value = _tables(value, where, "plugin_tools")
    rules = {}
    for name, table in value.items():
        place = f"{where}: plugin_tools.{name}"
        if isinstance(table, PluginRules):
            rules[name] = table
            continue
        if not isinstance(table, dict):
            raise ValueError(f"{place} must be a table")
        _known(table, (*RULE_KEYS, "tools"), place)
        tools = table.get("tools", {})
        if not isinstance(tools, dict):
            raise ValueError(f"{place}: tools must be a table of [plugin_tools.{name}.tools.TOOL]")
        rules[name] = PluginRules(_rule(table, place), {
            tool: _rule(rule, f"{place}.tools.{tool}") for tool, rule in tools.items()})
    return rules


def _expand(value: str) -> str:
    """`~` and `$VARIABLE`s, so a key can stay in the environment, out of config.toml."""
    return os.path.expandvars(os.path.expanduser(value))


def _rule(table: Any, where: str) -> Rule:
    if not isinstance(table, dict):
        raise ValueError(f"{where} must be a table")
    if where.count(".tools."):
        _known(table, RULE_KEYS, where)
    risk, deny = table.get("risk"), table.get("deny", False)
    if risk is not None and risk not in LEVELS:
        raise ValueError(f"{where}: risk must be one of {', '.join(LEVELS)}, not {risk!r}")
    if not isinstance(deny, bool):
        raise ValueError(f"{where}: deny must be true or false, not {deny!r}")
    return Rule(risk, deny)


def _known(table: dict[str, Any], keys: tuple[str, ...], where: str) -> None:
    unknown = sorted(set(table) - set(keys))
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(keys)})")
