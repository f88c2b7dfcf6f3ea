"""Shell text into commands: pipelines, lists, substitutions, heredocs and redirections.

Not a full shell grammar; enough structure that the risk rules see every command a
script would start, including those inside `$(...)`, backticks, `<(...)` and heredocs.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from assistant.safety.findings import Finding, Level, Scope
from assistant.safety.paths import is_wide

# Stands for text only known at run time; "$?DL" marks one that comes from a download.
UNKNOWN = "$?"
DOWNLOADED = "$?DL"
DECODED = "$?DEC"  # ... and one that comes out of a decoder (base64 -d, xxd -r, ...)
DOWNLOADERS = {"curl", "wget", "fetch", "aria2c", "http", "https", "lwp-request"}
DECODERS = {"base64", "base32", "xxd", "openssl", "rev", "gunzip", "zcat", "uudecode",
            "basenc", "gpg"}
SEPARATORS = {";", "&&", "||", "&", "|", "|&", "(", ")", "{", "}", ";;", "()"}
HEREDOC = re.compile(r"<<-?\s*(['\"]?)([\w.-]+)\1")
LITERAL = str.maketrans({c: chr(0xE000 + i) for i, c in enumerate(";&|()<>")})
"""Quoted or escaped operators (find's `\\;` and `\\(`) kept as words while the text is split."""
PLAIN = {ord(kept): chr(code) for code, kept in LITERAL.items()}


@dataclass
class Command:
    """One simple command: its words (variables as `$?`) and where it redirects."""

    words: list[str]
    writes: list[str] = field(default_factory=list)
    reads: list[str] = field(default_factory=list)
    pipeline: int = 0
    position: int = 0
    tokens: list[str] = field(default_factory=list)
    loop: int = 0  # how many loops the command runs inside
    depth: int = 0  # how many subshells `( ... )` the command runs inside
    variables: list[str] = field(default_factory=list)  # the names of those it expands

    @property
    def text(self) -> str:
        return " ".join(self.tokens)

    @property
    def name(self) -> str:
        return self.words[0].rsplit("/", 1)[-1] if self.words else ""


@dataclass
class Script:
    """A parsed script: its commands, and the pieces parsed separately (substitutions, heredocs)."""

    commands: list[Command]
    inner: list[tuple[str, str]] = field(default_factory=list)  # (language, code)
    text: str = ""


def _matching(text: str, start: int, open_: str, close: str) -> int:
    """Index of the bracket closing the one at `start`, skipping quoted parts."""
    depth, i, quote = 0, start, ""
    while i < len(text):
        c = text[i]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"':
                i += 1
        elif c in "'\"":
            quote = c
        elif c == "\\":
            i += 1
        elif c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text) - 1


