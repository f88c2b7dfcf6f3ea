"""What each shell command does, by name: a table from command name to the rule that reads
its arguments. A name missing from the table is judged only by what every command shares
(redirections, key files named, data piped to the network)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from assistant.safety import desktop, paths
from assistant.safety.files import delete_findings, moved_away, own_read, write_findings
from assistant.safety.findings import Finding
from assistant.safety.shell_find import DELETERS, find_rule
from assistant.safety.shell_parse import DOWNLOADERS, UNKNOWN, Call, interpreter_language

MANY = UNKNOWN + "*"
"""What xargs appends: any number of words read at run time."""
DISK_TOOLS = ("mkfs", "mke2fs", "wipefs", "fdisk", "sfdisk", "parted", "gdisk", "sgdisk",
              "mkswap", "blkdiscard", "cryptsetup", "hdparm", "zpool")
SECRET_TOOLS = ("secret-tool", "gnome-keyring-daemon", "kwallet-query", "security", "pass",
                "keyring", "kwalletcli", "gopass", "lpass", "bw", "op")
RAW_NETWORK = ("nc", "ncat", "netcat", "socat", "telnet", "scp", "sftp", "ftp")
SENDERS = {"curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "scp", "sftp", "rsync",
           "ftp", "mail", "sendmail", "mutt", "http", "https", "ssh"}
KEY_USERS = {"ssh", "ssh-add", "ssh-keygen", "ssh-copy-id", "git", "ls", "stat", "test", "[",
             "mv", "rm", "shred", "chmod", "chown", "chgrp"}
SECURITY_UNITS = re.compile(r"firewalld|ufw|apparmor|auditd|selinux|fail2ban|nftables|iptables")
POWER = ("shutdown", "reboot", "poweroff", "halt", "telinit")
PACKAGE_TOOLS = ("pip", "pip3", "npm", "pnpm", "yarn", "apt", "apt-get", "dnf", "yum",
                 "pacman", "snap", "flatpak", "brew", "gem", "cargo", "conda", "pipx", "uv")
CHANGING = {"install", "uninstall", "remove", "purge", "add", "erase", "-S", "-R", "i"}
FIREWALLS = ("ufw", "iptables", "ip6tables", "nft", "setenforce", "aa-teardown", "aa-disable",
             "csrutil", "spctl")
READERS = {"cat", "tac", "head", "tail", "less", "more", "nl", "grep", "egrep", "fgrep", "rg",
           "strings", "base64", "base32", "xxd", "od", "hexdump", "cut", "sort", "uniq",
           "awk", "diff", "cmp", "jq", "tar", "zip", "7z", "gzip", "openssl", "source", "."}
"""Commands that print or pack the files they name."""
PLACED = {*DELETERS, *READERS, "find", "chmod", "chown", "chgrp", "chattr", "setfacl", "tee",
          "truncate", "touch", "sed", "perl", "cp", "mv", "install", "ln", "rsync", "sqlite3",
          "dd"}
"""Commands whose relative paths are read from the folder a `cd` before them went to."""


Rule = Callable[[Call], list[Finding]]


def findings_for(call: Call) -> list[Finding]:
    """The command's own rule, then what every command shares."""
    rule = RULES.get(call.name) or (_disk if call.name.startswith("mkfs.") else None)
    found = rule(call) if rule else []
    if call.name not in KEY_USERS and any(paths.is_secret(a) for a in call.args):
        found.append(call.finding("secrets", "high", "reads keys or credentials"))
    elif call.name in READERS:
        found += own_read([a for a in call.plain], call.part, call.scope.protected)
    elif call.name in desktop.EDITORS and any(paths.is_protected(a, call.scope.protected)
                                             for a in call.plain):
        found.append(call.finding("secrets", "medium", desktop.OPENS_OWN))
    if call.name in SENDERS - DOWNLOADERS and call.name not in (*RAW_NETWORK, "rsync"):
        found += sent([], call)
    return found


