"""How what happened to each proposal goes back into the history for the model to read."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from assistant.events import RunEnd
from assistant.llm.reply import CodeCall
from assistant.prompt import python_packages

RESULTS_HEADER = "Results of the code you proposed:"
# Opens the user-role message that shows the screen (assistant.screen); no turn starts there.
SCREEN_HEADER = "The screen at this moment"
# Closes the results in fenced mode, where they arrive as a user message: small models
# otherwise answer them as if the user had written them.
NEXT_STEP = (
    "These are the results of your own code, not the user's words. Check them, then take "
    "the next step, or answer the user if the task is done."
)


def describe_run(end: RunEnd, changes: str = "", folder: str = "") -> str:
    """What the model reads about its run in `folder` (the runs' working directory; empty
    for this process's): how it ended, its output, what changed on disk.

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
    return "\n".join(part for part in (status, output, changes, _hint(end, Path(folder))) if part)


def _hint(end: RunEnd, folder: Path) -> str:
    """What a failure means here, for the few that small models misread again and again."""
    if end.exit_status == 0:
        return ""
    return next((hint for hint in (_missing_module(end.output), _missing_folder(end.output, folder),
                                   _missing_key(end.output), _many_to_one(end.output),
                                   _one_line_python(end.output)) if hint), "")


def _missing_module(output: str) -> str:
    """A missing package is not fixed by `pip install`, which reaches another interpreter
    than the one running the code."""
    missing = re.search(r"ModuleNotFoundError: No module named '([\w.]+)'", output)
    if not missing:
        return ""
    return (f"{missing[1]} is not installed for the Python that runs your code, and pip "
            f"would install it elsewhere: do it another way. {python_packages()}.")


def _missing_folder(output: str, where: Path) -> str:
    """Writing into a folder that is not there yet reads as a missing file."""
    named = re.search(r"^OSError: Cannot save file into a non-existent directory: '([^'\n]+)'",
                      output, re.MULTILINE)
    if named:  # pandas names the folder itself
        return _create_first(Path(named[1]))
    for path in re.findall(r"No such file or directory: '([^'\n]+)'|"
                           r"^\S+: line \d+: ([^:\n]+): No such file or directory", output,
                           re.MULTILINE):
        folder = Path(next(part for part in path if part)).parent
        if str(folder) not in ("", ".") and not (where / folder).exists():
            return _create_first(folder)
    return ""


def _create_first(folder: Path) -> str:
    return (f"The folder {folder} does not exist (to write there, create it first: "
            f"os.makedirs('{folder}', exist_ok=True), or mkdir -p {folder}).")


def _missing_key(output: str) -> str:
    """Small models guess a data file's keys instead of looking at them."""
    key = re.search(r"^KeyError: (.+)$", output, re.MULTILINE)
    if not key:
        return ""
    return (f"The data has no key {key[1]}: print one record (or its keys, or the columns) "
            "first to see what it holds, then use those names.")


def _many_to_one(output: str) -> str:
    """`mv *.jpeg *.jpg` moves many files onto one name, which is not how renaming works."""
    if not re.search(r"^(mv|cp): target '[^']*'(: No such file or directory| is not a "
                     r"directory)", output, re.MULTILINE):
        return ""
    return ("mv and cp take many files only into a folder. To rename each file, loop: "
            'for f in *.old; do mv -- "$f" "${f%.old}.new"; done')


def _one_line_python(output: str) -> str:
    """`python -c "...; def f(): for ..."` cannot work: blocks need lines of their own."""
    if not re.search(r'^\s*File "<string>", line 1\n(.*\n)*?SyntaxError', output, re.MULTILINE):
        return ""
    return ("Python with def, for, if or with blocks cannot go on one line of python -c: "
            "propose it as Python code (language python) instead.")


def tool_messages(results: list[tuple[CodeCall, str]]) -> list[dict[str, Any]]:
    """One tool message per call: providers reject a tool call left unanswered."""
    return [
        {"role": "tool", "tool_call_id": call.id, "content": output or "(no output)"}
        for call, output in results
    ]


def fenced_message(results: list[tuple[CodeCall, str]]) -> dict[str, Any]:
    """One user message presenting every result, each labelled with its language."""
    parts = [RESULTS_HEADER]
    for number, (call, output) in enumerate(results, 1):
        label = f"{call.language} block {number}" if len(results) > 1 else f"{call.language} block"
        parts.append(f"{label}:\n{output or '(no output)'}")
    parts.append(NEXT_STEP)
    return {"role": "user", "content": "\n\n".join(parts)}


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
    word for word. Elsewhere (a tool result, the user's request) both go in, in turn."""
    if not _joins(messages, nudge):
        messages.extend([answer, nudge])


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
