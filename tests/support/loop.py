"""Driving the loop against the scripted server, as the loop's tests do."""

from __future__ import annotations

from typing import Any

from assistant import Assistant
from assistant.events import Event, Notice, Proposal, RunEnd
from tests.support.llm_server import LLMServer, Step, fenced, tool_call

STYLES = ["tools", "fenced"]


def make(server: LLMServer, style: str, **kwargs: Any) -> Assistant:
    """Every proposal the policy lets through is approved, as by a person saying yes."""
    options = {"approver": lambda proposal: True, **kwargs}
    return Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                     code_style=style, **options)


def on_desktop(server: LLMServer, request: str, off: str = ""
               ) -> tuple[list[Proposal], list[Event]]:
    """A turn of the default install's way on a desktop (the screen as text, tool calls),
    every proposal approved: the proposals, and the turn's events. `off`: rules turned off."""
    asked: list[Proposal] = []

    def approver(proposal: Proposal) -> bool:
        asked.append(proposal)
        return True

    with make(server, "tools", screen_format="text", journal=False, checks_off=off,
              approver=approver) as assistant:
        return asked, list(assistant.turn(request))


def propose(style: str, language: str, code: str) -> Step:
    return tool_call(language, code) if style == "tools" else fenced(language, code)


def told(server: LLMServer, request: int) -> str:
    """What the model read last before the `request`-th chat request (0-based)."""
    return str(server.chat_requests[request].body["messages"][-1]["content"])


def runs(events: list[Event]) -> list[RunEnd]:
    return [e for e in events if isinstance(e, RunEnd)]


def notices(events: list[Event]) -> str:
    return "\n".join(e.text for e in events if isinstance(e, Notice))
