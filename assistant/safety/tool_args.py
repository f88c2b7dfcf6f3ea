"""A tool call's arguments meet the rules code meets: the paths they name (keys and tokens,
the assistant's own files, system and start-up files, wide folders), the commands and code
they carry, and the text a typing tool would type.

What a path means depends on what the tool does with it, told by its name's verbs and its
rating: a tool rated low (it says it is read-only, or the config says so) or named for
reading only reads; one named for deleting deletes; one named for moving moves, judged by
where the files end up; any other writes.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from assistant.safety import desktop, paths
from assistant.safety.files import delete_findings, moved_away, own_read, write_findings
from assistant.safety.findings import Finding, Level, Scope

DELETING = {"delete", "remove", "rm", "rmdir", "unlink", "trash", "erase", "wipe", "purge",
            "destroy", "clear", "clean", "empty", "del", "drop"}
MOVING = {"move", "mv", "rename"}
WRITING = {"write", "edit", "create", "update", "insert", "set", "save", "append", "put", "patch",
           "modify", "replace", "drop", "alter", "truncate", "overwrite", "upload", "import",
           "export", "install", "chmod", "chown", "mkdir", "add", "copy", "cp"}
READING = {"read", "get", "list", "ls", "search", "find", "view", "show", "stat", "info", "cat",
           "open", "load", "query", "lookup", "glob", "grep", "describe", "head", "tail",
           "tree", "exists", "count", "preview", "fetch", "download"}
TYPING = {"type", "keyboard", "key", "keys", "press", "hotkey", "typing"}
SHELL = {"shell", "terminal", "exec", "execute", "command", "run", "bash", "cmd", "sh", "console"}
COMMAND_KEYS = {"command", "cmd", "commands", "script", "shell", "commandline", "command_line",
                "bash", "argv"}
CODE_KEYS = {"code", "source_code", "program", "snippet"}
FOLDER_KEYS = {"cwd", "dir", "directory", "folder", "working_directory", "workdir",
               "working_dir", "root", "base_dir", "basedir"}
TARGET_KEYS = {"destination", "dest", "dst", "target", "to", "new_path", "newpath", "output",
               "out", "output_path", "outfile", "save_path", "new_name"}
PATH_KEY = re.compile(r"(?i)^(?:.*[_-])?(?:path|paths|file|files|filename|filepath|source|src"
                      r"|from|location|uri|" + "|".join(sorted(FOLDER_KEYS | TARGET_KEYS)) + ")$")
PATH_SHAPE = re.compile(r"^(~|/|\./|\.\./|\$\{?HOME\b|file://)|^[^\s:]*/[^\s]*$")
TYPED_KEYS = {"text", "string", "value", "input", "content", "message", "chars", "characters"}
KEY_KEYS = {"key", "keys", "hotkey", "combo", "shortcut", "sequence"}
LANGUAGES = {"python": "python", "py": "python", "shell": "shell", "bash": "shell",
             "sh": "shell", "javascript": "javascript", "js": "javascript", "node": "javascript"}


def findings(name: str, level: Level, arguments: str, scope: Scope) -> list[Finding]:
    """Findings for a call of the tool `name` (rated `level` by its hints or the config)
    with JSON `arguments`; arguments that are not a JSON object are never sent, so none."""
    try:
        values = json.loads(arguments or "{}")
    except ValueError:
        return []
    if not isinstance(values, dict):
        return []
    verbs = _words(name.replace("__", ".").rsplit(".", 1)[-1])
    folder = next((str(v) for k, v in values.items() if k.lower() in FOLDER_KEYS
                   and isinstance(v, str)), "")
    scope = scope.at(paths.within(scope.cwd, _plain(folder)) if folder else scope.cwd)
    leaves = list(_leaves(values, ""))
    found = [Finding("secrets", "high", f"{key}: {value}", "names an API key or token")
             for key, value in leaves if any(paths.is_secret_variable(name) for name in (
                 re.findall(r"\$\{?([A-Za-z_]\w*)", value)
                 + re.findall(r"^[A-Z][A-Z0-9_]*$", value)))][:1]
    found += _paths(leaves, verbs, level, scope)
    found += _commands(leaves, verbs, values, scope)
    if verbs & TYPING:
        found += _typed(leaves, scope)
    return found


def _words(name: str) -> set[str]:
    """`deleteFile`, `delete_file`, `delete-file`: {"delete", "file"}."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return {w.lower() for w in re.split(r"[\W_]+", spaced) if w}


