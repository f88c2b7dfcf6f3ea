"""How what happened to each proposal goes back into the history for the model to read."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from assistant.events import RunEnd
from assistant.llm.hints import hint
from assistant.llm.reply import CodeCall

RESULTS_HEADER = "Results of the code you proposed:"
# Opens the user-role message that shows the screen (assistant.screen); no turn starts there.
SCREEN_HEADER = "The screen at this moment"
# Closes the results in fenced mode, where they arrive as a user message: small models
# otherwise answer them as if the user had written them.
NEXT_STEP = (
    "These are the results of your own code, not the user's words. Check them, then take "
    "the next step, or answer the user if the task is done."
)
# The same, holding the request: a small model many steps in forgets what was asked
# (it counted the lines, looked at the first five, and answered with those), and checks
# a file it wrote against the request only when the request is next to it.
NEXT_STEP_FOR = (
    "These are the results of your own code, not the user's words. The user asked: {}\n"
    "Check the results against that, then take the next step, or answer the user if the "
    "task is done."
)
REQUEST_SHOWN = 300  # characters of the request repeated after each result
# A clause of the loop's own words this long, found in an answer, is an echo of it.
ECHOED = 30
FENCED = re.compile(r"^(`{3,})\n.*?\n\1$", re.MULTILINE | re.DOTALL)
RESULTS_FRAME = re.compile(
    rf"^(?:{re.escape(RESULTS_HEADER)}|\w+ block(?: \d+)?:$|Exit status -?\d+ "
    r"\((?:success|failed)\)\.|It did not finish \(no exit status\)\.)", re.MULTILINE)
# What a run did, in the loop's words: an answer may well say it again.
REPORTED = re.compile(r"^(?:Exit status|Output:|Files in the working directory|No files "
                      r"changed|As written now|\w+ block(?: \d+)?:).*$", re.MULTILINE)
UNTRUSTED = re.compile(r'<(\w+) untrusted="true">\n.*?\n</\1>', re.DOTALL)


def describe_run(end: RunEnd, changes: str = "", folder: str = "", code: str = "",
                 making: Sequence[str] = ()) -> str:
    """What the model reads about its run of `code` in `folder` (the runs' working
    directory; empty for this process's), in a turn asked to make the files `making`: how
    it ended, its output, what changed on disk, and what that means where small models
    misread it.

    Small models read a bare "(no output)" as someone's words, or as failure; the exit
    status first and the output fenced below make it plainly their own call's result.
    """
    if end.exit_status is None:
        status = "It did not finish (no exit status)."
    elif end.exit_status == 0:
        status = "Exit status 0 (success)."
    else:
        status = f"Exit status {end.exit_status} (failed)."
    output = f"Output:\n{fence(end.output)}" if end.output.strip() else "Output: (no output)"
    parts = (status, output, changes, hint(end, Path(folder), code, making))
    return "\n".join(part for part in parts if part)


def tool_messages(results: list[tuple[CodeCall, str]]) -> list[dict[str, Any]]:
    """One tool message per call: providers reject a tool call left unanswered."""
    return [
        {"role": "tool", "tool_call_id": call.id, "content": output or "(no output)"}
        for call, output in results
    ]


def fenced_message(results: list[tuple[CodeCall, str]], request: str = "") -> dict[str, Any]:
    """One user message presenting every result, each labelled with its language, and
    the turn's `request` again."""
    parts = [RESULTS_HEADER]
    for number, (call, output) in enumerate(results, 1):
        label = f"{call.language} block {number}" if len(results) > 1 else f"{call.language} block"
        parts.append(f"{label}:\n{output or '(no output)'}")
    parts.append(next_step(request))
    return {"role": "user", "content": "\n\n".join(parts)}


def next_step(request: str) -> str:
    """What closes the results: the request in brief, when there is one."""
    if not request.strip():
        return NEXT_STEP
    brief = " ".join(request.split())
    if len(brief) > REQUEST_SHOWN:
        brief = brief[:REQUEST_SHOWN].rsplit(" ", 1)[0] + " …"
    return NEXT_STEP_FOR.format(f'"{brief}"')


def failed_last_message(exit_status: int | None) -> dict[str, Any]:
    """Said once when the model answers right after its last run failed: small models
    often call a failed task done."""
    how = "did not finish" if exit_status is None else f"failed (exit status {exit_status})"
    return {"role": "user", "content": f"{RESULTS_HEADER}\n\nYour last run {how}, and nothing "
            "ran after it. Fix the code and run it again, or tell the user plainly that it "
            "did not work."}


def check_message(problem: str) -> dict[str, Any]:
    """What a check of the final answer found, said to the model as a result, not a turn."""
    return {"role": "user", "content": f"{RESULTS_HEADER}\n\n{problem}"}


def send_back(messages: list[dict[str, Any]], answer: dict[str, Any],
              nudge: dict[str, Any]) -> None:
    """Put `nudge` (a results message saying why `answer` is not accepted yet) into the
    history. After results in a user message, the nudge joins them and the answer is left
    out: a small model that reads its own answer just before the nudge says it again,
    word for word. Elsewhere (a tool result, the user's request) both go in, in turn,
    but for an answer with tool calls: those would need results of their own."""
    if not _joins(messages, nudge):
        messages.extend([nudge] if answer.get("tool_calls") else [answer, nudge])


def add_note(messages: list[dict[str, Any]], note: dict[str, Any]) -> None:
    """Put `note` (a results message) into the history: joined to the results just before
    it, else on its own."""
    if not _joins(messages, note):
        messages.append(note)


def _joins(messages: list[dict[str, Any]], note: dict[str, Any]) -> bool:
    """Join `note` to the user-role results message that ends the history, if one does."""
    last = messages[-1] if messages else {}
    if not (is_results_message(last) and isinstance(last.get("content"), str)):
        return False
    extra = note["content"].removeprefix(RESULTS_HEADER).lstrip("\n")
    messages[-1] = {**last, "content": f"{last['content']}\n\n{extra}"}
    return True


def is_results_message(message: dict[str, Any]) -> bool:
    """True for the user-role message `fenced_message` makes (it does not start a turn),
    and for the one showing the screen."""
    content = message.get("content")
    if message.get("role") == "user" and isinstance(content, list) and content:
        first = content[0]
        return isinstance(first, dict) and str(first.get("text", "")).startswith(SCREEN_HEADER)
    return (
        message.get("role") == "user"
        and isinstance(content, str)
        and content.startswith(RESULTS_HEADER)
    )


def echoes(answer: str, messages: list[dict[str, Any]]) -> bool:
    """Whether `answer` repeats the loop's own words (the framing, a hint, a "Not run")
    from the results since the model last spoke: a small model answered "Not run: /lib/ is
    not the user's lib/ ..." to the user. Outputs and files quoted are the answer's to use."""
    return _repeats(answer, _loop_words(messages, since=("assistant",)))


def without_echoes(answer: str, messages: list[dict[str, Any]]) -> str:
    """`answer` without the paragraphs that repeat the loop's words of this turn: a small
    model began its last words with the check it had been told two replies before ("The
    user asked for a figure …"). As it is when every paragraph does, or none."""
    said = _loop_words(messages, since=("user",))
    paragraphs = re.split(r"\n\s*\n", answer.strip())
    kept = [part for part in paragraphs if not _repeats(part, said)]
    return "\n\n".join(kept) if kept and len(kept) < len(paragraphs) else answer


def _loop_words(messages: list[dict[str, Any]], since: tuple[str, ...]) -> list[str]:
    """The clauses of the loop's own words in the results after the last message whose
    role is in `since` (a user message that is not results: the turn's request)."""
    said: list[str] = []
    for message in reversed(messages):
        role = message.get("role")
        if role in since and not is_results_message(message):
            break
        content = message.get("content")
        if role == "tool" or is_results_message(message):
            said.append(content if isinstance(content, str) else "")
    ours = REPORTED.sub("", UNTRUSTED.sub("", FENCED.sub("", "\n".join(said))))
    parts = (part.strip().rstrip(".!?:;").lower()
             for part in re.split(r"(?<=[.!?:;])\s+|\n", ours))
    return [part for part in parts if len(part) >= ECHOED]


def _repeats(text: str, said: list[str]) -> bool:
    lowered = text.lower()
    return any(part in lowered for part in said)


def framed(code: str) -> bool:
    """Whether proposed code is a copy of the results the model was given ("python block:
    Exit status 0 (success). ..."): a small model continuing the conversation's pattern."""
    return bool(RESULTS_FRAME.search(code)) or NEXT_STEP.split(",")[0] in code


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
