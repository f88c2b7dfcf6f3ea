"""`assistant tools` starts the configured servers, lists their tools with source and risk,
says a broken server in one line, and leaves no server running."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.integration.conftest import ROOT
from tests.support.mcp_server import config_toml, http_server, stdio_config


def tools(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assistant.cli", "tools", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_tools_json_lists_each_servers_tools_with_their_risk(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    with http_server(notes) as url:
        servers = {"notes": stdio_config(notes), "web": {"url": url, "risk": "medium"},
                   "gone": {"command": "no-such-mcp-server-zz"}}
        Path(os.environ["ASSISTANT_CONFIG_DIR"], "config.toml").write_text(
            config_toml(servers) + "[mcp_servers.notes.tools.crash]\ndeny = true\n")
        listed = tools("--json")
        table = tools()
    assert listed.returncode == 0, listed.stderr
    rows = {row["name"]: row for row in json.loads(listed.stdout)}
    assert rows["execute"]["source"] == "builtin"
    assert rows["notes.list_notes"] == {"name": "notes.list_notes", "source": "mcp:notes",
                                        "risk": "low",
                                        "description": "List the notes, one name a line."}
    assert rows["notes.delete_note"]["risk"] == "high"
    assert rows["notes.crash"]["risk"] == "blocked"
    assert rows["web.list_notes"]["risk"] == "medium" and rows["web.echo"]["source"] == "mcp:web"
    assert listed.stderr.strip() == ("assistant tools: MCP server gone did not start "
                                     "(no-such-mcp-server-zz: command not found): its tools "
                                     "are not offered")
    line = next(line for line in table.stdout.splitlines() if line.startswith("notes.echo"))
    assert line.split()[:3] == ["notes.echo", "mcp:notes", "low"]
    assert serving(notes) == []


def serving(notes: Path) -> list[str]:
    """Processes whose environment points at this test's notes: servers left running."""
    marker = f"NOTES_DIR={notes}".encode()
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if marker in environ.read_bytes().split(b"\0"):
                found.append(environ.parent.name)
        except OSError:
            continue
    return found


def test_doctor_starts_the_servers_nearby_and_names_the_plugins(tmp_path: Path) -> None:
    from assistant.commands.doctor import check_mcp_servers, check_plugins
    from assistant.config import load_settings
    from assistant.plugins.registry import installed

    notes = tmp_path / "notes"
    notes.mkdir()
    Path(os.environ["ASSISTANT_CONFIG_DIR"], "config.toml").write_text(config_toml({
        "notes": stdio_config(notes), "hosted": {"url": "https://mcp.example.com/mcp"},
        "gone": {"command": "no-such-mcp-server-zz"}}))
    servers = check_mcp_servers(load_settings())
    assert not servers.ok
    assert servers.detail == ("MCP server gone did not start (no-such-mcp-server-zz: command "
                              "not found): its tools are not offered; notes: 6 tools; hosted: "
                              "not probed (outside this machine)")
    plugins = check_plugins(load_settings())
    named = [f"{p.name} ({p.package} {p.version})" for p in installed().loaded]
    assert plugins.ok and plugins.detail == (", ".join(named) or "none installed")
