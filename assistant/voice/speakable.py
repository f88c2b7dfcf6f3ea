"""A proposal in words a listener can follow, since code read symbol by symbol is noise.

Modes (the `speak_proposals` setting):
- code:    the plan alone: it says what the code does, and the code is on screen (read
           out on request). Without a plan, code of one short line in a spoken form ("run
           shell: list files, long format, in downloads"), longer code as a summary ("a
           40-line Python script that renames files");
- summary: the plan, then a summary;
- both:    the plan, the summary, and the spoken form of one short line.

When a what-if run showed the proposal's effect, that effect's sentence is said in every
mode: it is what the code does, and the model's plan is only its claim (shown on screen,
and said before the effect only when the effect changes no files).
"""

from __future__ import annotations

import re
import shlex

from assistant.choices import SpeakProposals, choices
from assistant.events import Effect
from assistant.runtime.languages import canonical_language

SHORT_LINES = 3
PATH = re.compile(r"[^\s,;()]*/[^\s,;()]*")  # in an effect's sentence, every word with a /
NOTHING = "Changes nothing."
ONE_LINE_CHARS = 60  # code read aloud in the `code` mode: one line, at most this long

# How each language is said aloud (the aliases a fence may use are resolved first).
SPOKEN_NAMES = {"shell": "shell", "python": "Python", "javascript": "JavaScript"}

SHELL_WORDS = {
    "ls": "list files", "cd": "go to", "rm": "delete", "mv": "move", "cp": "copy",
    "mkdir": "make folder", "rmdir": "remove folder", "cat": "show", "grep": "search for",
    "find": "find files", "echo": "print", "df": "show free disk space", "du": "show disk usage",
    "touch": "create file", "chmod": "change permissions of", "head": "show the start of",
    "tail": "show the end of", "wc": "count lines in", "sort": "sort", "curl": "download",
    "wget": "download", "sudo": "as administrator,", "git": "git", "pip": "pip",
    "ps": "list processes", "kill": "stop process", "pwd": "show the current folder",
    "date": "show the date", "open": "open", "xdg-open": "open", "tar": "archive",
}
FLAG_WORDS = {
    ("ls", "l"): "long format", ("ls", "a"): "including hidden", ("ls", "h"): "readable sizes",
    ("ls", "t"): "newest first", ("ls", "S"): "largest first", ("ls", "R"): "recursively",
    ("rm", "r"): "recursively", ("rm", "f"): "forced", ("cp", "r"): "recursively",
    ("df", "h"): "readable sizes", ("du", "h"): "readable sizes", ("du", "s"): "totals only",
    ("grep", "i"): "ignoring case", ("grep", "r"): "recursively", ("mkdir", "p"): "with parents",
}
# What a long script does, recognised by what it calls.
ACTIONS = (
    (r"\b(os\.rename|\.rename\(|mv\s)", "renames files"),
    (r"\b(os\.remove|os\.unlink|shutil\.rmtree|\.unlink\(|rm\s)", "deletes files"),
    (r"\b(shutil\.copy|cp\s)", "copies files"),
    (r"\b(shutil\.move)", "moves files"),
    (r"\b(requests\.|urllib|httpx|curl\s|wget\s|fetch\()", "uses the network"),
    (r"\b(computer\.|pyautogui)", "controls the mouse and keyboard"),
    (r"open\([^)]*['\"][wa]", "writes files"),
    (r"\b(subprocess|os\.system)", "runs other programs"),
    (r"\b(sqlite3|pandas|csv\.)", "works with data"),
)


def speak_proposal(language: str, code: str, plan: str = "",
                   mode: SpeakProposals = "code", effect: Effect | None = None) -> str:
    """The words to say before asking for approval of `code`: its previewed `effect`
    when there is one, else the model's `plan`; then the code per `mode`."""
    parts = [sentence(plan)] if plan.strip() and (effect is None or effect.harmless) else []
    if effect is not None and effect.summary:
        parts.append(effect_words(effect))
    words = code_words(language, code, mode, planned=bool(parts))
    return " ".join(parts + ([words] if words else []))


