"""Risk rules for shell: each parsed command is judged by its name, flags and targets."""

from __future__ import annotations

import re

from assistant.safety import paths
from assistant.safety.risk import Finding
from assistant.safety.shell_parse import (
    DECODED,
    DECODERS,
    DOWNLOADED,
    DOWNLOADERS,
    UNKNOWN,
    Command,
    interpreter_language,
    is_encoded_text,
    parse,
)

# What xargs appends: any number of words read at run time.
MANY = UNKNOWN + "*"
FORK_BOMB = re.compile(r"([\w:.-]+)\s*\(\s*\)\s*\{([^}]*)\}")
ENDLESS = re.compile(r"\b(?:while|until)\s+(?:true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))\s*;?\s*do\b"
                     r"(.*?)\bdone\b", re.DOTALL)
SELF_AGAIN = re.compile(r"[\"']?\$(?:0|\{0\}|BASH_SOURCE)[\"']?\s*&(?!&)")
WRAPPERS = {"nohup", "time", "nice", "ionice", "exec", "command", "builtin", "stdbuf",
            "setsid", "timeout", "env", "watch", "strace", "chronic", "unbuffer", "xargs",
            "parallel", "flock"}
ELEVATE = {"sudo", "doas", "pkexec", "su", "runuser", "gksudo", "kdesu"}
DISK_TOOLS = {"mkfs", "mke2fs", "wipefs", "fdisk", "sfdisk", "parted", "gdisk", "sgdisk",
              "mkswap", "blkdiscard", "cryptsetup", "hdparm", "zpool"}
DISK_DEVICE = re.compile(r"^/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper|md|loop|dm-)")
SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish", "source", ".", "eval"}
SECRET_TOOLS = {"secret-tool", "gnome-keyring-daemon", "kwallet-query", "security", "pass"}
ARCHIVERS = {"zip", "tar", "7z", "rar", "gzip", "bzip2", "xz", "cp", "rsync"}
SENDERS = {"curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "scp", "sftp", "rsync",
           "ftp", "mail", "sendmail", "mutt", "http", "https", "ssh"}
KEY_USERS = {"ssh", "ssh-add", "ssh-keygen", "ssh-copy-id", "git", "ls", "stat", "test", "["}
SECURITY_UNITS = re.compile(r"firewalld|ufw|apparmor|auditd|selinux|fail2ban|nftables|iptables")
POWER = {"shutdown", "reboot", "poweroff", "halt", "telinit"}
PACKAGE_TOOLS = {"pip", "pip3", "npm", "pnpm", "yarn", "apt", "apt-get", "dnf", "yum",
                 "pacman", "snap", "flatpak", "brew", "gem", "cargo", "conda", "pipx", "uv"}
CHANGING = {"install", "uninstall", "remove", "purge", "add", "erase", "-S", "-R", "i"}


def check(code: str, protected: tuple[str, ...] = (), seen: set[str] | None = None,
          downloaded: set[str] | None = None) -> list[Finding]:
    """Findings for a shell script; `seen` collects the names of the commands it runs,
    `downloaded` the files fetched so far (a later run of one is download-exec)."""
    try:
        script = parse(code)
    except ValueError as exc:
        return [Finding("unparsed", "medium", code.strip().splitlines()[0] if code.strip() else "",
                        f"cannot be read as shell ({exc})")]
    found: list[Finding] = []
    for match in ENDLESS.finditer(code):
        if re.search(r"&(?!&)\s*(;|\n|$)", match.group(1)):
            found.append(Finding("fork-bomb", "blocked", match.group(0)[:80],
                                 "starts background processes in an endless loop"))
    again = SELF_AGAIN.findall(code)
    if len(again) >= 2:
        found.append(Finding("fork-bomb", "blocked", again[0], "starts copies of itself "
                             "without end"))
    for match in FORK_BOMB.finditer(code):
        name, body = re.escape(match.group(1)), match.group(2)
        if re.search(rf"{name}\s*\|\s*{name}|{name}\s*&", body):
            found.append(Finding("fork-bomb", "blocked", match.group(0),
                                 "starts copies of itself without end"))
    downloaded = set() if downloaded is None else downloaded
    found += _packed_and_sent(script.commands)
    cwd = ""
    for command in script.commands:
        if command.name == "cd":
            cwd = command.words[1] if len(command.words) > 1 else "~"
        found += _command(command, script.commands, protected, downloaded, seen, cwd)
    for language, inner in script.inner:
        if language == "shell":
            found += check(inner, protected, seen)
        elif language in ("python", "javascript"):
            from assistant.safety.risk import findings_for

            found += findings_for(inner, language, protected, seen)
    return found


