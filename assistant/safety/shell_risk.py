"""Risk rules for shell: the script is parsed into commands, and each is judged by its name
(shell_rules), its redirections, and where the code it runs comes from."""

from __future__ import annotations

import re

from assistant.safety import desktop, paths
from assistant.safety.files import write_findings
from assistant.safety.findings import Finding, Scope
from assistant.safety.shell_find import find_output, find_parts
from assistant.safety.shell_parse import (
    DECODED,
    DECODERS,
    DOWNLOADED,
    DOWNLOADERS,
    UNKNOWN,
    Call,
    Command,
    interpreter_language,
    is_encoded_text,
    parse,
)
from assistant.safety.shell_rules import MANY, PLACED, SENDERS, findings_for, sent

FORK_BOMB = re.compile(r"([\w:.-]+)\s*\(\s*\)\s*\{([^}]*)\}")
ENDLESS = re.compile(r"\b(?:while|until)\s+(?:true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))\s*;?\s*do\b"
                     r"(.*?)\bdone\b", re.DOTALL)
SELF_AGAIN = re.compile(r"[\"']?\$(?:0|\{0\}|BASH_SOURCE)[\"']?\s*&(?!&)")
WRAPPERS = {"nohup", "time", "nice", "ionice", "exec", "command", "builtin", "stdbuf",
            "setsid", "timeout", "env", "watch", "strace", "chronic", "unbuffer", "xargs",
            "parallel", "flock"}
ELEVATE = {"sudo", "doas", "pkexec", "su", "runuser", "gksudo", "kdesu"}
SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish", "source", ".", "eval"}
ARCHIVERS = {"zip", "tar", "7z", "rar", "gzip", "bzip2", "xz", "cp", "rsync"}


def check(code: str, scope: Scope, downloaded: set[str] | None = None) -> list[Finding]:
    """Findings for a shell script; `downloaded` holds the files fetched so far (a later
    run of one is download-exec)."""
    try:
        script = parse(code)
    except ValueError as exc:
        return [Finding("unparsed", "medium", code.strip().splitlines()[0] if code.strip() else "",
                        f"cannot be read as shell ({exc})")]
    found = _forks(code) + _packed_and_sent(script.commands)
    downloaded = set() if downloaded is None else downloaded
    cwd = scope.cwd
    outer: list[str] = []  # the folders of the enclosing subshells, restored as each ends
    pushed: list[str] = []  # pushd's stack
    cdpath = [""]  # where `cd NAME` looks first (CDPATH), "" = the current folder
    typist = desktop.Typist()
    for command in script.commands:
        while len(outer) < command.depth:
            outer.append(cwd)
        while len(outer) > command.depth:
            cwd = outer.pop()  # a subshell's `cd` ends with it
        cwd = _folder(command, cwd, pushed, cdpath)
        found += _command(command, script.commands, scope.at(cwd), downloaded, typist)
    for language, inner in script.inner:
        if language in ("shell", "python", "javascript"):
            found += scope.at(cwd).inner(inner, language)
    return found + typist.findings(scope, found)


def _folder(command: Command, cwd: str, pushed: list[str], cdpath: list[str]) -> str:
    """The folder after `cd`, `pushd` or `popd` (the same one after any other command).
    A relative name is looked for in CDPATH's folders first, as the shell does; an
    assignment of CDPATH (alone or before the command) changes `cdpath`."""
    words = list(command.words)
    if words[:1] and words[0] in ("export", "declare", "typeset", "local"):
        words = words[1:]
    while words and re.fullmatch(r"[A-Za-z_]\w*=.*", words[0]):
        name, _, value = words.pop(0).partition("=")
        if name == "CDPATH":
            cdpath[:] = [p if p != "." else "" for p in value.split(":")]
    name = words[0].rsplit("/", 1)[-1] if words else ""
    target = next((w for w in words[1:] if not w.startswith("-") or w == "-"), "~")
    if name not in ("cd", "pushd", "popd"):
        return cwd
    if name == "popd":
        return pushed.pop() if pushed else UNKNOWN
    if name == "pushd":
        if len(words) < 2:
            return cwd
        pushed.append(cwd)
    if target == "-":
        return UNKNOWN
    if not target.startswith((".", "/", "~", "$")) and cdpath[0]:
        return paths.within(cdpath[0], target)
    return paths.within(cwd, target)


