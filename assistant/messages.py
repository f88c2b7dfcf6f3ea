"""The loop's message vocabulary: how what happened to each proposal goes back into the
history for the model to read, and the typed kinds of the loop's own messages.

Low in the layers (beside the texts it reads), so the adapter that sends the history, the
checks that read it and the loop that writes it all import it from below."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

from assistant.events import RunEnd
from assistant.texts import text

RESULTS_HEADER = text("results.header")
# Opens the user-role message that shows the screen (assistant.loop.screen); no turn starts there.
SCREEN_HEADER = text("results.screen_header")
# Closes the results in fenced mode, where they arrive as a user message: small models
# otherwise answer them as if the user had written them.
NEXT_STEP = text("results.next_step")
# The same, holding the request: a small model many steps in forgets what was asked
# (it counted the lines, looked at the first five, and answered with those), and checks
# a file it wrote against the request only when the request is next to it.
NEXT_STEP_FOR = text("results.next_step_for")
# The key of a history message's typed kind ("results", "screen"): the loop and the journal
# keep it; it is taken off before the history goes to a provider (`sendable`).
KIND = "kind"
NO_OUTPUT = text("results.no_output")
REQUEST_SHOWN = 300  # characters of the request repeated after each result


class Called(Protocol):
    """What a result is told against: the call's id and language (the adapter's CodeCall)."""

    @property
    def id(self) -> str: ...

    @property
    def language(self) -> str: ...


def tool_messages(results: Sequence[tuple[Called, str]]) -> list[dict[str, Any]]:
    """One tool message per call: providers reject a tool call left unanswered."""
    return [
        {"role": "tool", "tool_call_id": call.id, "content": output or NO_OUTPUT}
        for call, output in results
    ]


def describe_run(end: RunEnd, changes: str = "") -> str:
    """What the model reads about its run: how it ended, its output, and what changed on
    disk (`changes`).

    Small models read a bare "(no output)" as someone's words, or as failure; the exit
    status first and the output fenced below make it plainly their own call's result.
    """
    if end.exit_status is None:
        status = text("results.unfinished")
    elif end.exit_status == 0:
        status = text("results.succeeded")
    else:
        status = text("results.failed").format(end.exit_status)
    output = (text("results.output").format(fence(end.output)) if end.output.strip()
              else text("results.output_none"))
    return "\n".join(part for part in (status, output, changes) if part)


def last_line(output: str, limit: int) -> str:
    """The last line of `output` that is not blank, stripped and cut to `limit`
    characters; "" when there is none. A failed run usually says why on its last line."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[-1][:limit] if lines else ""


def failure_line(end: RunEnd) -> str:
    """A failed run in brief: the last line of its output."""
    return last_line(end.output, 300) or text("results.failed_brief").format(end.exit_status)


def fenced_message(results: Sequence[tuple[Called, str]], request: str = "") -> dict[str, Any]:
    """One user message presenting every result, each labelled with its language, and
    the turn's `request` again."""
    parts = [RESULTS_HEADER]
    for number, (call, output) in enumerate(results, 1):
        label = (text("results.block_numbered").format(call.language, number)
                 if len(results) > 1 else text("results.block").format(call.language))
        parts.append(f"{label}:\n{output or NO_OUTPUT}")
    parts.append(next_step(request))
    return results_message("\n\n".join(parts))


def results_message(content: str) -> dict[str, Any]:
    """A user-role message of the loop's own (results, a check's finding), typed as such;
    it does not start a turn."""
    return {"role": "user", "content": content, KIND: "results"}


def sendable(message: dict[str, Any]) -> dict[str, Any]:
    """`message` as a provider takes it: without its typed kind."""
    return {key: value for key, value in message.items() if key != KIND}


def next_step(request: str) -> str:
    """What closes the results: the request in brief, when there is one."""
    if not request.strip():
        return NEXT_STEP
    brief = " ".join(request.split())
    if len(brief) > REQUEST_SHOWN:
        brief = brief[:REQUEST_SHOWN].rsplit(" ", 1)[0] + " …"
    return NEXT_STEP_FOR.format(f'"{brief}"')


def is_results_message(message: dict[str, Any]) -> bool:
    """True for the user-role messages of the loop's own: results, a check's finding, the
    screen (they do not start a turn). Read from the message's kind; a history journaled
    before messages had kinds is read by how those messages began."""
    if KIND in message:
        return message[KIND] in ("results", "screen")
    content = message.get("content")
    if message.get("role") == "user" and isinstance(content, list) and content:
        first = content[0]
        return isinstance(first, dict) and str(first.get("text", "")).startswith(SCREEN_HEADER)
    return (
        message.get("role") == "user"
        and isinstance(content, str)
        and content.startswith(RESULTS_HEADER)
    )


def untrusted(tag: str, text: str) -> str:
    """Text from outside (the screen, a tool's answer) tagged as data the model must not obey;
    a closing tag inside it is broken, so it cannot end the data early."""
    body = text.replace(f"</{tag}", f"<\\/{tag}")
    return f'<{tag} untrusted="true">\n{body}\n</{tag}>'


def fence(text: str) -> str:
    """Wrap output in a fence longer than any backtick run inside it, so it cannot break out."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}\n{text.rstrip(chr(10))}\n{marks}"