def commands_run(code: str, language: str) -> set[str]:
    """Names of the shell commands a snippet runs (directly or through subprocess calls)."""
    from assistant.safety.risk import findings_for

    seen: set[str] = set()
    if language.lower() in ("shell", "bash", "sh", "zsh"):
        check(code, (), seen)
    else:
        findings_for(code, language, (), seen)
    return seen


def _unwrap(words: list[str], found: list[Finding], text: str) -> list[str]:
    """Drop assignments and wrappers (sudo, env, nohup, xargs, ...) down to the real command."""
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


def write_findings(target: str, part: str, protected: tuple[str, ...]) -> list[Finding]:
    """A file written or replaced: system files, start-up files, the assistant's own, keys."""
    if DISK_DEVICE.match(target):
        return [Finding("disk-write", "high", part, "writes straight onto a disk device")]
    found: list[Finding] = []
    if paths.is_everything_under(target):
        found.append(Finding("wide-delete", "high", part,
                             f"overwrites every file in {target.split('/' + paths.EVERY)[0]}"))
    elif paths.under_wide_listing(target):
        found.append(Finding("delete", "high", part, "overwrites files it finds anywhere in "
                             f"{target.split('/' + paths.EVERY)[0]}"))
    if paths.is_protected(target, protected):
        found.append(Finding("self-tamper", "high", part, "changes the assistant's own files"))
    if target.endswith("authorized_keys") or paths.is_startup(target):
        found.append(Finding("persistence", "high", part,
                             "changes what runs at log-in or start-up"))
    if paths.is_system(target):
        found.append(Finding("system-write", "high", part, "writes a system file"))
    elif paths.is_secret(target) and not found:
        found.append(Finding("secrets", "high", part, "overwrites keys or credentials"))
    return found


def delete_findings(
    name: str, args: list[str], part: str, protected: tuple[str, ...]
) -> list[Finding]:
    """A removal: wide folders, the assistant's own files, system and key files, the rest."""
    flags = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    recursive = "r" in flags.lower() or "--recursive" in args or name in ("shred", "srm")
    targets = [a for a in args if not a.startswith("-")] or ([UNKNOWN] if name == "rm" else [])
    found: list[Finding] = []
    for target in targets:
        root = target.split("/" + paths.EVERY)[0]
        if paths.is_everything_under(target):
            found.append(Finding("wide-delete", "high", part, f"deletes every file in {root}"))
        elif paths.under_wide_listing(target):
            found.append(Finding("delete", "high", part,
                                 f"deletes files it finds anywhere in {root}"))
        elif paths.is_wide(target) and (recursive or target.endswith("*")):
            found.append(Finding("wide-delete", "high", part, f"deletes all of {target}"))
        elif paths.is_protected(target, protected):
            found.append(Finding("self-tamper", "high", part, "deletes the assistant's own files"))
        elif paths.is_system(target) or paths.is_secret(target) or paths.is_startup(target):
            found.append(Finding("delete", "high", part, f"deletes {target}, a system or key file"))
        elif UNKNOWN in target and (recursive or target.endswith("*")):
            found.append(Finding("delete", "high", part,
                                 f"deletes {target}, a path known only at run time (all of / "
                                 "or ~ if it is empty)"))
        elif target in ("*", ".", "./*", ".*") and recursive:
            found.append(Finding("delete", "high", part,
                                 "deletes everything in the current folder, wherever that is"))
        else:
            found.append(Finding("delete", "medium", part, "deletes files"))
    return found