def code_words(language: str, code: str, mode: SpeakProposals = "code", *,
               planned: bool = False) -> str:
    """What is said of the code itself, after the plan (`planned`: one was said)."""
    if mode not in choices(SpeakProposals):
        raise ValueError(f"speak_proposals must be one of {', '.join(choices(SpeakProposals))}, "
                         f"not {mode!r}")
    parts = []
    if "." in language:  # a tool call: its JSON arguments are what a person decides on
        code = " ".join(code.split())
    one_line = is_one_short_line(code)
    if mode in ("summary", "both") or (not one_line and not planned):
        parts.append(summary(language, code))
    if one_line and (mode == "both" or (mode == "code" and not planned)):
        parts.append(spoken_code(language, code))
    return " ".join(sentence(part) for part in parts)


def effect_words(effect: Effect) -> str:
    """The effect's sentence with its paths said as places ("old-backups in downloads"),
    and what the preview could not cover. A harmless effect (no change, no failure, and
    the preview saw the whole run) is said in two words, not the three on screen ("Changes
    no files."): it is said before every such proposal."""
    if effect.harmless:
        return NOTHING
    said = PATH.sub(lambda found: spoken_path(found.group(0)), effect.summary)
    if effect.unpreviewable:
        said = f"{sentence(said)} It also {join_words(list(effect.unpreviewable))}"
    return sentence(said)


def is_one_short_line(code: str) -> bool:
    lines = [line for line in code.strip().splitlines() if line.strip()]
    return len(lines) == 1 and len(lines[0].strip()) <= ONE_LINE_CHARS


def summary(language: str, code: str) -> str:
    if "." in language:  # a tool call: its name is `SERVER.TOOL`, its code the arguments
        return f"A call of the tool {tool_words(language)}"
    lines = len([line for line in code.strip().splitlines() if line.strip()])
    name = SPOKEN_NAMES.get(canonical_language(language) or "", language)
    kind = "command" if name == "shell" and lines <= SHORT_LINES else "script"
    article = "an" if str(lines)[0] == "8" or lines in (11, 18) else "a"
    text = f"{article} {lines}-line {name} {kind}"
    actions = [words for pattern, words in ACTIONS if re.search(pattern, code)]
    if actions:
        text += " that " + join_words(actions)
    return text[0].upper() + text[1:]


def spoken_code(language: str, code: str) -> str:
    if "." in language:
        return f"Call {tool_words(language)}: {spoken_symbols(code)}"
    name = SPOKEN_NAMES.get(canonical_language(language) or "", language)
    if name == "shell":
        commands = [spoken_shell(line) for line in code.strip().splitlines() if line.strip()]
        return f"Run shell: {'; then '.join(commands)}"
    return f"Run {name}: {spoken_symbols(code)}"


def spoken_shell(line: str) -> str:
    """One shell command line in words: the command, its flags, then its arguments."""
    try:
        tokens = shlex.split(line, comments=True)
    except ValueError:
        return spoken_symbols(line)
    if not tokens:
        return ""
    command, rest = tokens[0], tokens[1:]
    words = [SHELL_WORDS.get(command, command)]
    flags, args = [], []
    for token in rest:
        if token.startswith("-") and not token.startswith("--") and len(token) > 1:
            flags += [FLAG_WORDS.get((command, letter), f"option {letter}")
                      for letter in token[1:]]
        elif token.startswith("--"):
            flags.append(token[2:].replace("-", " "))
        elif token in ("|", "&&", ";"):
            args.append({"|": "then", "&&": "and then", ";": "then"}[token])
        else:
            args.append(spoken_path(token))
    words += flags
    if args:
        words.append(("in " if command == "ls" else "") + " ".join(args))
    return ", ".join(word for word in words if word)


def spoken_path(token: str) -> str:
    """~/Downloads/report.pdf -> "report.pdf in downloads"; plain words stay as they are."""
    if "/" not in token:
        return token
    parts = [part for part in token.split("/") if part and part != "~"]
    if not parts:
        return "the root folder"
    if len(parts) == 1:
        return parts[0].lower()
    return f"{parts[-1]} in {parts[-2].lower()}"


def tool_words(name: str) -> str:
    """notes.delete_note -> notes, delete note."""
    server, _, tool = name.partition(".")
    return f"{server}, {tool.replace('_', ' ').replace('-', ' ')}"


def spoken_symbols(code: str) -> str:
    """Code with its punctuation dropped, so it reads as words: print("hi") -> print hi."""
    text = re.sub(r"[()\[\]{}\"'`;:,]", " ", code)
    text = text.replace("=", " equals ").replace(".", " dot ")
    return re.sub(r"\s+", " ", text).strip()


def join_words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."