def sent(uploads: list[str], call: Call) -> list[Finding]:
    """Files or piped data a network command sends: secrets or the user's own files there
    are exfiltration."""
    before = [c for c in call.pipe if c.position < call.command.position]
    piped = [w for c in before for w in c.words[1:] + c.reads]
    dumps_env = any(c.name in ("env", "printenv", "set") and len(c.words) == 1 for c in before)
    reads = call.command.reads
    if any(paths.is_secret(u) for u in uploads + piped + reads) or dumps_env:
        return [call.finding("exfiltration", "high", "sends keys, credentials or the "
                             "environment over the network")]
    personal = [u for u in uploads + piped + reads
                if paths.normalise(u).startswith("~/") or paths.is_wide(u) or u == "/etc/passwd"]
    if personal:
        return [call.finding("exfiltration", "high",
                             f"sends {personal[0]}, the user's own files, over the network")]
    if uploads or reads:
        return [call.finding("network", "medium", "sends a file over the network")]
    return []


def _delete(call: Call) -> list[Finding]:
    return delete_findings(call.name, call.args, call.part, call.scope.protected)


def _dd(call: Call) -> list[Finding]:
    return [f for a in call.args if a.startswith("of=")
            for f in write_findings(a[3:], call.part, call.scope.protected)]


def _disk(call: Call) -> list[Finding]:
    return [call.finding("disk-write", "high", "formats or repartitions a disk")]


def _writes(call: Call) -> list[Finding]:
    """tee, truncate, touch; sed and perl editing in place."""
    plain = call.plain
    if call.name == "sed":
        if not any(a.startswith("-i") or a == "--in-place" for a in call.args):
            return []
        plain = plain[1:]
    return [f for target in plain for f in write_findings(target, call.part, call.scope.protected)]


def _perl(call: Call) -> list[Finding]:
    flags = [a for a in call.args if a.startswith("-")]
    if any(a.startswith("-i") or re.fullmatch(r"-\w*i\w*", a) for a in flags):
        return [f for target in call.plain[1:]
                for f in write_findings(target, call.part, call.scope.protected)]
    if any(a.startswith("-e") or a == "-E" for a in call.args):
        return _one_liner(call)
    return []


def _one_liner(call: Call) -> list[Finding]:
    """A perl or ruby one-liner: endless forks, and commands it builds from encoded text."""
    code = " ".join(call.args)
    if re.search(r"\bfork\b", code) and re.search(r"\bwhile\b|\bloop\b|\bfor\s*\(\s*;", code):
        return [call.finding("fork-bomb", "blocked", "starts copies of itself without end")]
    if re.search(r"\b(system|exec|qx)\b|`", code):
        if re.search(r"pack\s*\(|decode_base64|unpack|\.unpack|reverse|chr\s*\(", code):
            return [call.finding("obfuscated-exec", "high", "runs code hidden by encoding")]
        return [call.finding("dynamic", "medium", "runs commands from a one-line program")]
    return []


def _ruby(call: Call) -> list[Finding]:
    return _one_liner(call) if any(a.startswith("-e") for a in call.args) else []


def _copy(call: Call) -> list[Finding]:
    """cp, mv, install, ln, rsync: where it writes, and for mv what it takes away."""
    plain, protected = call.plain, call.scope.protected
    if call.name == "rsync" and any(a.startswith("--delete") for a in call.args) and plain and \
            paths.is_wide(plain[-1]):
        return [call.finding("wide-delete", "high",
                             f"deletes from {plain[-1]} whatever the source lacks")]
    if not plain:
        return []
    found = write_findings(plain[-1], call.part, protected)
    sources = plain[:-1]
    if call.name == "mv" and any(paths.is_protected(s, protected) for s in sources):
        found.append(call.finding("self-tamper", "high", "moves the assistant's own files away"))
    if call.name == "mv":
        found += moved_away(sources, plain[-1], call.part)
    if call.name == "rsync" and ":" in plain[-1]:
        found += sent(sources, call)
    return found


def _permissions(call: Call) -> list[Finding]:
    plain = call.plain
    mode, targets = (plain[0] if plain else ""), plain[1:]
    recursive = any(a in ("-R", "--recursive") or re.fullmatch(r"-\w*R\w*", a)
                    for a in call.args)
    wide = [t for t in targets if paths.is_wide(t)]
    found = [call.finding("wide-delete", "high", f"changes who may use everything in {wide[0]}")
             ] if wide and recursive else []
    if any(paths.is_system(t) or paths.is_wide(t) for t in targets):
        found.append(call.finding("privilege", "high", "changes permissions of system paths"))
    elif call.name == "chmod" and re.search(r"[+=][rwx]*s|^[4267]\d{3}$", mode):
        found.append(call.finding("privilege", "high", "sets a set-user-id bit"))
    if call.name == "chmod" and any(paths.is_secret(t) for t in targets) and re.search(
            r"^[0-7]?[0-7][1-7][0-7]$|^[0-7]?[0-7][0-7][1-7]$|[goa][^,]*\+|^\+|[goa]=[rwx]", mode):
        found.append(call.finding("secrets", "medium", "lets others read or use a key"))
    return found