def _command(command: Command, commands: list[Command], protected: tuple[str, ...],
             downloaded: set[str], seen: set[str] | None, cwd: str = "") -> list[Finding]:
    found: list[Finding] = []
    part = command.text
    for target in command.writes:
        found += write_findings(target, part, protected)
    for source in command.reads:
        if paths.is_secret(source):
            found.append(Finding("secrets", "high", part, "reads keys or credentials"))
    words = _unwrap(list(command.words), found, part)
    if not words:
        return found
    name, args = words[0].rsplit("/", 1)[-1], words[1:]
    if interpreter_language(name) == "python" and args[:1] == ["-m"] and len(args) > 1:
        name, args = args[1], args[2:]  # `python -m pip install ...` is pip
    if seen is not None:
        seen.add(name)
    pipe = [c for c in commands if c.pipeline == command.pipeline]
    if name in SHELLS or interpreter_language(name):
        found += _interpreter(name, args, part, protected, seen, downloaded, pipe, command)
    if DOWNLOADED in words[0] or DECODED in words[0]:
        family = "download-exec" if DOWNLOADED in words[0] else "obfuscated-exec"
        found.append(Finding(family, "high", part, "runs a command that comes from the network"
                             if family == "download-exec" else "runs code hidden by encoding"))
    elif UNKNOWN in words[0]:
        wide = [a for a in args if paths.is_wide(a)]
        found.append(Finding("dynamic", "high" if wide else "medium", part,
                             "runs a command whose name is known only at run time"
                             + (f", on {wide[0]}" if wide else "")))
    program = words[0].lstrip("./")
    if program in downloaded or any(d.endswith("/") and program.startswith(d) for d in downloaded):
        found.append(Finding("download-exec", "high", part, "runs a program just downloaded"))
    if name in ("tar", "unzip", "bsdtar") and any(
            c.name in DOWNLOADERS for c in pipe if c.position < command.position):
        folder = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-C", "-d")), ".")
        downloaded.add(folder.strip("./").rstrip("/") + "/")  # what it unpacks was fetched
    if name in DOWNLOADERS:
        found += _download(name, args, part, downloaded, pipe, command)
    if cwd and name in ("rm", "shred", "find", "chmod", "chown"):
        args = [f"{cwd}/*" if a == MANY else a if a.startswith(("-", "/", "~", "$"))
                else f"{cwd}/{a}" for a in args]
    args = [b for a in args for b in _braces(a)]
    found += _rules(name, args, part, protected, pipe, command)
    return found


def _interpreter(name: str, args: list[str], part: str, protected: tuple[str, ...],
                 seen: set[str] | None, downloaded: set[str], pipe: list[Command],
                 command: Command) -> list[Finding]:
    """A shell or interpreter: check the code it is given, and where that code comes from."""
    from assistant.safety.risk import findings_for

    language = interpreter_language(name)
    flag = {"shell": "-c", "python": "-c", "javascript": "-e"}.get(language, "")
    found: list[Finding] = []
    if name == "eval":
        found += check(" ".join(args), protected, seen)
    elif flag and flag in args and args.index(flag) + 1 < len(args):
        found += findings_for(args[args.index(flag) + 1], language or "shell", protected, seen)
    feeders = [c for c in pipe if c.position < command.position]
    files = [a for a in args if not a.startswith("-")]
    reads_stdin = command.position > 0 and (name in SHELLS or not files)
    whole = " | ".join(c.text for c in pipe) if reads_stdin else part
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


def _download(name: str, args: list[str], part: str, downloaded: set[str],
              pipe: list[Command], command: Command) -> list[Finding]:
    found: list[Finding] = []
    for i, arg in enumerate(args[:-1]):
        if arg in ("--output", "--output-document") or re.fullmatch(r"-\w*[oO]", arg):
            downloaded.add(args[i + 1].lstrip("./"))
    if name == "wget" and "-O" not in args:
        downloaded.update(a.rsplit("/", 1)[-1] for a in args if "://" in a)
    uploads = [a.split("@", 1)[1] for a in args if "@" in a and not a.startswith("http")
               and "://" not in a and (a.startswith("@") or "=@" in a)]
    for flag in ("-T", "--upload-file", "--post-file", "--body-file"):
        if flag in args and args.index(flag) + 1 < len(args):
            uploads.append(args[args.index(flag) + 1])
    uploads += [a.split("=", 1)[1] for a in args if a.startswith("--post-file=")]
    found += _sent(uploads, part, pipe, command)
    return found


