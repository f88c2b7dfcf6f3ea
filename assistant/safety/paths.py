"""What a path means for safety: wide, system, secret, start-up (persistence) or protected.

Paths arrive normalised by the language checkers: the home folder is written `~`, and a
part only known at run time (a variable, an f-string field) is written `$?`.
"""

from __future__ import annotations

import os
import re

UNKNOWN = "$?"

SYSTEM_ROOTS = (
    "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/sys", "/proc",
    "/var", "/opt", "/root", "/dev", "/srv", "/snap",
)
HARMLESS_DEVICES = (
    "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/urandom",
    "/dev/random", "/dev/fd/", "/dev/shm",
)
WIDE = {
    "/", "~", "..", "/*", "~/*", "~/.*", "/home", "/home/*", "/*/*", "$?", "$?/", "$?/*",
    "~/..", "/.*", "/mnt", "/media", "~/$?", "/$?", "~/$?/*", "/$?/*",
} | set(SYSTEM_ROOTS) | {root + "/*" for root in SYSTEM_ROOTS}

SECRET = re.compile(
    r"(^|/)\.ssh(/|$)|id_(rsa|dsa|ecdsa|ed25519)|\.aws/credentials|(^|/)\.aws(/|$)|\.gnupg"
    r"|\.netrc|\.pgpass|keyrings?(/|$)|\.password-store|\.git-credentials|\.docker/config"
    r"|\.kube/config|/etc/(shadow|gshadow|sudoers)|\.mozilla/firefox|google-chrome|chromium"
    r"|BraveSoftware|Login Data|cookies\.sqlite|logins\.json|key[34]\.db|(^|/)Cookies$"
    r"|\.config/gh/hosts|\.pypirc|\.npmrc|kwallet|\.local/share/keyrings",
    re.IGNORECASE,
)
STARTUP = re.compile(
    r"(^|/)\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|xinitrc"
    r"|xprofile|xsessionrc|pam_environment)$|\.config/autostart|\.config/systemd|/etc/systemd"
    r"|/etc/cron|/var/spool/cron|/etc/init\.d|/etc/rc\.local|/etc/profile|/etc/environment"
    r"|/etc/xdg/autostart|LaunchAgents|LaunchDaemons|\.config/fish/config\.fish",
)


def normalise(path: str) -> str:
    """Collapse duplicate slashes and a trailing slash, keep `~` and `$?` markers."""
    path = re.sub(r"/+", "/", path.strip())
    path = re.sub(r"^\$\{?HOME\}?", "~", path)
    home = os.path.expanduser("~").rstrip("/")
    if home and (path == home or path.startswith(home + "/")):
        path = "~" + path[len(home):]
    path = re.sub(r"^/home/[^/]+/?(?=$|/)", "~", path) if path.count("/") >= 2 else path
    if len(path) > 1 and path.endswith("/"):
        path = path[:-1]
    return path or "."


def is_wide(path: str) -> bool:
    """A folder whose recursive removal loses the system, the home folder or everything."""
    path = normalise(path)
    return path in WIDE


def is_system(path: str) -> bool:
    path = normalise(path)
    if any(path == d or path.startswith(d) for d in HARMLESS_DEVICES):
        return False
    if path.startswith(("/var/tmp", "/tmp")):
        return False
    return any(path == root or path.startswith(root + "/") for root in SYSTEM_ROOTS)


def is_secret(path: str) -> bool:
    return SECRET.search(normalise(path)) is not None


def is_startup(path: str) -> bool:
    return STARTUP.search(normalise(path)) is not None


def is_protected(path: str, protected: tuple[str, ...]) -> bool:
    """Inside one of the assistant's own folders (config, profiles, journal)."""
    path = normalise(path)
    return any(p and (path == p or path.startswith(p.rstrip("/") + "/")) for p in protected)
