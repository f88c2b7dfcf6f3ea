"""Rule screen.terminal: a command asked for in the terminal on screen is typed there.

A person who says "in the open terminal, run echo ready > status.txt" with a terminal
window on screen means that terminal: its shell, its folder, what it shows. A small model
writes the command as shell code, which would run in the assistant's own shell instead
(asked to close the terminal by typing exit in it, it ended its own shell, and the
terminal stayed open). Its shell proposal becomes the verbs' code that types each line
into that window, Enter after it. It is shown, rated (typed text is rated as the shell
command it is, safety/desktop.py) and approved like any other proposal. The words and
programs are data: terminal.toml.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from assistant.computer import dark
from assistant.computer import windows as x_windows
from assistant.tomlread import tomllib

_DATA = tomllib.loads(Path(__file__).with_name("terminal.toml").read_text())
ASKS = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in _DATA["words"]) + r")\b",
                  re.IGNORECASE)
PROGRAMS = frozenset(_DATA["programs"])
# The command a request spells out: `in backticks`, quoted after a verb that runs it, or
# after the words "the command" to the end of its sentence.
SPELLED = re.compile(r"`([^`\n]+)`|\b(?:run|type|enter|execute)\s+(?:the\s+command\s+)?"
                     r"[\"“]([^\"”\n]+)[\"”]|\bthe\s+command:?\s+(.+?)(?=\s+(?:and|then)\s+(?:tell|"
                     r"show|say|let|give|report)\b|\.\s|\.?$)",
                     re.IGNORECASE)

# A variable of the shell's, by its name: $HOME, BUILD_ID (capitals with an underscore).
VARIABLE = re.compile(r"\$[A-Za-z_]\w*|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
SAVES = re.compile(r"\b(?:sav(?:e|es|ed|ing)|writ(?:e|es|ing|ten)|wrote|put|puts|putting|"
                   r"stor(?:e|es|ed|ing)|cop(?:y|ied|ying)|dump|dumps|dumping|echo|create)\b",
                   re.IGNORECASE)
# Words that say a variable's value is what is saved, not the variable's name used as a
# folder ("copy report.txt to the RELEASE_DIR folder" is no such request).
VALUE = re.compile(r"\b(?:value|contents?|variable|env var|environment|set to)\b",
                   re.IGNORECASE)
FILE_NAME = re.compile(r"(?<![\w.$-])([\w-][\w.-]*\.[A-Za-z]\w{0,7})\b")


def asked_for(request: str) -> str | None:
    """The title of the terminal window the request asks for: it says terminal (or
    console...) with one terminal on screen, or names one of several by its title; None
    otherwise, or without a display. A title alone asks for nothing: a terminal titled
    "bash" is not what "write a bash script" means."""
    if not ASKS.search(request):
        return None
    titles = x_windows.shown(PROGRAMS)
    named = [t for t in titles if re.search(rf"\b{re.escape(t)}\b", request, re.IGNORECASE)]
    if named:
        return named[0]
    return titles[0] if len(titles) == 1 else None


def typed(code: str, title: str) -> str:
    """The verbs' code that types the shell `code` into the window `title`, Enter after
    each line."""
    lines = [line for line in dark.unprompted(code.strip()).splitlines() if line.strip()]
    return "\n".join(f"computer.type({line + chr(10)!r}, window={title!r})" for line in lines)


def commanded(request: str) -> str | None:
    """The verbs' code that types the one command a request for the terminal on screen
    spells out ("in the terminal, run `echo $BUILD_ID`"), or the echo of the one variable
    it asks to save into a file ("there's a BUILD_ID variable set; save its value into
    build.txt"), without the model; None when it asks for no terminal, or for neither. A
    small model asked to save a variable there set the variable first, and saved its own
    value. A variable the assistant's own shell lacks, with one terminal on screen, is
    that terminal's, whether or not the request says "terminal"."""
    commands = [next(g for g in m.groups() if g is not None) for m in SPELLED.finditer(request)]
    title = asked_for(request) if len(commands) == 1 else None
    if not commands and SAVES.search(request):
        said = VARIABLE.findall(request)
        names = _variables(said)
        files = set(FILE_NAME.findall(request))
        if len(names) == 1 and len(files) == 1 and (VALUE.search(request) or "$" in said[0]) \
                and request.rfind(next(iter(files))) > request.find(said[0]):
            name = names.pop()
            commands = [f'echo "${name}" > {files.pop()}']
            title = asked_for(request) or holding(request)
    return typed(commands[0], title) if title is not None else None


def holding(request: str) -> str | None:
    """The one terminal on screen, for a request that names one variable the assistant's
    own shell does not have ("put the value of RELEASE_TAG in tag.txt", said with no word
    of a terminal): the terminal's shell is where it was set. None otherwise."""
    names = _variables(VARIABLE.findall(request))
    if len(names) != 1 or names & set(os.environ):
        return None
    titles = x_windows.shown(PROGRAMS)
    return titles[0] if len(titles) == 1 else None


def _variables(said: list[str]) -> set[str]:
    """The variables' names as said ("$HOME", "BUILD_ID"), without a "$"."""
    return {name.lstrip("$") for name in said}