def _sent(uploads: list[str], part: str, pipe: list[Command], command: Command) -> list[Finding]:
    """Files or piped data a network command sends: secrets there are exfiltration."""
    before = [c for c in pipe if c.position < command.position]
    piped = [w for c in before for w in c.words[1:] + c.reads]
    dumps_env = any(c.name in ("env", "printenv", "set") and len(c.words) == 1 for c in before)
    if any(paths.is_secret(u) for u in uploads + piped + command.reads) or dumps_env:
        return [Finding("exfiltration", "high", part, "sends keys, credentials or the "
                        "environment over the network")]
    personal = [u for u in uploads + piped + command.reads
                if paths.normalise(u).startswith("~/") or paths.is_wide(u) or u == "/etc/passwd"]
    if personal:
        return [Finding("exfiltration", "high", part,
                        f"sends {personal[0]}, the user's own files, over the network")]
    if uploads or command.reads:
        return [Finding("network", "medium", part, "sends a file over the network")]
    return []


def _rules(name: str, args: list[str], part: str, protected: tuple[str, ...],
           pipe: list[Command], command: Command) -> list[Finding]:
    found: list[Finding] = []
    plain = [a for a in args if not a.startswith("-")]
    if name in ("rm", "shred", "srm", "unlink", "rmdir", "wipe"):
        found += delete_findings(name, args, part, protected)
    elif name == "find":
        roots = [a for a in args[: next((i for i, a in enumerate(args) if a.startswith("-")),
                                        len(args))]] or ["."]
        filtered = any(a in ("-name", "-iname", "-path", "-newer", "-mtime", "-size",
                             "-regex", "-user", "-empty", "-mmin", "-atime") for a in args)
        if "-delete" in args or any(a in ("-exec", "-execdir", "-ok") for a in args):
            inner = _find_exec(args)
            if "-delete" in args or (inner and inner[0].rsplit("/", 1)[-1] in ("rm", "shred")):
                wide = any(paths.is_wide(r) for r in roots)
                if wide and not filtered:
                    found.append(Finding("wide-delete", "high", part, f"deletes all of {roots[0]}"))
                else:
                    level = "high" if wide or any(paths.is_system(r) for r in roots) else "medium"
                    found.append(Finding("delete", level, part, f"deletes files found under "
                                         f"{' '.join(roots)}"))
            elif inner:
                every = roots[0] if filtered else f"{roots[0]}/{paths.EVERY}"
                found += check(" ".join(w if w != "{}" else every for w in inner), protected)
    elif name == "dd":
        for arg in args:
            if arg.startswith("of="):
                found += write_findings(arg[3:], part, protected)
    elif name in DISK_TOOLS or name.startswith("mkfs."):
        found.append(Finding("disk-write", "high", part, "formats or repartitions a disk"))
    elif name in ("tee", "truncate", "touch") or (name == "sed" and any(
            a.startswith("-i") or a == "--in-place" for a in args)):
        for target in plain[1:] if name == "sed" else plain:
            found += write_findings(target, part, protected)
    elif name == "rsync" and any(a.startswith("--delete") for a in args) and plain and \
            paths.is_wide(plain[-1]):
        found.append(Finding("wide-delete", "high", part,
                             f"deletes from {plain[-1]} whatever the source lacks"))
    elif name == "perl" and any(a.startswith("-i") or re.fullmatch(r"-\w*i\w*", a)
                                for a in args if a.startswith("-")):
        for target in plain[1:]:
            found += write_findings(target, part, protected)
    elif name in ("perl", "ruby") and any(a.startswith("-e") or a == "-E" for a in args):
        found += _one_liner(args, part)
    elif name in ("cp", "mv", "install", "ln", "rsync") and plain:
        found += write_findings(plain[-1], part, protected)
        if name == "mv" and any(paths.is_protected(s, protected) for s in plain[:-1]):
            found.append(Finding("self-tamper", "high", part,
                                 "moves the assistant's own files away"))
        if name == "mv" and (plain[-1] == "/dev/null" or any(paths.is_wide(s) for s in plain[:-1])):
            found.append(Finding("wide-delete" if any(paths.is_wide(s) for s in plain[:-1])
                                 else "delete", "high", part, "moves files away for good"))
        if name in ("rsync", "scp"):
            found += _sent([a for a in plain[:-1]], part, pipe, command) if ":" in plain[-1] else []
    elif name in ("chmod", "chown", "chgrp", "chattr", "setfacl"):
        mode = plain[0] if plain else ""
        targets = plain[1:]
        recursive = any(a in ("-R", "--recursive") or re.fullmatch(r"-\w*R\w*", a) for a in args)
        wide = [t for t in targets if paths.is_wide(t)]
        if wide and recursive:
            found.append(Finding("wide-delete", "high", part,
                                 f"changes who may use everything in {wide[0]}"))
        if any(paths.is_system(t) or paths.is_wide(t) for t in targets):
            found.append(Finding("privilege", "high", part, "changes permissions of system paths"))
        elif name == "chmod" and (re.search(r"[+=][rwx]*s|^[4267]\d{3}$", mode)):
            found.append(Finding("privilege", "high", part, "sets a set-user-id bit"))
    elif name in ("npx", "pnpx", "bunx", "uvx", "pipx") and any("://" in a for a in plain):
        found.append(Finding("download-exec", "high", part, "runs a package straight from a "
                             "web address"))
    elif name == "sqlite3" and len(plain) > 1 and re.search(
            r"(?i)\b(delete|drop|update|insert|vacuum|replace|alter)\b", " ".join(plain[1:])):
        found += write_findings(plain[0], part, protected)
    elif name in ("at", "batch") and "-l" not in args and "-r" not in args:
        found.append(Finding("persistence", "high", part, "schedules a job to run later"))
    elif name in ("gsettings", "dconf") and args[:1] in (["set"], ["write"], ["reset"]) and \
            re.search(r"lock-enabled|idle-delay|disable-lock|lock-delay|lockdown|automatic-updates"
                      r"|screensaver", " ".join(args)):
        found.append(Finding("security-off", "high", part, "turns the screen lock or updates off"))
    elif name in ("dbus-send", "gdbus", "busctl", "qdbus") and re.search(
            r"login1|PowerOff|Reboot|Halt|Suspend|Hibernate", " ".join(args)) and re.search(
            r"PowerOff|Reboot|Halt|Suspend|Hibernate|Terminate|Kill", " ".join(args)):
        found.append(Finding("power", "high", part, "shuts down or restarts the machine"))
    elif name == "loginctl" and args[:1] in (["terminate-user"], ["kill-user"],
                                                ["terminate-session"], ["kill-session"]):
        found.append(Finding("kill-many", "high", part, "ends every process of a log-in"))
    elif name == "loginctl" and args[:1] in (["poweroff"], ["reboot"], ["suspend"], ["halt"]):
        found.append(Finding("power", "high", part, "shuts down or restarts the machine"))
    elif name == "gpg" and any(a.startswith("--export-secret") for a in args):
        found.append(Finding("secrets", "high", part, "exports private keys"))
    elif name == "crontab" and args != ["-l"]:
        found.append(Finding("persistence", "high", part, "changes scheduled jobs"))
    elif name in ("systemctl", "service", "update-rc.d", "chkconfig", "launchctl", "rc-update"):
        found += _services(name, args, part)
    elif name in ("killall", "pkill", "killall5", "skill", "slay"):
        found.append(Finding("kill-many", "high", part, "stops processes by name, maybe many"))
    elif name == "kill":
        many = (bool(args) and args[-1] in ("-1", "0")) or MANY in args or command.loop > 0
        found.append(Finding("kill-many", "high" if many else "medium", part,
                             "stops every process it can" if many else "stops a process"))
    elif name in ("ufw", "iptables", "ip6tables", "nft", "setenforce", "aa-teardown",
                  "aa-disable", "csrutil", "spctl"):
        off = {"disable", "reset", "--flush", "-F", "-X", "ACCEPT", "0", "--master-disable",
               "flush", "allow"}
        if off & set(args) or name in ("aa-teardown", "aa-disable"):
            found.append(Finding("security-off", "high", part, "turns protection off"))
    elif name in POWER or (name == "init" and plain[:1] in (["0"], ["6"])):
        found.append(Finding("power", "high", part, "shuts down or restarts the machine"))
    elif name in PACKAGE_TOOLS and CHANGING & set(args) and any(
            re.match(r"(https?|git\+\w+|ftp)://|git\+", a) for a in plain):
        found.append(Finding("download-exec", "high", part,
                             "installs and runs code straight from a web address"))
    elif name in PACKAGE_TOOLS and CHANGING & set(args):
        found.append(Finding("install", "medium", part, "installs or removes software"))
    elif name in SECRET_TOOLS:
        found.append(Finding("secrets", "high", part, "reads the keyring or password store"))
    elif name in ("env", "printenv") and not plain:
        kept = any(c.writes or re.search(r"(?i)key|token|secret|pass", c.text)
                   for c in pipe if c.position >= command.position)
        found.append(Finding("secrets", "high" if kept else "medium", part,
                             "collects API keys and tokens from the environment" if kept else
                             "prints every environment variable, API keys included"))
    elif name == "git" and args[:1] in (["clean"], ["reset"]) and (
            "--hard" in args or any(a.startswith("-") and "f" in a for a in args)):
        found.append(Finding("delete", "medium", part, "discards uncommitted work"))
    elif name in ("nc", "ncat", "netcat", "socat", "telnet", "scp", "sftp", "ftp"):
        found += _sent(plain, part, pipe, command) or [
            Finding("network", "medium", part, "opens a raw network connection")]
    elif name in ("history", "unset") and ("-c" in args or "HISTFILE" in args):
        found.append(Finding("security-off", "medium", part, "erases the shell history"))
    if name not in KEY_USERS and name not in ("mv", "rm", "shred") and any(
            paths.is_secret(a) for a in args):
        found.append(Finding("secrets", "high", part, "reads keys or credentials"))
    if name in SENDERS - DOWNLOADERS and name not in ("nc", "ncat", "netcat", "socat", "telnet",
                                                        "scp", "sftp", "ftp", "rsync"):
        found += _sent([], part, pipe, command)
    return found


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