def _heredocs(text: str, inner: list[tuple[str, str]], argv: dict[int, list[str]]) -> str:
    """Cut heredoc bodies out; a body fed to an interpreter is kept as code to check, and
    the words given to a `python3 - ARG...` reading it are kept for its `sys.argv`."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        for match in HEREDOC.finditer(line):
            body: list[str] = []
            while i < len(lines) and lines[i].strip() != match.group(2):
                body.append(lines[i])
                i += 1
            i += 1
            first = line.split()[0].rsplit("/", 1)[-1] if line.split() else ""
            language = interpreter_language(first) or "text"
            words = line[: match.start()].split()
            if language == "python" and "-" in words:
                argv[len(inner)] = [w.strip("'\"") for w in words[words.index("-"):]]
            inner.append((language, "\n".join(body)))
    return "\n".join(out)


ESCAPES = re.compile(r"(\\x[0-9a-fA-F]{2}|\\[0-7]{3}|\\u[0-9a-fA-F]{4}){3,}")
ROT13 = re.compile(r"\btr\s+['\"]?(A-Za-z|a-zA-Z|a-z)['\"]?\s+['\"]?[N-Zn-z]")


def is_encoded_text(text: str) -> bool:
    """Text that spells a command in escapes (`printf '\\162\\155'`) or rot13 (`tr`)."""
    return bool(ESCAPES.search(text) or ROT13.search(text))


def interpreter_language(name: str) -> str:
    """The language a command name interprets, if it is an interpreter."""
    if name in ("sh", "bash", "zsh", "dash", "ksh", "fish", "busybox"):
        return "shell"
    if re.fullmatch(r"python[\d.]*|pypy[\d.]*", name):
        return "python"
    if name in ("node", "nodejs", "deno", "bun"):
        return "javascript"
    return ""


def _flatten(text: str, inner: list[tuple[str, str]]) -> str:
    """Replace substitutions by markers (checking them apart), comments by nothing,
    and unquoted newlines by `;`."""
    out: list[str] = []
    i, quote = 0, ""
    while i < len(text):
        c = text[i]
        if quote == "'":
            out.append(c.translate(LITERAL))
            quote = "" if c == "'" else quote
            i += 1
            continue
        if c == "\\" and i + 1 < len(text):
            if text[i + 1] in ";&|()<>" and not quote:
                out.append(text[i + 1].translate(LITERAL))
            elif text[i + 1] != "\n":
                out.append(text[i : i + 2])
            i += 2
            continue
        sub_end = -1
        if c in "$<>" and text[i + 1 : i + 2] == "(" and text[i + 2 : i + 3] != "(":
            sub_end = _matching(text, i + 1, "(", ")")
            body = text[i + 2 : sub_end]
        elif c == "`":
            sub_end = text.find("`", i + 1)
            sub_end = len(text) - 1 if sub_end < 0 else sub_end
            body = text[i + 1 : sub_end]
        if sub_end >= 0:
            inner.append(("shell", body))
            names = {w.rsplit("/", 1)[-1] for w in body.split()}
            out.append(DOWNLOADED if names & DOWNLOADERS else DECODED if names & DECODERS
                       or is_encoded_text(body) else UNKNOWN)
            i = sub_end + 1
            continue
        if c == '"':
            quote = "" if quote == '"' else '"'
        elif c == "'" and not quote:
            quote = "'"
        elif c == "#" and not quote and (not out or out[-1] in " \t\n;|&("):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        elif c == "\n" and not quote:
            c = " ; "
        out.append(c)
        i += 1
    return "".join(out)


RESERVED = {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "}"}
"""Words that open a compound command: the command proper follows them."""
ASSIGNERS = {"export", "local", "declare", "readonly", "typeset"}
ASSIGNMENT = re.compile(r"([A-Za-z_]\w*)=(.*)", re.DOTALL)


def _variables(word: str, known: dict[str, str]) -> str:
    """Variables the script assigned become their values; the rest `$?`."""
    word = re.sub(r"\$\{?HOME\}?(?!\w)|^~(?=/|$)", "~", word)

    def value(match: re.Match[str]) -> str:
        return known.get(match.group(1) or match.group(2) or "", UNKNOWN)

    word = re.sub(r"\$\{([A-Za-z_]\w*):?[-=]([^}]*)\}",
                  lambda m: known.get(m.group(1), m.group(2) or UNKNOWN), word)
    word = re.sub(r"\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)", value, word)
    return re.sub(r"\$\{[^}]*\}|\$[@*#?$!0-9]", UNKNOWN, word)


def _expanded(word: str, known: dict[str, str]) -> list[str]:
    """The variables from the environment a word expands, by name: `$A`, `${A:-x}`, and
    through `${!A}` the variable A names (not those the script set itself)."""
    names = re.findall(r"\$\{?([A-Za-z_]\w*)", word)
    names += [known.get(n, "") for n in re.findall(r"\$\{!([A-Za-z_]\w*)", word)]
    return [n for n in names if n not in known]


def _assign(words: list[str], known: dict[str, str]) -> None:
    """Remember what a plain assignment or a `for NAME in ...` gives a variable.

    A loop variable takes each word in turn: the widest one stands for them all.
    """
    if len(words) >= 3 and words[0] in ("for", "select") and words[2] == "in":
        items = words[3:] or [UNKNOWN]
        known[words[1]] = next((w for w in items if is_wide(w)), items[0])
        return
    if words[:1] == ["alias"]:
        for pair in filter(None, (ASSIGNMENT.fullmatch(w) for w in words[1:])):
            known["alias " + pair.group(1)] = pair.group(2)
        return
    rest = words[1:] if words and words[0] in ASSIGNERS else words
    pairs = [ASSIGNMENT.fullmatch(w) for w in rest if not w.startswith("-")]
    if pairs and all(pairs):
        for assignment in pairs:
            if assignment is not None:
                known[assignment.group(1)] = assignment.group(2)


def parse(text: str) -> Script:
    """Split a script into commands; raises ValueError when quotes do not close."""
    inner: list[tuple[str, str]] = []
    argv: dict[int, list[str]] = {}
    flat = _flatten(_heredocs(text, inner, argv), inner)
    lexer = shlex.shlex(flat, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = ""
    tokens = list(lexer)
    commands: list[Command] = []
    current = Command([])
    known: dict[str, str] = {}
    pipeline = position = loop = depth = 0
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in SEPARATORS or token == "()" or set(token) <= set(";&|()"):
            if current.words or current.writes or current.reads:
                alias = known.get("alias " + current.name) if current.words else None
                if alias:
                    current.words[:1] = [_variables(w, known) for w in alias.split()]
                commands.append(current)
                _assign(current.words, known)
            if token not in ("|", "|&"):
                pipeline += 1
                position = 0
            else:
                position += 1
            depth = max(0, depth + token.count("(") - token.count(")"))
            current = Command([], pipeline=pipeline, position=position, loop=loop, depth=depth)
        elif set(token) <= set("<>&0123456789") and ("<" in token or ">" in token):
            target = tokens[i + 1].translate(PLAIN) if i + 1 < len(tokens) else ""
            i += 1
            current.tokens += [token, target]
            current.variables += _expanded(target, known)
            if token == "<<<":  # a here-string: what the command reads on stdin
                current.reads.append(_variables(target, known))
            elif (token.endswith("&") and target.isdigit()) or token in ("<<", "<<-"):
                pass
            elif ">" in token:
                current.writes.append(_variables(target, known))
            else:
                current.reads.append(_variables(target, known))
        else:
            token = token.translate(PLAIN)
            if not current.words and token in ("do", "done"):
                loop = max(0, loop + (1 if token == "do" else -1))
                current.loop = loop
            if current.words or token not in RESERVED:
                current.words.append(_variables(token, known))
            current.tokens.append(token)
            current.variables += _expanded(token, known)
        i += 1
    if current.words or current.writes or current.reads:
        commands.append(current)
    for index, words in argv.items():  # now that the script's variables are known
        values = ", ".join(repr(_variables(w, known)) for w in words)
        inner[index] = ("python", f"import sys\nsys.argv = [{values}]\n{inner[index][1]}")
    return Script(commands, inner, text)


@dataclass
class Call:
    """One command as the rules read it: its name and arguments once wrappers are gone,
    the text it came from, its pipeline, and the checker's scope."""

    name: str
    args: list[str]
    part: str
    command: Command
    pipe: list[Command]
    scope: Scope

    @property
    def plain(self) -> list[str]:
        return [a for a in self.args if not a.startswith("-")]

    def finding(self, family: str, level: Level, why: str) -> Finding:
        return Finding(family, level, self.part, why)