def _packages(call: Call) -> list[Finding]:
    """Package tools (and npx-like runners): installing from a web address runs its code."""
    from_web = any(re.match(r"(https?|git\+\w+|ftp)://|git\+", a) for a in call.plain)
    if call.name in ("npx", "pnpx", "bunx", "uvx") or (call.name == "pipx" and "run" in call.args):
        if from_web:
            return [call.finding("download-exec", "high", "runs a package straight from a "
                                 "web address")]
        return []
    if not CHANGING & set(call.args):
        return []
    if from_web:
        return [call.finding("download-exec", "high",
                             "installs and runs code straight from a web address")]
    return [call.finding("install", "medium", "installs or removes software")]


def _sqlite(call: Call) -> list[Finding]:
    plain = call.plain
    if len(plain) > 1 and re.search(r"(?i)\b(delete|drop|update|insert|vacuum|replace|alter)\b",
                                    " ".join(plain[1:])):
        return write_findings(plain[0], call.part, call.scope.protected)
    return []


def _at(call: Call) -> list[Finding]:
    if "-l" in call.args or "-r" in call.args:
        return []
    return [call.finding("persistence", "high", "schedules a job to run later")]


def _settings(call: Call) -> list[Finding]:
    if call.args[:1] in (["set"], ["write"], ["reset"]) and re.search(
            r"lock-enabled|idle-delay|disable-lock|lock-delay|lockdown|automatic-updates"
            r"|screensaver", " ".join(call.args)):
        return [call.finding("security-off", "high", "turns the screen lock or updates off")]
    return []


def _dbus(call: Call) -> list[Finding]:
    said = " ".join(call.args)
    if re.search(r"org\.freedesktop\.secrets|/org/freedesktop/secrets|kwalletd|org\.kde\.kwallet",
                 said):
        return [call.finding("secrets", "high", "reads the keyring over D-Bus")]
    if re.search(r"login1|PowerOff|Reboot|Halt|Suspend|Hibernate", said) and re.search(
            r"PowerOff|Reboot|Halt|Suspend|Hibernate|Terminate|Kill", said):
        return [call.finding("power", "high", "shuts down or restarts the machine")]
    return []


def _loginctl(call: Call) -> list[Finding]:
    verb = call.args[:1]
    if verb in (["terminate-user"], ["kill-user"], ["terminate-session"], ["kill-session"]):
        return [call.finding("kill-many", "high", "ends every process of a log-in")]
    if verb in (["poweroff"], ["reboot"], ["suspend"], ["halt"]):
        return [call.finding("power", "high", "shuts down or restarts the machine")]
    return []


def _gpg(call: Call) -> list[Finding]:
    if any(a.startswith("--export-secret") for a in call.args):
        return [call.finding("secrets", "high", "exports private keys")]
    return []


def _crontab(call: Call) -> list[Finding]:
    if call.args == ["-l"]:
        return []
    return [call.finding("persistence", "high", "changes scheduled jobs")]


def _services(call: Call) -> list[Finding]:
    joined = " ".join(call.args)
    if re.search(r"\b(poweroff|reboot|halt|suspend|hibernate|kexec)\b", joined):
        return [call.finding("power", "high", "shuts down or restarts the machine")]
    if SECURITY_UNITS.search(joined) and re.search(r"\b(stop|disable|mask|kill)\b", joined):
        return [call.finding("security-off", "high", "turns protection off")]
    if re.search(r"\b(enable|load|defaults|add|link)\b", joined) or call.name in (
            "update-rc.d", "chkconfig"):
        return [call.finding("persistence", "high", "makes a service start by itself")]
    if re.search(r"\b(stop|restart|disable|mask|kill|start)\b", joined):
        return [call.finding("system-write", "medium", "changes running services")]
    return []


SIGNAL = re.compile(r"-(\d+|[A-Z]+|SIG[A-Z]+|e|x|-exact|-signal=\w+)")
"""Options of pkill and killall that choose a signal or exact names, not more processes."""