def _one_liner(args: list[str], part: str) -> list[Finding]:
    """A perl or ruby one-liner: endless forks, and commands it builds from encoded text."""
    code = " ".join(args)
    if re.search(r"\bfork\b", code) and re.search(r"\bwhile\b|\bloop\b|\bfor\s*\(\s*;", code):
        return [Finding("fork-bomb", "blocked", part, "starts copies of itself without end")]
    if re.search(r"\b(system|exec|qx)\b|`", code):
        if re.search(r"pack\s*\(|decode_base64|unpack|\.unpack|reverse|chr\s*\(", code):
            return [Finding("obfuscated-exec", "high", part, "runs code hidden by encoding")]
        return [Finding("dynamic", "medium", part, "runs commands from a one-line program")]
    return []


def _find_exec(args: list[str]) -> list[str]:
    for flag in ("-exec", "-execdir", "-ok"):
        if flag in args:
            rest = args[args.index(flag) + 1 :]
            end = next((i for i, a in enumerate(rest) if a in (";", "+", "\\;")), len(rest))
            return rest[:end]
    return []


def _services(name: str, args: list[str], part: str) -> list[Finding]:
    joined = " ".join(args)
    if re.search(r"\b(poweroff|reboot|halt|suspend|hibernate|kexec)\b", joined):
        return [Finding("power", "high", part, "shuts down or restarts the machine")]
    if SECURITY_UNITS.search(joined) and re.search(r"\b(stop|disable|mask|kill)\b", joined):
        return [Finding("security-off", "high", part, "turns protection off")]
    if re.search(r"\b(enable|load|defaults|add|link)\b", joined) or name in ("update-rc.d",
                                                                          "chkconfig"):
        return [Finding("persistence", "high", part, "makes a service start by itself")]
    if re.search(r"\b(stop|restart|disable|mask|kill|start)\b", joined):
        return [Finding("system-write", "medium", part, "changes running services")]
    return []
