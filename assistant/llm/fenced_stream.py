"""A fenced reply as it streams: its words go to the person at once, its runnable blocks
do not.

A runnable block is a proposal, shown as one once it is vetted and previewed (its effect
first, the code a key or click away), or, when its preview failed, as one collapsed line:
streamed as words, a try that never reached the person would be on screen in full.
So a block is held from its opening fence, and its code goes out as a draft (as a tool
call's does); a block that turns out not to be runnable (```text, a JSON body) is
released as words when it closes. Only a line that may open a fence waits for its end,
so the words before the code are not delayed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from assistant.llm.fenced import closes, find_blocks, opening
from assistant.plugins.registry import languages as plugin_languages
from assistant.runtime.languages import canonical_language

# A line so far that may still open a fence: an indent and at most two backticks or tildes,
# or a fence and its tag being written; any other line is words, shown at once.
_MAY_OPEN = re.compile(r"[ \t]*(`{0,2}|~{0,2}|`{3,}.*|~{3,}.*)")


@dataclass
class _Open:
    """The fenced block being written: its fence, and whether it is held (it may be
    runnable; it starts where the words shown end)."""

    fence: str
    held: bool


class FencedStream:
    """Fed a fenced reply's pieces; says which words to show now and the code being
    written. `tools` resolves a tag that names an offered tool (its block is a call)."""

    def __init__(self, tools: Callable[[str], str | None] | None = None) -> None:
        self.tools = tools
        self.text = ""
        self._start = 0  # where the line being written starts
        self._shown = 0  # how much of the text is shown or held in a block
        self._block: _Open | None = None
        self._drafted: tuple[str, str] | None = None

    def feed(self, piece: str) -> tuple[str, tuple[str, str] | None]:
        """The words to show now, and (language, code so far) of a held block when it
        grew."""
        self.text += piece
        shown = []
        while (end := self.text.find("\n", self._start)) >= 0:
            shown.append(self._line(end + 1))
        tail = self.text[self._start:]
        block = self._block
        if (block is None and not _MAY_OPEN.fullmatch(tail)) or (block and not block.held):
            shown.append(self.text[self._shown:])  # words, or a block only shown
            self._shown = len(self.text)
        return "".join(shown), self._draft()

    def end(self, stopped: bool = False) -> str:
        """The reply is over: the words still held (a last line, a block that is not
        code); a runnable block left open is a proposal, as find_blocks counts it, unless
        the reply was `stopped` (nothing of it is proposed then, so all of it is words)."""
        block, self._block = self._block, None
        rest = self.text[self._shown:]
        self._start = self._shown = len(self.text)
        if block is None or not block.held or stopped:
            return rest
        return "" if find_blocks(rest, self.tools) else rest

    def _line(self, end: int) -> str:
        """Take the whole line that ends at `end`: the words it shows (none while held)."""
        line = self.text[self._start:end].rstrip("\n")
        self._start = end
        block = self._block
        if block is None:
            opened = opening(line)
            if opened is not None:
                tag = opened[1]
                held = bool(tag) and (canonical_language(tag, plugin_languages()) is not None or (
                    self.tools is not None and self.tools(tag) is not None))
                self._block = block = _Open(opened[0], held)
                if held:
                    return ""
        elif closes(line, block.fence):
            self._block = None
            if block.held:
                code, self._shown = self.text[self._shown:end], end
                return "" if find_blocks(code, self.tools) else code
        elif block.held:
            return ""
        shown, self._shown = self.text[self._shown:end], end
        return shown

    def _draft(self) -> tuple[str, str] | None:
        if self._block is None or not self._block.held:
            return None
        tail = self.text[self._start:]  # a line that may close the block waits for its end
        written = self.text[self._shown:self._start if _MAY_OPEN.fullmatch(tail) else None]
        found = find_blocks(written, self.tools)
        if not found or found[0] == self._drafted:
            return None
        self._drafted = found[0]
        return found[0]