def _forks(code: str) -> list[Finding]:
    """Endless process creation: fork bombs, background starts in endless loops, a script
    starting itself twice."""
    found = [Finding("fork-bomb", "blocked", match.group(0)[:80],
                     "starts background processes in an endless loop")
             for match in ENDLESS.finditer(code)
             if re.search(r"&(?!&)\s*(;|\n|$)", match.group(1))]
    again = SELF_AGAIN.findall(code)
    if len(again) >= 2:
        found.append(Finding("fork-bomb", "blocked", again[0],
                             "starts copies of itself without end"))
    for match in FORK_BOMB.finditer(code):
        name, body = re.escape(match.group(1)), match.group(2)
        if re.search(rf"{name}\s*\|\s*{name}|{name}\s*&", body):
            found.append(Finding("fork-bomb", "blocked", match.group(0),
                                 "starts copies of itself without end"))
    return found


def _unwrap(words: list[str], found: list[Finding], text: str, cwd: list[str]) -> list[str]:
    """Drop assignments and wrappers (sudo, env, nohup, xargs, ...) down to the real command;
    `env -C DIR` changes `cwd[0]`, the folder it runs in."""
    while words:
        name = words[0].rsplit("/", 1)[-1]
        if re.fullmatch(r"[A-Za-z_]\w*=.*", words[0]):
            words = words[1:]
        elif name in ELEVATE:
            found.append(Finding("privilege", "high", text, "runs with administrator rights"))
            rest = words[1:]
            if name == "su" and "-c" in rest:
                return ["sh", "-c", *rest[rest.index("-c") + 1 :]]
            while rest and rest[0].startswith("-"):
                rest = rest[2:] if rest[0] in ("-u", "-g", "-U", "-C", "-h", "-p") else rest[1:]
            words = rest
        elif name in WRAPPERS:
            rest = words[1:]
            if name == "env":
                rest = _env_options(rest, cwd)
            while rest and (rest[0].startswith("-") or (name in ("timeout", "nice") and
                            re.fullmatch(r"[\d.]+[smhd]?", rest[0]))):
                valued = name == "xargs" and rest[0] in ("-d", "-a", "-E", "-I", "-L", "-n",
                                                         "-P", "-s", "-e", "-i", "-l")
                rest = rest[2:] if valued else rest[1:]
            if not rest:
                return words
            words = [*rest, MANY] if name in ("xargs", "parallel") else rest
        else:
            return words
    return words


def _env_options(rest: list[str], cwd: list[str]) -> list[str]:
    """env's options that take a value: `-C`/`--chdir DIR` (the folder it runs in, kept in
    `cwd[0]`) and `-u`/`--unset NAME`."""
    while rest:
        head = rest[0]
        if head in ("-C", "--chdir", "-u", "--unset"):
            value, rest = (rest[1] if len(rest) > 1 else ""), rest[2:]
        elif head.startswith(("--chdir=", "--unset=")):
            value, rest = head.split("=", 1)[1], rest[1:]
        elif head.startswith(("-C", "-u")) and len(head) > 2:
            value, rest = head[2:], rest[1:]
        else:
            return rest
        if head.startswith(("-C", "--chdir")):
            cwd[0] = paths.within(cwd[0], value)
    return rest


