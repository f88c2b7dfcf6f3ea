"""Code proposals as calls of one `execute` tool, for models with native tool calling."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from assistant.llm.reply import CodeCall, LLMError
from assistant.runtime.languages import LANGUAGES, canonical_language

EXECUTE_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "execute",
        "description": (
            "Run code on the user's computer. The user sees the code first and it runs only "
            "after they approve it. Returns the output, or says that the user declined."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "language": {"type": "string", "enum": list(LANGUAGES)},
                "code": {"type": "string", "description": "The complete code to run."},
            },
            "required": ["language", "code"],
        },
    },
}

INSTRUCTIONS = """\
To run code on the user's computer, call the `execute` tool with `language` (python, shell or \
javascript) and `code`. The user sees each call and it runs only after they approve it; its \
output (or the user's refusal) comes back as the tool result. Code written in your text is \
never run: only `execute` calls are. Propose one step at a time and wait for its result. \
When the task is done, answer in plain words."""


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

    def calls(self) -> list[CodeCall]:
        """The finished calls; raises LLMError for a call that cannot be run as sent."""
        self._name_all()
        return [_parse(slot) for slot in self._slots]

    def message_calls(self) -> list[dict[str, Any]]:
        """The calls in OpenAI form, for the assistant message in history."""
        self._name_all()
        return [
            {"id": s.id, "type": "function", "function": {"name": s.name, "arguments": s.arguments}}
            for s in self._slots
        ]


def _get(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, dict) else getattr(item, key, None)


def _parse(slot: _Slot) -> CodeCall:
    named_language = canonical_language(slot.name)
    if slot.name != "execute" and named_language is None:
        raise LLMError(
            f"The model called an unknown tool {slot.name!r} (only 'execute' exists); "
            "try again, or set code_style to fenced for this model"
        )
    try:
        arguments = json.loads(slot.arguments or "{}")
    except ValueError:
        preview = " ".join(slot.arguments.split())[:80]
        raise LLMError(
            f"The model sent a malformed tool call: arguments are not JSON: {preview}"
        ) from None
    if not isinstance(arguments, dict) or not isinstance(arguments.get("code"), str):
        raise LLMError("The model sent a malformed tool call: it has no 'code' text to run")
    language = str(arguments.get("language") or named_language or "python")
    return CodeCall(slot.id, canonical_language(language) or language.lower(), arguments["code"])