def _leaves(value: Any, key: str) -> list[tuple[str, str]]:
    """Every string in the arguments with the name of the key holding it."""
    if isinstance(value, str):
        return [(key, value)]
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, str(k))]
    if isinstance(value, list):
        if key.lower() in COMMAND_KEYS and all(isinstance(v, str) for v in value):
            return [(key, " ".join(shlex.quote(v) for v in value))]  # an argv
        return [leaf for v in value for leaf in _leaves(v, key)]
    return []


def _plain(path: str) -> str:
    return path.removeprefix("file://")


def _is_path(key: str, value: str) -> bool:
    if not value or "\n" in value or len(value) > 4096 or "://" in value.removeprefix("file://"):
        return False
    return bool(PATH_KEY.search(key)) or (not any(c.isspace() for c in value)
                                          and bool(PATH_SHAPE.search(value)))


def _paths(leaves: list[tuple[str, str]], verbs: set[str], level: Level,
           scope: Scope) -> list[Finding]:
    """Paths read, written, deleted or moved, by what the tool does."""
    named = [(key, paths.within(scope.cwd, _plain(value))) for key, value in leaves
             if key.lower() not in FOLDER_KEYS | COMMAND_KEYS | CODE_KEYS and _is_path(key, value)]
    if not named:
        return []
    targets = [(k, p) for k, p in named if k.lower() in TARGET_KEYS]
    sources = [(k, p) for k, p in named if k.lower() not in TARGET_KEYS]
    protected = scope.protected
    found: list[Finding] = []
    for key, path in named:
        part = f"{key}: {path}"
        if verbs & DELETING:
            found += delete_findings("rm", ["-r", path], part, protected)
        elif (level == "low" or verbs & READING) and not verbs & (WRITING | MOVING):
            if paths.is_secret(path):
                found.append(Finding("secrets", "high", part, "reads keys, tokens or credentials"))
            else:
                found += own_read([path], part, protected)
        elif (key, path) in targets or not targets:
            found += write_findings(path, part, protected)
        elif paths.is_secret(path):
            found.append(Finding("secrets", "high", part, "copies keys, tokens or credentials"))
        elif verbs & MOVING and paths.is_protected(path, protected):
            found.append(Finding("self-tamper", "high", part,
                                 "moves the assistant's own files away"))
    if verbs & MOVING and targets:
        found += moved_away([p for _, p in sources], targets[0][1],
                            f"{targets[0][0]}: {targets[0][1]}")
    return found


def _commands(leaves: list[tuple[str, str]], verbs: set[str], values: dict[str, Any],
              scope: Scope) -> list[Finding]:
    """Commands and code carried in the arguments, checked in their own language; every
    string given to a tool named for running commands is a command."""
    given = str(values.get("language") or values.get("lang") or "").lower()
    language = LANGUAGES.get(given) or next(
        (LANGUAGES[w] for w in verbs if w in LANGUAGES), "python")
    found: list[Finding] = []
    commands = [v for k, v in leaves if k.lower() in COMMAND_KEYS]
    if not commands and verbs & SHELL:
        commands = [v for k, v in leaves if k.lower() not in CODE_KEYS | FOLDER_KEYS
                    and k.lower() not in ("language", "lang")]
    for command in commands:
        found += scope.inner(command, "shell")
    for key, code in leaves:
        if key.lower() in CODE_KEYS:
            found += [f for f in scope.inner(code, language) if f.family != "unparsed"]
    return found


def _typed(leaves: list[tuple[str, str]], scope: Scope) -> list[Finding]:
    """A tool that types: its text and keys are terminal input, and it acts on the desktop."""
    typist = desktop.Typist()
    typed = [(k, v) for k, v in leaves if k.lower() in TYPED_KEYS | KEY_KEYS]
    for key, value in typed:
        if key.lower() in KEY_KEYS:
            typist.keys([value])
        else:
            typist.text(value)
    acted = Finding("desktop", "medium", ", ".join(f"{k}: {v}" for k, v in typed)[:200],
                    desktop.WHY["type"])
    return [acted, *typist.findings(scope)]
