"""What a path means for safety: wide, system, secret or protected (what runs later is
runs_later.py's).

Every comparison goes through `normalise`, on both sides: the home folder is written `~`
(however it was spelled), `..` is resolved, and a part only known at run time (a variable,
an f-string field) is written `$?`. A trailing `/*` means every entry of a folder, `/**`
every file under it (a recursive listing in a loop).
"""

from __future__ import annotations

import fnmatch
import functools
import itertools
import os
import posixpath
import re

UNKNOWN = "$?"
EVERY = "**"

SYSTEM_ROOTS = (
    "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/sys", "/proc",
    "/var", "/opt", "/root", "/dev", "/srv", "/snap",
)
HARMLESS_DEVICES = (
    "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/urandom",
    "/dev/random", "/dev/fd/", "/dev/shm",
)
WIDE = {"/", "~", "..", "/home", "/mnt", "/media", "/run/media", *SYSTEM_ROOTS}
"""Folders whose loss is the loss of the system, the home folder or everything."""
REGENERABLE = {".cache", ".npm", ".thumbnails", ".yarn", ".pnpm-store", ".gradle", ".m2",
               ".nuget", "tmp", ".tmp", ".Trash"}
"""Top-level folders of home that hold nothing a user would miss: caches and scratch."""
MOUNTED = re.compile(r"^/(mnt|media)/[^/]+$|^/(run/)?media/[^/]+/[^/]+$")

SECRET = re.compile(
    r"(^|/)\.ssh(/|$)|id_(rsa|dsa|ecdsa|ed25519)|\.aws/credentials|(^|/)\.aws(/|$)|\.gnupg"
    r"|\.netrc|\.pgpass|keyrings?(/|$)|\.password-store|\.git-credentials|\.docker/config"
    r"|\.kube/config|/etc/(shadow|gshadow|sudoers)|\.mozilla/firefox|google-chrome|chromium"
    r"|BraveSoftware|Login Data|cookies\.sqlite|logins\.json|key[34]\.db|(^|/)Cookies$"
    r"|\.config/gh/hosts|\.pypirc|\.npmrc|kwallet|\.local/share/keyrings"
    r"|(^|/)\.?web-token(\.\w+)?$|^/proc/[^/]+(/task/[^/]+)?/environ$",
    re.IGNORECASE,
)
"""Keys, credentials, browser profiles, the web page's token and processes' environments
(where API keys live)."""
PUBLIC = re.compile(r"(^|/)\.ssh/(config|known_hosts|[^/*?\[]+\.pub)$")
"""What of ~/.ssh is public or only says where to connect: a public key, the client's
settings, the hosts seen. Reading them gives nothing away (what writing to the settings
would run is runs_later's)."""
SECRET_WORDS = {"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS", "CREDENTIALS", "APIKEY",
                "PAT"}
SECRET_PAIRS = {("API", "KEY"), ("ACCESS", "KEY"), ("PRIVATE", "KEY"), ("AUTH", "KEY"),
                ("SECRET", "KEY")}


def _home() -> str:
    return _home_of(os.environ.get("HOME", ""))


@functools.lru_cache(maxsize=4)
def _home_of(variable: str) -> str:
    """The home folder for a value of HOME (worked out once per value: asked per path)."""
    return (variable or os.path.expanduser("~")).rstrip("/")


def normalise(path: str) -> str:
    """One spelling per place: `~` for home, no `..`, no doubled or trailing slash."""
    return _normalise(path, _home())


@functools.lru_cache(maxsize=4096)
def _normalise(path: str, home: str) -> str:
    path = re.sub(r"/+", "/", path.strip())
    path = re.sub(r"^(\$\{?HOME\}?|~[A-Za-z_][\w.-]*)(?=/|$)", "~", path)
    if path.startswith("~"):
        path = home + path[1:] if home else path
    if path.startswith("/"):
        path = posixpath.normpath(path)
        path = "/" + path.lstrip("/")
    elif path not in ("", "."):
        path = posixpath.normpath(path)
    if home and (path == home or path.startswith(home + "/")):
        path = "~" + path[len(home):]
    elif path.count("/") >= 2 or path.startswith("/home/"):
        path = re.sub(r"^/home/[^/]+(?=$|/)", "~", path)
    return path or "."


def _folder(path: str) -> str:
    """The folder a path stands for when it ends in "every entry" (`/*`, `/**`)."""
    while path.endswith(("/*", "/" + EVERY)):
        path = path.rsplit("/", 1)[0] or "/"
    return path


def is_wide(path: str) -> bool:
    """Home, a top-level folder of home, a mount point, `/` or a system root, or all
    the entries of one: what a user would lose wholesale."""
    folder = _folder(normalise(path))
    if folder in WIDE or folder in ("/*", "~/*", "~/.*", "/.*") or MOUNTED.match(folder):
        return True
    if folder.startswith("/") and (_home() + "/").startswith(folder.rstrip("/") + "/"):
        return True  # a folder holding home
    if folder.startswith("~/") and folder.count("/") == 1:
        name = folder[2:]
        return name not in REGENERABLE and not any(m in name for m in (UNKNOWN, "<var>")) \
            and "*" not in name.strip("*.")
    return folder in _mount_points()


