"""Code proposals as calls of one `execute` tool, for models with native tool calling."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from assistant.llm.reply import CodeCall
from assistant.plugins.registry import languages as plugin_languages
from assistant.runtime.languages import LANGUAGES, canonical_language
from assistant.texts import text

EXECUTE_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "execute",
        "description": text("tool.execute"),
        "parameters": {
            "type": "object",
            "properties": {
                "language": {"type": "string", "enum": list(LANGUAGES)},
                "code": {"type": "string", "description": text("tool.code")},
            },
            "required": ["language", "code"],
        },
    },
}


def execute_tool() -> dict[str, Any]:
    """EXECUTE_TOOL with the languages installed plugins add."""
    extra = list(plugin_languages())
    if not extra:
        return EXECUTE_TOOL
    tool = json.loads(json.dumps(EXECUTE_TOOL))
    tool["function"]["parameters"]["properties"]["language"]["enum"] += extra
    return dict(tool)


INSTRUCTIONS = text("system.tools")


# A tool's name for a name the model wrote (its name or its function name), None if no tool.
Resolve = Callable[[str], "str | None"]


class Offer(Protocol):
    """Tools offered besides `execute` (assistant.tools.Toolbox)."""

    def specs(self) -> list[dict[str, Any]]:
        """The functions, in the providers' tool format."""

    def instructions(self, fenced: bool) -> str:
        """How to call them, for the system message."""

    def resolve(self, name: str) -> str | None:
        """The tool's name for a name the model wrote; None when it is no tool."""


@dataclass
class _Slot:
    id: str = ""
    name: str = ""
    arguments: str = ""


class ToolCallAssembler:
    """Joins tool-call deltas streamed across chunks into whole calls, keyed by index."""

    def __init__(self) -> None:
        self._slots: list[_Slot] = []
        self._by_index: dict[int, _Slot] = {}

    def feed(self, deltas: list[Any]) -> None:
        for delta in deltas:
            index = _get(delta, "index")
            call_id = _get(delta, "id") or ""
            function = _get(delta, "function") or {}
            slot = self._by_index.get(index) if index is not None else self._last()
            if slot is None or (call_id and slot.id and call_id != slot.id):
                slot = _Slot()
                self._slots.append(slot)
            if index is not None:
                self._by_index[index] = slot
            slot.id = slot.id or call_id
            slot.name = slot.name or (_get(function, "name") or "")
            arguments = _get(function, "arguments")
            if isinstance(arguments, dict):
                arguments = json.dumps(arguments)
            slot.arguments += arguments or ""

    def _name_all(self) -> None:
        """Give id-less calls (some providers send none) an id the tool result can name."""
        for slot in self._slots:
            slot.id = slot.id or f"call_{uuid.uuid4().hex[:24]}"

    def _last(self) -> _Slot | None:
        return self._slots[-1] if self._slots else None

    def calls(self, resolve: Resolve | None = None) -> list[CodeCall]:
        """The finished calls; one that cannot run as sent carries its `problem`.

        A call of another offered tool is a CodeCall whose language is the tool's name
        and whose code is its JSON arguments."""
        self._name_all()
        return [_parse(slot, resolve) for slot in self._slots]

    def draft(self) -> tuple[str, str] | None:
        """(language, code so far) of the `execute` call being written, read from its
        unfinished JSON; None before any code arrives."""
        slot = self._last()
        if slot is None or slot.name != "execute":
            return None
        code = _partial_string(slot.arguments, "code")
        if not code:
            return None
        language = _partial_string(slot.arguments, "language") or "python"
        return canonical_language(language, plugin_languages()) or language, code

    def message_calls(self) -> list[dict[str, Any]]:
        """The calls in OpenAI form, for the assistant message in history.

        Arguments that are not a JSON object are kept as `{}`: providers and chat
        templates parse the history's arguments, and the model is told what it sent.
        """
        self._name_all()
        return [
            message_call(s.id, s.name,
                         s.arguments if s.arguments and _arguments(s) is not None else "{}")
            for s in self._slots
        ]


def message_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    """One call in OpenAI form, as the history's assistant message holds it."""
    return {"id": call_id, "type": "function",
            "function": {"name": name, "arguments": arguments}}


def _partial_string(arguments: str, key: str) -> str:
    """The value of `key` in JSON that may stop anywhere, as far as it goes ("" if absent)."""
    found = re.search(rf'"{key}"\s*:\s*"', arguments)
    if not found:
        return ""
    rest = arguments[found.end():]
    end = re.search(r'(?<!\\)(?:\\\\)*"', rest)
    body = rest[:end.end() - 1] if end else re.sub(r"\\(u[0-9a-fA-F]{0,3})?$", "", rest)
    try:
        return str(json.loads(f'"{body}"'))
    except ValueError:
        return ""


def _get(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, dict) else getattr(item, key, None)


def _parse(slot: _Slot, resolve: Resolve | None = None) -> CodeCall:
    named_language = canonical_language(slot.name, plugin_languages())
    tool = resolve(slot.name) if resolve is not None and slot.name != "execute" else None
    if slot.name != "execute" and named_language is None and tool is None:
        only = "" if resolve is not None else text("call.only_execute")
        return CodeCall(slot.id, "", "", text("call.no_tool").format(slot.name, only))
    arguments = _arguments(slot)
    if arguments is None:
        preview = " ".join(slot.arguments.split())[:80]
        return CodeCall(slot.id, "", "", text("call.not_json").format(preview))
    if tool is not None:
        return CodeCall(slot.id, tool, json.dumps(arguments, indent=2, ensure_ascii=False))
    if not isinstance(arguments.get("code"), str) or not arguments["code"].strip():
        return CodeCall(slot.id, "", "", text("call.no_code"))
    language = str(arguments.get("language") or named_language or "python")
    known = canonical_language(language, plugin_languages())
    return CodeCall(slot.id, known or language.lower(), arguments["code"])


def _arguments(slot: _Slot) -> dict[str, Any] | None:
    """The arguments as a JSON object, or None when they are not one."""
    try:
        arguments = json.loads(slot.arguments or "{}")
    except ValueError:
        return None
    return arguments if isinstance(arguments, dict) else None
