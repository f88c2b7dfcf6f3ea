"""Keeping a run's output to a size the LLM can take, with bounded memory.

The first half of the budget is shown live; after that only a rolling tail is
kept, so a program that prints a gigabyte costs a few kilobytes. The LLM is shown
head + a line saying how much was cut + tail, because both the start (what the
program set out to do) and the end (how it failed) matter.
"""

from __future__ import annotations

from collections import deque

from assistant.events import Stream


class OutputLimit:
    """Head, cut count and rolling tail of one run's output, in arrival order."""

    def __init__(self, max_output: int) -> None:
        self._head_room = max(max_output, 0) // 2
        self._tail_room = max(max_output, 0) // 2
        self._head: list[str] = []
        self._head_length = 0
        self._tail: deque[tuple[Stream, str]] = deque()
        self._tail_length = 0
        self.cut = 0

    def add(self, stream: Stream, text: str) -> str:
        """Record output and return the part of it to show live (empty once the head is full)."""
        room = self._head_room - self._head_length
        live, rest = text[:room], text[room:]
        if live:
            self._head.append(live)
            self._head_length += len(live)
        if rest:
            self._keep_tail(stream, rest)
        return live

    def _keep_tail(self, stream: Stream, text: str) -> None:
        if len(text) >= self._tail_room:
            self.cut += self._tail_length + len(text) - self._tail_room
            self._tail.clear()
            self._tail_length = 0
            text = text[len(text) - self._tail_room :]
            if not text:
                return
        self._tail.append((stream, text))
        self._tail_length += len(text)
        while self._tail_length > self._tail_room:
            first_stream, first = self._tail[0]
            excess = self._tail_length - self._tail_room
            if len(first) <= excess:
                self._tail.popleft()
                self._tail_length -= len(first)
                self.cut += len(first)
            else:
                self._tail[0] = (first_stream, first[excess:])
                self._tail_length -= excess
                self.cut += excess

    def closing(self) -> list[tuple[Stream, str]]:
        """What was held back from live display: the cut line (if any) and the tail.

        Pieces are merged so that a new one starts only where the stream changes.
        """
        pieces: list[tuple[Stream, str]] = []
        if self.cut:
            first_stream = self._tail[0][0] if self._tail else "stdout"
            pieces.append((first_stream, f"\n[… {self.cut} characters cut …]\n"))
        for stream, text in self._tail:
            if pieces and pieces[-1][0] == stream:
                pieces[-1] = (stream, pieces[-1][1] + text)
            else:
                pieces.append((stream, text))
        return pieces

    def text(self) -> str:
        """Everything the LLM will see: head, cut line and tail."""
        return "".join(self._head) + "".join(text for _, text in self.closing())