SESSION = re.compile(r"(?i)systemd.*|init|Xorg|Xwayland|gnome-\w+|plasmashell|kwin\w*|xfce\w*"
                     r"|dbus-\w+|pipewire\w*|pulseaudio|wireplumber|sshd?|login|sudo|perl"
                     r"|ruby|java|php|lua|assistant")
"""Programs whose every process is the session itself or many programs' interpreter."""


def _kill_by_name(call: Call) -> list[Finding]:
    """`pkill firefox`, `killall vlc`: every process of one program, by its plain name, is
    medium; a pattern over command lines (-f), a user's processes (-u), every process
    (killall5) or a name that is a pattern reaches many."""
    named = call.plain
    options = [a for a in call.args if a.startswith("-")]
    one = call.name in ("pkill", "killall") and len(named) == 1 and \
        re.fullmatch(r"[\w+.-]{2,}", named[0]) is not None and \
        all(SIGNAL.fullmatch(o) for o in options) and \
        not interpreter_language(named[0]) and SESSION.fullmatch(named[0]) is None
    if one:
        return [call.finding("kill-many", "medium", f"stops every {named[0]} process")]
    return [call.finding("kill-many", "high", "stops processes by name, maybe many")]


def _kill(call: Call) -> list[Finding]:
    args = call.args
    many = (bool(args) and args[-1] in ("-1", "0")) or MANY in args or call.command.loop > 0
    return [call.finding("kill-many", "high" if many else "medium",
                         "stops every process it can" if many else "stops a process")]


def _firewall(call: Call) -> list[Finding]:
    off = {"disable", "reset", "--flush", "-F", "-X", "ACCEPT", "0", "--master-disable",
           "flush", "allow"}
    if off & set(call.args) or call.name in ("aa-teardown", "aa-disable"):
        return [call.finding("security-off", "high", "turns protection off")]
    return []


def _power(call: Call) -> list[Finding]:
    if call.name == "init" and call.plain[:1] not in (["0"], ["6"]):
        return []
    return [call.finding("power", "high", "shuts down or restarts the machine")]


def _keyring(call: Call) -> list[Finding]:
    return [call.finding("secrets", "high", "reads the keyring or password store")]


def _environment(call: Call) -> list[Finding]:
    """env, printenv, and set, export -p, declare -p with nothing else: every variable."""
    named = [a for a in call.plain if re.fullmatch(r"[A-Za-z_]\w*", a)]
    if any(paths.is_secret_variable(a) for a in named):
        return [call.finding("secrets", "high", "prints an API key or token")]
    everything = not call.args if call.name == "set" else (
        call.args in ([], ["-p"], ["-x"], ["-px"]) if call.name in ("export", "declare", "typeset")
        else not call.plain)
    if not everything:
        return []
    kept = any(c.writes or re.search(r"(?i)key|token|secret|pass", c.text)
               for c in call.pipe if c.position >= call.command.position)
    return [call.finding("secrets", "high" if kept else "medium",
                         "collects API keys and tokens from the environment" if kept else
                         "prints every environment variable, API keys included")]


def _git(call: Call) -> list[Finding]:
    """git's own change of folder (`-C DIR`) before its command; `clean -f` deletes every
    file git does not track, so in a wide folder (home) it is a wide delete."""
    args, folder = call.args, call.scope.cwd
    while args[:1] and args[0].startswith("-"):
        if args[0] in ("-C", "-c", "--git-dir", "--work-tree", "--namespace") and len(args) > 1:
            folder = paths.within(folder, args[1]) if args[0] == "-C" else folder
            args = args[2:]
        else:
            folder = args[0].split("=", 1)[1] if args[0].startswith("--work-tree=") else folder
            args = args[1:]
    if args[:1] == ["config"] and _runs_later(args[1:]):
        return [call.finding("persistence", "high", "makes git run a command later "
                             f"({_runs_later(args[1:])})")]
    forced = any(a.startswith("-") and not a.startswith("--") and "f" in a for a in args)
    if args[:1] == ["clean"] and forced and paths.is_wide(folder or "."):
        return [call.finding("wide-delete", "high",
                             f"deletes every file git does not track in {folder}")]
    if args[:1] in (["clean"], ["reset"]) and ("--hard" in args or forced):
        return [call.finding("delete", "medium", "discards uncommitted work")]
    return []