def _command(command: Command, commands: list[Command], scope: Scope, downloaded: set[str],
             typist: desktop.Typist) -> list[Finding]:
    found: list[Finding] = []
    part = command.text
    for target in command.writes:
        found += write_findings(paths.within(scope.cwd, target), part, scope.protected)
    for source in command.reads:
        if paths.is_secret(paths.within(scope.cwd, source)):
            found.append(Finding("secrets", "high", part, "reads keys or credentials"))
    folder = [scope.cwd]
    words = _unwrap(list(command.words), found, part, folder)
    scope = scope.at(folder[0])
    cwd = scope.cwd
    found += _secret_variables(command)
    if not words:
        return found
    if MANY in words:
        words = _fed(words, command, commands)
    name, args = words[0].rsplit("/", 1)[-1], words[1:]
    if interpreter_language(name) == "python" and args[:1] == ["-m"] and len(args) > 1:
        name, args = args[1], args[2:]  # `python -m pip install ...` is pip
    scope.saw(name, tuple(args))
    pipe = [c for c in commands if c.pipeline == command.pipeline]
    call = Call(name, args, part, command, pipe, scope)
    if name in SHELLS or interpreter_language(name):
        found += _interpreter(call, downloaded)
    found += _program(words[0], call, downloaded)
    if name in DOWNLOADERS:
        found += _download(call, downloaded)
    if cwd and name in PLACED:
        named, rest = find_parts(args) if name == "find" else (args, [])
        args = [f"{cwd}/*" if a == MANY else a if a.startswith("-") else
                "of=" + paths.within(cwd, a[3:]) if a.startswith("of=") else
                paths.within(cwd, a) for a in named] + rest
    call.args = [b for a in args for b in _braces(a)]
    for target in _outputs(name, call.args):
        found += write_findings(paths.within(cwd, target), part, scope.protected)
    if name in desktop.DESKTOP_COMMANDS:
        found += _desktop(call, typist)
    return found + findings_for(call)


OUTPUT_FLAGS = {"curl": ("-o", "--output"), "wget": ("-O", "--output-document"),
                "sort": ("-o", "--output"), "iconv": ("-o", "--output"),
                "pandoc": ("-o", "--output"), "openssl": ("-out",), "gpg": ("-o", "--output")}
"""Programs whose option names the file they write (a write the rules judge like `>`)."""


def _outputs(name: str, args: list[str]) -> list[str]:
    """The files a command writes through its output option: `curl -o ~/.bashrc URL`."""
    flags = OUTPUT_FLAGS.get(name, ())
    found = [args[i + 1] for i, a in enumerate(args[:-1]) if a in flags]
    return found + [a.split("=", 1)[1] for a in args
                    if "=" in a and a.split("=", 1)[0] in flags and a.startswith("--")]


def _desktop(call: Call, typist: desktop.Typist) -> list[Finding]:
    """xdotool and its kin: acting on the desktop needs a person; typing is fed on."""
    before = [c for c in call.pipe if c.position < call.command.position]
    piped = " ".join(w.replace("\\n", "\n").replace("\\t", "\t") for c in before
                     if c.name in ("echo", "printf") for w in c.words[1:] if w != "-e")
    piped = piped or " ".join(call.command.reads)
    what = desktop.shell_command(call.name, call.args, piped, typist)
    return [call.finding("desktop", "medium", desktop.WHY[what])] if what else []


def _secret_variables(command: Command) -> list[Finding]:
    """`$OPENAI_API_KEY`, `${GITHUB_TOKEN}`, `${!name}`: a key read from the environment."""
    name = next((n for n in command.variables if paths.is_secret_variable(n)), "")
    if name:
        return [Finding("secrets", "high", command.text,
                        f"reads ${name}, an API key or token, from the environment")]
    return []


def _fed(words: list[str], command: Command, commands: list[Command]) -> list[str]:
    """The words xargs reads: every file under its folders when a find that picks no file
    prints them; the paths `ls`, `echo` or `printf` print."""
    feeder = next((c for c in commands if c.pipeline == command.pipeline
                   and c.position == command.position - 1), None)
    printed = find_output(feeder.words[1:]) if feeder and feeder.name == "find" else []
    if feeder and feeder.name in ("ls", "echo", "printf"):
        printed = [w for w in feeder.words[1:] if not w.startswith("-")]
    return [p for w in words for p in (printed if printed and w == MANY else [w])]


def _program(program: str, call: Call, downloaded: set[str]) -> list[Finding]:
    """Where the program itself comes from: decoded, downloaded, or known only at run time."""
    found: list[Finding] = []
    if DOWNLOADED in program or DECODED in program:
        fetched = DOWNLOADED in program
        found.append(call.finding("download-exec" if fetched else "obfuscated-exec", "high",
                                  "runs a command that comes from the network" if fetched
                                  else "runs code hidden by encoding"))
    elif UNKNOWN in program:
        wide = [a for a in call.args if paths.is_wide(a)]
        found.append(call.finding("dynamic", "high" if wide else "medium",
                                  "runs a command whose name is known only at run time"
                                  + (f", on {wide[0]}" if wide else "")))
    program = program.lstrip("./")
    if program in downloaded or any(d.endswith("/") and program.startswith(d) for d in downloaded):
        found.append(call.finding("download-exec", "high", "runs a program just downloaded"))
    if call.name in ("tar", "unzip", "bsdtar") and any(
            c.name in DOWNLOADERS for c in call.pipe if c.position < call.command.position):
        args = call.args
        folder = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-C", "-d")), ".")
        downloaded.add(folder.strip("./").rstrip("/") + "/")  # what it unpacks was fetched
    return found


