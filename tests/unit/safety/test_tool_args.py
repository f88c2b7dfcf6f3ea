"""A tool call's arguments meet the rules code meets: the tool's own rating is raised by the
paths it names (read, written, deleted or moved), the commands it carries and the text it
types, through the policy every call passes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from assistant.safety.policy import Policy
from assistant.safety.risk import Assessment
from assistant.tool_settings import Rule
from assistant.tools.tool import Hints, rate


class OneServer:
    """The ratings of a server's tools, made from their hints as the Toolbox makes them."""

    def __init__(self, **hints: Hints) -> None:
        self.ratings = {f"srv.{name}": rate(f"srv.{name}", hint, Rule())
                        for name, hint in hints.items()}

    def rating(self, name: str) -> tuple[str, Assessment] | None:
        rated = self.ratings.get(name)
        return ("mcp:srv", Assessment(rated[0], rated[1], ("tool",))) if rated else None


READS, SAYS_NOTHING = Hints(read_only=True), Hints()


def rated(tool: str, hints: Hints, arguments: dict[str, Any], own: tuple[str, str]) -> Assessment:
    policy = Policy(None, protected=own, tools=OneServer(**{tool: hints}))
    return policy.assess(f"srv.{tool}", json.dumps(arguments))


@pytest.mark.parametrize(("call", "risk", "family"), [
    (("write_file", SAYS_NOTHING, {"path": "~/.config/assistant/config.toml", "content": "x"}),
     "blocked", "self-tamper"),
    (("read_file", READS, {"path": "~/.local/share/assistant/web-token"}), "high", "secrets"),
    (("read_file", READS, {"path": "web-token", "directory": "~/.local/share/assistant"}),
     "high", "secrets"),
    (("read_file", READS, {"path": "~/.ssh/id_ed25519"}), "high", "secrets"),
    (("read_file", READS, {"path": "notes/../../.config/assistant/config.toml"}),
     "medium", "secrets"),
    (("get_env", READS, {"name": "OPENAI_API_KEY"}), "high", "secrets"),
    (("delete", SAYS_NOTHING, {"path": "~"}), "blocked", "wide-delete"),
    (("move_file", SAYS_NOTHING, {"source": "~/Documents", "destination": "/tmp/docs"}),
     "blocked", "wide-delete"),
    (("write_file", SAYS_NOTHING, {"path": "~/.bashrc", "content": "x"}), "high", "persistence"),
    (("write_file", SAYS_NOTHING, {"path": "/etc/hosts", "content": "x"}), "high", "system-write"),
    (("run_command", READS, {"command": "rm -rf ~"}), "blocked", "wide-delete"),
    (("run", SAYS_NOTHING, {"cmd": ["bash", "-c", "rm -rf ~"]}), "blocked", "wide-delete"),
    (("execute", Hints(destructive=True), {"language": "shell", "code": "cat ~/.ssh/id_rsa"}),
     "high", "secrets"),
    (("computer_type", SAYS_NOTHING, {"text": "rm -rf ~\n"}), "blocked", "wide-delete"),
])
def test_arguments_raise_the_tools_rating(call: tuple[str, Hints, dict[str, Any]], risk: str,
                                          family: str, own: tuple[str, str]) -> None:
    verdict = rated(*call, own)
    assert verdict.risk == risk and family in verdict.families, verdict
    assert "tool" in verdict.families  # the tool's own rating is kept beside


@pytest.mark.parametrize(("tool", "hints", "arguments", "risk"), [
    ("read_file", READS, {"path": "~/notes.txt"}, "low"),
    ("search_files", SAYS_NOTHING, {"path": "~", "pattern": "*.pdf"}, "medium"),
    ("list_directory", SAYS_NOTHING, {"path": "/etc"}, "medium"),
    ("write_file", SAYS_NOTHING, {"path": "~/notes/todo.md", "content": "buy milk"}, "medium"),
    ("move_file", SAYS_NOTHING, {"source": "~/Downloads/a.pdf",
                                 "destination": "~/Documents/a.pdf"}, "medium"),
    ("create_note", SAYS_NOTHING, {"title": "trip", "text": "Back up ~/.ssh; rm old photos"},
     "medium"),
    ("send_email", SAYS_NOTHING, {"to": "bob@example.com", "body": "see you"}, "medium"),
    ("browser_type", SAYS_NOTHING, {"selector": "input[name=q]", "text": "weather"}, "medium"),
])
def test_everyday_arguments_raise_no_alarm(tool: str, hints: Hints, arguments: dict[str, Any],
                                           risk: str, own: tuple[str, str]) -> None:
    assert rated(tool, hints, arguments, own).risk == risk


def test_the_configs_low_rating_does_not_cover_what_the_arguments_name(
        own: tuple[str, str]) -> None:
    trusted = OneServer()
    trusted.ratings["srv.read_file"] = rate("srv.read_file", None, Rule(risk="low"))
    policy = Policy(None, mode="auto", protected=own, tools=trusted)
    proposal = policy.proposal("1", "srv.read_file",
                               '{"path": "~/.local/share/assistant/web-token"}')
    assert proposal.risk == "high" and not policy.decide(proposal).approved
    assert policy.decide(policy.proposal("2", "srv.read_file", '{"path": "a.txt"}')).approved