@functools.lru_cache(maxsize=1)
def _mount_points() -> frozenset[str]:
    """Where file systems are mounted here, but for the kernel's own and the scratch ones."""
    try:
        with open("/proc/self/mounts", encoding="utf-8") as mounts:
            points = {line.split()[1].replace("\\040", " ") for line in mounts if line.strip()}
    except OSError:
        return frozenset()
    skip = ("/proc", "/sys", "/dev", "/run", "/tmp", "/var/tmp", "/snap")
    return frozenset(normalise(p) for p in points
                     if not any(p == s or p.startswith(s + "/") for s in skip))


def is_everything_under(path: str) -> bool:
    """Every entry or file of a wide folder (`~/*`, `/etc/**`), with no pattern that picks."""
    path = normalise(path)
    if path.endswith("/" + EVERY + "/" + UNKNOWN):
        path = path[: -len(UNKNOWN) - 1]
    return path.endswith(("/*", "/" + EVERY)) and is_wide(path)


def under_wide_listing(path: str) -> bool:
    """Files found by a recursive listing of a wide folder (`~/**/*.tmp`): each may be
    anywhere in it, so a change to them reaches the whole folder."""
    path = normalise(path)
    return ("/" + EVERY) in path and is_wide(path.split("/" + EVERY, 1)[0])


def is_system(path: str) -> bool:
    path = normalise(path)
    if any(path == d or path.startswith(d) for d in HARMLESS_DEVICES):
        return False
    if path.startswith(("/var/tmp", "/tmp")):
        return False
    return any(path == root or path.startswith(root + "/") for root in SYSTEM_ROOTS)


KNOWN_SECRETS = ("~/.local/share/assistant/web-token", "~/.ssh/id_rsa", "~/.ssh/id_ed25519",
                 "~/.ssh/id_ecdsa", "~/.aws/credentials", "~/.netrc", "~/.git-credentials",
                 "~/.pypirc", "~/.npmrc", "~/.pgpass", "~/.docker/config.json", "~/.kube/config",
                 "~/.config/gh/hosts.yml", "~/.local/share/keyrings/login.keyring",
                 "/etc/shadow", "/proc/self/environ")
"""Where keys and tokens usually are: a glob that could name one of them reads it."""


def is_secret(path: str) -> bool:
    """Keys, credentials and tokens (the SECRET patterns), also when a glob names them
    (`~/.local/share/assist*/web-tok*`)."""
    path = normalise(path)
    if PUBLIC.search(path) is not None:
        return False
    if SECRET.search(path) is not None:
        return True
    return any(c in path for c in "*?[") and any(_glob_names(path, known)
                                                 for known in KNOWN_SECRETS)


def _glob_names(pattern: str, path: str) -> bool:
    """Whether a shell glob matches a path: part by part, and a hidden name only when the
    glob's part starts with a dot too."""
    wanted, parts = pattern.split("/"), path.split("/")
    return len(wanted) == len(parts) and all(
        fnmatch.fnmatchcase(part, glob) and (glob.startswith(".") or not part.startswith("."))
        for glob, part in zip(wanted, parts, strict=True))


def is_protected(path: str, protected: tuple[str, ...]) -> bool:
    """Inside one of the assistant's own folders (config, profiles, journal), or one of
    the folders that hold them (moving `~/.config` away moves the config with it)."""
    path = _folder(normalise(path))
    for own in protected:
        own = normalise(own) if own else ""
        if own and (path == own or path.startswith(own + "/") or _holds(path, own)):
            return True
        # A relative path reaching it from a folder known only at run time (home, most
        # often): `.config/assistant/config.toml`, `../../.config/assistant`.
        if own.startswith("~/") and not path.startswith(("/", "~")) and \
                f"/{own[2:]}/" in f"/{path}/":
            return True
    return False


def _holds(folder: str, own: str) -> bool:
    """`folder` is a parent of `own` below home or a system root (not `/` or `~` itself:
    those are wide, and said so)."""
    return own.startswith(folder + "/") and folder not in ("~", "/", ".", "..") and (
        folder.startswith(("~/", "/")))


def is_secret_variable(name: str) -> bool:
    """An environment variable named like an API key, token or password
    (`OPENAI_API_KEY`, `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`; not `TOKENIZERS_PARALLELISM`)."""
    words = [w for w in re.split(r"[_\W]+", name.upper()) if w]
    return any(w in SECRET_WORDS for w in words) or any(
        pair in SECRET_PAIRS for pair in itertools.pairwise(words))


def within(cwd: str, path: str) -> str:
    """`path` as seen from the folder `cwd` (unchanged when it is absolute or `cwd` unknown)."""
    if not cwd or not path or path.startswith(("/", "~", "$")) or "://" in path:
        return path
    return f"{cwd.rstrip('/')}/{path}"


def is_out_of_reach(path: str) -> bool:
    """Where files moved to are lost to the user: nowhere (`/dev/null`), outside home (a
    mount point or removable drive, a system folder, scratch space cleared at restart),
    or a place known only at run time."""
    target = normalise(path)  # home is `~` now: what starts with `/` is outside it
    if target == "~" or target.startswith("~/"):
        return False  # in home, whatever the names (`~/Pictures/$?.jpg`)
    return target.startswith(("/", UNKNOWN + "/")) or target == UNKNOWN
