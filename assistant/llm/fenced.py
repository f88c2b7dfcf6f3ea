"""Code proposals written as fenced Markdown blocks, for models without tool calling.

Only blocks tagged with a runnable language are proposals: an untagged block or
one tagged ```json or ```text is something the model shows, not something to run; so is
a JSON object or list, whatever its tag.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

from assistant.plugins.registry import languages as plugin_languages
from assistant.runtime.languages import canonical_language
from assistant.texts import text

INSTRUCTIONS = text("system.fenced")

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*)$")
_TAG = re.compile(r"[\w+#.-]*")


def find_blocks(
    text: str, tools: Callable[[str], str | None] | None = None
) -> list[tuple[str, str]]:
    """(language, code) of each runnable block, in order.

    A fence still open at the end of the text counts when it has content: the
    model stopped (length limit or stop sequence) before closing it. A block tagged with
    an offered tool's name (`tools` resolves it) is a call: (tool name, JSON arguments).
    """
    return [(language, code) for language, code, _ in _runnable(text, tools)]


def blocks(
    text: str, tools: Callable[[str], str | None] | None = None, closed: bool = False
) -> list[tuple[str, str, int]]:
    """(language, code, the line after the block) of each runnable block, in order; with
    `closed`, only those whose fence is closed (a block still being written is not one
    yet)."""
    lines = text.split("\n")
    return [(language, code, end) for language, code, end in _runnable(text, tools)
            if not closed or closes(lines[end - 1], "```") or closes(lines[end - 1], "~~~")]


def shown_tags(text: str) -> list[str]:
    """The tags of blocks that are only shown, never run (```json, ```text, untagged)."""
    runnable = {end for _, _, end in _runnable(text, None)}
    known = plugin_languages()
    return ["json" if tag and canonical_language(tag, known) and is_data(body)
            else tag or "untagged"
            for tag, body, end in _all_blocks(text) if end not in runnable]


def _runnable(
    text: str, tools: Callable[[str], str | None] | None
) -> Iterator[tuple[str, str, int]]:
    """(language, code, the line after the block) of each runnable block."""
    known = plugin_languages()
    for tag, body, end in _all_blocks(text):
        language = canonical_language(tag, known) if tag else None
        called = None
        if language is None and tag and tools is not None:
            language = called = tools(tag)
        code = body.strip("\n")
        if called and not code.strip():
            code = "{}"  # a tool called without arguments
        if language == "shell":
            code = _strip_prompts(code)
        if language and code.strip() and (called or not is_data(code)):
            yield language, code, end


def is_data(code: str) -> bool:
    """Whether a block is a JSON object or list, whatever its tag: a small model shows a
    file's new content that way, tagged python ('NameError: false'), and runs it again
    and again; as code it could never do anything."""
    try:
        return isinstance(json.loads(code), (dict, list))
    except ValueError:
        return False


def _all_blocks(text: str) -> Iterator[tuple[str, str, int]]:
    """(tag, body, the line after the block) of every fenced block, closed or not."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        opened = opening(lines[i])
        i += 1
        if opened is None:
            continue
        fence, tag, indent = opened
        body: list[str] = []
        while i < len(lines) and not closes(lines[i], fence):
            body.append(_dedent(lines[i], indent))
            i += 1
        i += 1
        yield tag, "\n".join(body), min(i, len(lines))


def opening(line: str) -> tuple[str, str, int] | None:
    """(fence, tag, indent) when `line` opens a fenced block, else None."""
    found = _OPEN.match(line)
    if not found:
        return None
    fence, info = found["fence"], found["info"]
    if fence[0] == "`" and "`" in info:
        return None
    tag = _TAG.match(info.strip())
    return fence, (tag[0] if tag else ""), len(found["indent"])


def closes(line: str, fence: str) -> bool:
    """Whether `line` closes a block opened with `fence`."""
    stripped = line.strip()
    return len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def _dedent(line: str, indent: int) -> str:
    head = len(line) - len(line.lstrip(" \t"))
    return line[min(head, indent) :]


def _strip_prompts(code: str) -> str:
    """Keep only the commands of a terminal transcript (`$ ls` lines), not its sample output."""
    lines = code.split("\n")
    commands = [line[2:] for line in lines if line.startswith("$ ")]
    return "\n".join(commands) if commands else code
