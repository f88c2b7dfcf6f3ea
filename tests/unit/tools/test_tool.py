"""How a tool is rated from its hints and the user's config, and named for providers."""

from __future__ import annotations

import pytest

from assistant.config import ConfigError, load_settings
from assistant.llm.fenced import find_blocks
from assistant.tool_settings import Rule
from assistant.tools.tool import Hints, Tool, rate


@pytest.mark.parametrize(("hints", "risk"), [
    (Hints(read_only=True), "low"),
    (Hints(destructive=True), "high"),
    (Hints(destructive=False), "medium"),
    (Hints(read_only=True, open_world=True), "medium"),
    (Hints(destructive=True, open_world=True), "high"),
    (None, "medium"),
])
def test_hints_rate_a_tool(hints: Hints | None, risk: str) -> None:
    assert rate("notes.x", hints, Rule())[0] == risk


def test_the_config_has_the_last_word() -> None:
    assert rate("n.rm", Hints(destructive=True), Rule(risk="low"))[0] == "low"
    level, reasons = rate("n.ls", Hints(read_only=True), Rule(deny=True))
    assert level == "blocked" and "denied" in reasons[0]


def test_provider_names_keep_only_the_characters_they_allow() -> None:
    tool = Tool("my-notes.search/all", "mcp:my-notes", "Find.\nMore.", {})
    assert tool.wire == "my-notes__search_all"
    assert tool.summary == "Find."
    assert tool.spec()["function"]["parameters"] == {"type": "object", "properties": {}}


def test_servers_are_read_from_config_and_profiles_add_to_them(tmp_path) -> None:
    config = tmp_path / "config"
    (config / "profiles").mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text(
        '[mcp_servers.notes]\ncommand = "python"\nargs = ["notes.py"]\n'
        'env = { NOTES_DIR = "~/notes" }\nrisk = "low"\n'
        '[mcp_servers.notes.tools.delete]\ndeny = true\n')
    (config / "profiles" / "work.toml").write_text(
        '[mcp_servers.web]\nurl = "http://127.0.0.1:9000/mcp"\n')
    settings = load_settings({"config_dir": str(config), "profile": "work"}, env={})
    notes, web = settings.mcp_servers["notes"], settings.mcp_servers["web"]
    assert notes.args == ("notes.py",) and not notes.env["NOTES_DIR"].startswith("~")
    assert notes.rule_for("delete") == Rule("low", True)
    assert notes.rule_for("list") == Rule("low", False)
    assert web.transport == "http"


@pytest.mark.parametrize(("table", "problem"), [
    ('[mcp_servers.a]\nargs = ["x"]\n', "needs either command"),
    ('[mcp_servers.a]\ncommand = "x"\nrisk = "none"\n', "risk must be one of"),
    ('[mcp_servers.a]\nurl = "ftp://x"\n', "url must start with"),
    ('[mcp_servers.a]\ncommand = "x"\n[mcp_servers.a.tools.t]\nrun = 1\n', "unknown key 'run'"),
])
def test_a_bad_server_table_is_one_line_with_the_file(tmp_path, table: str,
                                                      problem: str) -> None:
    (tmp_path / "config.toml").write_text(table)
    with pytest.raises(ConfigError, match=problem) as caught:
        load_settings({"config_dir": str(tmp_path)}, env={})
    assert str(tmp_path / "config.toml") in str(caught.value)


def test_a_fenced_block_tagged_with_a_tool_is_a_call() -> None:
    text = "```notes.search\n{\"q\": \"milk\"}\n```\n```text\nnot run\n```"
    tools = {"notes.search": "notes.search"}.get
    assert find_blocks(text, tools) == [("notes.search", '{"q": "milk"}')]
    assert find_blocks(text) == []
    assert find_blocks("```notes.search\n```", tools) == [("notes.search", "{}")]


def test_a_tool_call_is_spoken_as_a_call_with_its_arguments() -> None:
    from assistant.voice.speakable import speak_proposal

    code = '{\n  "name": "groceries.txt"\n}'
    assert speak_proposal("notes.delete_note", code) == (
        "Call notes, delete note: name groceries dot txt.")
    assert speak_proposal("notes.list_notes", "{}", mode="summary") == (
        "A call of the tool notes, list notes.")


def test_plugin_tools_are_rated_and_denied_in_config_like_a_servers(tmp_path) -> None:
    from assistant.tools.tool import PluginTool
    from assistant.tools.toolbox import Toolbox

    (tmp_path / "config.toml").write_text(
        '[plugin_tools.words]\nrisk = "high"\n'
        '[plugin_tools.words.tools.count]\nrisk = "low"\n'
        '[plugin_tools.words.tools.erase]\ndeny = true\n')
    settings = load_settings({"config_dir": str(tmp_path)}, env={})
    tools = [("words", PluginTool("count", lambda text: len(text.split()),
                                  hints=Hints(read_only=True))),
             ("words", PluginTool("upper", str.upper, hints=Hints(read_only=True))),
             ("words", PluginTool("erase", lambda: None))]
    box = Toolbox(plugin_tools=tools, plugin_rules=settings.plugin_tools)
    try:
        assert {t.name: t.risk for t in box.listing()} == {
            "words.count": "low", "words.upper": "high", "words.erase": "blocked"}
        assert [t.name for t in box.offered()] == ["words.count", "words.upper"]
    finally:
        box.close()


def test_a_bad_plugin_tools_table_is_one_line_with_the_file(tmp_path) -> None:
    (tmp_path / "config.toml").write_text('[plugin_tools.words]\nrisk = "none"\n')
    with pytest.raises(ConfigError, match=r"plugin_tools\.words: risk must be one of"):
        load_settings({"config_dir": str(tmp_path)}, env={})