def _interpreter(call: Call, downloaded: set[str]) -> list[Finding]:
    """A shell or interpreter: check the code it is given, and where that code comes from."""
    name, args, command = call.name, call.args, call.command
    language = interpreter_language(name)
    flag = {"shell": "-c", "python": "-c", "javascript": "-e"}.get(language, "")
    found: list[Finding] = []
    if name == "eval":
        found += call.scope.inner(" ".join(args), "shell")
    elif flag and flag in args and args.index(flag) + 1 < len(args):
        found += call.scope.inner(args[args.index(flag) + 1], language or "shell")
    feeders = [c for c in call.pipe if c.position < command.position]
    files = [a for a in args if not a.startswith("-")]
    reads_stdin = command.position > 0 and (name in SHELLS or not files)
    whole = " | ".join(c.text for c in call.pipe) if reads_stdin else call.part
    fed = command.reads  # a here-string or a file on stdin
    if ((reads_stdin and any(c.name in DOWNLOADERS or DOWNLOADED in c.text for c in feeders))
            or any(DOWNLOADED in r for r in fed)
            or any(DOWNLOADED in a for a in args)
            or any(a.lstrip("./") in downloaded for a in files)):
        found.append(Finding("download-exec", "high", whole, "runs code fetched from the network"))
    elif ((reads_stdin and any(c.name in DECODERS or DECODED in c.text
                               or is_encoded_text(c.text) for c in feeders))
            or any(DECODED in r for r in fed)
            or any(DECODED in a for a in args)):
        found.append(Finding("obfuscated-exec", "high", whole, "runs code hidden by encoding"))
    elif reads_stdin or (any(UNKNOWN in a for a in args[:1] + files[:1]) and name == "eval"):
        found.append(Finding("dynamic", "medium", whole, "runs code built at run time"))
    return found


def _download(call: Call, downloaded: set[str]) -> list[Finding]:
    """What a downloader fetches (to run later, maybe) and what it uploads."""
    args = call.args
    for i, arg in enumerate(args[:-1]):
        if arg in ("--output", "--output-document") or re.fullmatch(r"-\w*[oO]", arg):
            downloaded.add(args[i + 1].lstrip("./"))
    if call.name == "wget" and "-O" not in args:
        downloaded.update(a.rsplit("/", 1)[-1] for a in args if "://" in a)
    uploads = [a.split("@", 1)[1] for a in args if "@" in a and not a.startswith("http")
               and "://" not in a and (a.startswith("@") or "=@" in a)]
    for flag in ("-T", "--upload-file", "--post-file", "--body-file"):
        if flag in args and args.index(flag) + 1 < len(args):
            uploads.append(args[args.index(flag) + 1])
    uploads += [a.split("=", 1)[1] for a in args if a.startswith("--post-file=")]
    return sent(uploads, call)


def _packed_and_sent(commands: list[Command]) -> list[Finding]:
    """An archive or copy of the user's folders made, then sent over the network."""
    packed: set[str] = set()
    for command in commands:
        plain = [w for w in command.words[1:] if not w.startswith("-")]
        if command.name in ARCHIVERS and any(paths.normalise(w).startswith("~/") for w in plain):
            packed.update(w for w in plain if not paths.normalise(w).startswith("~/"))
        elif command.name in SENDERS and packed & {*command.words[1:], *command.reads,
                                                   *(w.split("@", 1)[-1] for w in command.words)}:
            return [Finding("exfiltration", "high", command.text,
                            "sends an archive of the user's own files over the network")]
    return []


def _braces(word: str) -> list[str]:
    """`dir/{a,b}` as the shell expands it (one level; enough to see what a path names)."""
    match = re.search(r"\{([^{}]*,[^{}]*)\}", word)
    if not match:
        return [word]
    head, tail = word[: match.start()], word[match.end() :]
    return [head + part + tail for part in match.group(1).split(",")]