GIT_RUNS = re.compile(
    r"(?i)^(core\.(hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy)|"
    r"sequence\.editor|diff\.external|diff\..*\.(textconv|command)|merge\..*\.driver|"
    r"filter\..*\.(clean|smudge|process)|credential(\..*)?\.helper|gpg(\..*)?\.program|"
    r"include(if)?\..*path|uploadpack\.packobjectshook|init\.templatedir|"
    r"(web|man)\..*\.cmd|pager\..*)$")
"""git settings whose value is a command git runs later (or a file of more settings)."""


def _runs_later(args: list[str]) -> str:
    """The setting of a `git config` that makes git run a command later ("" for none):
    an alias that starts with `!` is a shell command, and GIT_RUNS's keys name one."""
    if any(a.startswith(("--get", "--list", "--unset", "--remove")) or a == "-l" for a in args):
        return ""  # reading or taking a setting away
    plain = [a for a in args if not a.startswith("-")]
    for key, value in itertools.pairwise(plain):
        if GIT_RUNS.match(key) or (key.lower().startswith("alias.") and value.startswith("!")):
            return key
    return ""


def _raw_network(call: Call) -> list[Finding]:
    return sent(call.plain, call) or [
        call.finding("network", "medium", "opens a raw network connection")]


def _ps(call: Call) -> list[Finding]:
    """`ps e`, `ps auxe`: BSD-style options with `e` print each process's environment."""
    if any(not a.startswith("-") and re.fullmatch(r"[a-zA-Z]*e[a-zA-Z]*", a) for a in call.args):
        return [call.finding("secrets", "high", "prints processes' environments, API keys "
                             "included")]
    return []


ASSISTANT_QUIET = {"check", "history", "tools", "doctor", "models", "devices", "plugins",
                   "transcribe", "say", "--help", "-h", "--version"}
"""Subcommands of the assistant's own command that only look or report."""


def _assistant(call: Call) -> list[Finding]:
    """The assistant's own command: its page's address with the token and its stored keys
    are secrets; a conversation it starts decides approvals of its own."""
    plain = call.plain
    if plain[:1] == ["serve"] and {"--url", "--new-token"} & set(call.args):
        return [call.finding("secrets", "high", "prints or replaces the web page's token")]
    if plain[:1] == ["keys"] and plain[1:2] in (["set"], ["delete"]):
        return [call.finding("secrets", "high", "changes the assistant's stored API keys")]
    if set(call.args[:1]) & ASSISTANT_QUIET or plain[:2] == ["keys", "list"]:
        return []
    return [call.finding("dynamic", "medium", "starts the assistant itself, which decides "
                         "approvals of its own")]


def _history(call: Call) -> list[Finding]:
    if "-c" in call.args or "HISTFILE" in call.args:
        return [call.finding("security-off", "medium", "erases the shell history")]
    return []


def _table(*entries: tuple[tuple[str, ...], Rule]) -> dict[str, Rule]:
    return {name: rule for names, rule in entries for name in names}


RULES: dict[str, Rule] = _table(
    (DELETERS, _delete),
    (("find",), find_rule),
    (("dd",), _dd),
    (DISK_TOOLS, _disk),
    (("tee", "truncate", "touch", "sed"), _writes),
    (("perl",), _perl),
    (("ruby",), _ruby),
    (("cp", "mv", "install", "ln", "rsync"), _copy),
    (("chmod", "chown", "chgrp", "chattr", "setfacl"), _permissions),
    (("npx", "pnpx", "bunx", "uvx", *PACKAGE_TOOLS), _packages),
    (("sqlite3",), _sqlite),
    (("at", "batch"), _at),
    (("gsettings", "dconf"), _settings),
    (("dbus-send", "gdbus", "busctl", "qdbus"), _dbus),
    (("loginctl",), _loginctl),
    (("gpg",), _gpg),
    (("crontab",), _crontab),
    (("systemctl", "service", "update-rc.d", "chkconfig", "launchctl", "rc-update"), _services),
    (("killall", "pkill", "killall5", "skill", "slay"), _kill_by_name),
    (("kill",), _kill),
    (FIREWALLS, _firewall),
    ((*POWER, "init"), _power),
    (SECRET_TOOLS, _keyring),
    (("env", "printenv", "set", "export", "declare", "typeset"), _environment),
    (("ps",), _ps),
    (("assistant",), _assistant),
    (("git",), _git),
    (RAW_NETWORK, _raw_network),
    (("history", "unset"), _history),
)
