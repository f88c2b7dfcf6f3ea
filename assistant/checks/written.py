"""Screen calls a reply wrote as words: the code meant to run, outside any runnable block.

Asked to click Yes, a small model often answers "Use `computer.press("Yes")` to click
Yes." or lists the calls as numbered steps: words, which press nothing. Sending it back
costs a model call (seconds on two cores) to get the very code it already wrote. The
calls are read from the words instead (rule answer.screen_calls) and proposed as its
code, asked like any other: nothing runs that a person, or the policy, has not allowed.

Only whole calls on `computer` count, each a Python expression on its own (a line, a
span in backticks, a line of a block not tagged to run), so prose that merely names a
verb is never run.
"""

from __future__ import annotations

import ast
import re

_SPAN = re.compile(r"`([^`\n]+)`")
_MARKER = re.compile(r"^\s*(?:(?:\d+[.)]|[-*+>])\s+)*")
_FENCE = re.compile(r"^\s*(?:`{3,}|~{3,})")


def written_calls(words: str) -> str:
    """The `computer` calls in `words`, in order, once each, as code ("" when none)."""
    found: list[str] = []
    for line in words.split("\n"):
        if _FENCE.match(line):
            continue
        spans = _SPAN.findall(line)
        candidates = spans if spans else [_MARKER.sub("", line).strip().rstrip(";")]
        for candidate in candidates:
            call = candidate.strip().rstrip(";")
            if _is_screen_call(call) and call not in found:
                found.append(call)
    return "\n".join(found)


def _is_screen_call(code: str) -> bool:
    """`code` is one expression: a call of a function reached from `computer`."""
    if not code.startswith("computer."):
        return False
    try:
        tree = ast.parse(code, mode="eval")
    except SyntaxError:
        return False
    call = tree.body
    if not isinstance(call, ast.Call):
        return False
    target = call.func
    while isinstance(target, ast.Attribute):
        target = target.value
    return isinstance(target, ast.Name) and target.id == "computer"
