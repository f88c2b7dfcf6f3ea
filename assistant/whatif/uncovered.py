"""What a what-if run cannot cover, told from the code and from what the run printed.

A preview has no network, no display and no devices, stops what the run leaves running,
and refuses writes outside home and the working folder (every other mount is read-only
there), and into a mount the kernel would not cover. Code that needs any of these does
something else for real, so the preview says which, instead of passing the difference
off as the effect.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from assistant.whatif.mounts import inside

NETWORK = "uses the network, which a preview cuts off"
DISPLAY = "uses the display, keyboard or mouse (computer.*), which a preview cannot reach"
DEVICES = "uses devices, which a preview leaves out"
READ_ONLY = ("writes outside home and the working folder (or beside the assistant's own "
             "folders), which a preview does not allow")

IN_CODE = (
    (NETWORK, re.compile(
        r"https?://|\b(?:urllib|requests|httpx|aiohttp|smtplib|ftplib|paramiko|websockets?)\b"
        r"|\bsocket\.|\bfetch\s*\(|require\(\s*['\"](?:https?|net|dgram|tls)['\"]\s*\)"
        r"|(?:^|[\s;|&(])(?:curl|wget|ssh|scp|rsync|ping|nc|telnet|ftp)\s"
        r"|\bgit\s+(?:clone|pull|push|fetch)\b|\bpip3?\s+install\b|\bnpm\s+(?:install|i)\b"
        r"|\bapt(?:-get)?\s+install\b", re.MULTILINE)),
    (DISPLAY, re.compile(r"\bcomputer\.|\b(?:xdotool|pyautogui|xclip|xsel|xdg-open|"
                         r"notify-send|wmctrl|ydotool)\b")),
    (DEVICES, re.compile(r"/dev/(?!null\b|zero\b|u?random\b|std(?:in|out|err)\b|fd/|tty\b|"
                         r"shm\b)[a-z]")),
)
IN_OUTPUT = (
    (NETWORK, re.compile(r"Network is unreachable|Temporary failure in name resolution|"
                         r"Name or service not known|Could not resolve host|ENOTFOUND|"
                         r"EAI_AGAIN|ENETUNREACH|getaddrinfo failed|Connection refused|"
                         r"ECONNREFUSED|\[Errno 111\]")),
    (READ_ONLY, re.compile(r"Read-only file system|EROFS")),
)


def reasons(code: str, output: str) -> list[str]:
    """What the preview of `code`, which printed `output`, could not cover."""
    found = [why for why, pattern in IN_CODE if pattern.search(code)]
    found += [why for why, pattern in IN_OUTPUT if pattern.search(output) and why not in found]
    return found


def refused_in(paths: list[str], output: str) -> bool:
    """Whether every write the preview refused (as `output` tells) was inside `paths`,
    the mounts it could not cover and names on their own."""
    lines = [line for line in output.splitlines() if IN_OUTPUT[1][1].search(line)]
    return bool(lines) and all(any(path in line for path in paths) for line in lines)


UNDEFINED = re.compile(r"ReferenceError: (\w+) is not defined")


def earlier_state(output: str) -> str:
    """Why a preview started without the live runtime's state says nothing, when it
    failed on a name an earlier run may have defined ("" when it did not): a JavaScript
    run's variables stay in its live process, and a preview starts a new one."""
    missing = UNDEFINED.search(output)
    if missing is None:
        return ""
    return (f"it uses {missing.group(1)}, which a preview cannot see if an earlier run "
            "defined it: previews start without the earlier runs' variables")


def left_running(names: list[str]) -> str:
    """The reason for processes the run left running (the preview stopped them)."""
    shown = ", ".join(sorted(set(names))[:3])
    return f"leaves processes running ({shown}), which a preview stops"


def left_later(names: list[str]) -> str:
    """The reason for code a Python run left to run later (threads, timers, exit hooks):
    the preview does not wait for it, and the real run's is stopped when it ends."""
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return f"leaves code to run later ({shown}), which a preview does not wait for"


def outside(paths: list[str]) -> str:
    """The reason for changes outside home and the working folder."""
    shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    return f"writes outside home and the working folder ({shown}), which a preview does not cover"


OWN_WRITE = "writes to the assistant's own files"
"""How the reason for a write into the assistant's own folders begins (a preview shows
them empty and lists what a run writes there)."""
SECRET_WRITE = "writes where keys and credentials are kept"
"""How the reason for a write into a hidden secrets folder (~/.ssh, ~/.gnupg ...) begins."""


def hidden_writes(paths: list[str], own: Sequence[str], home: str) -> list[str]:
    """The reasons for what a run wrote into the folders a preview hides: the
    assistant's own (`own`), then the secrets folders."""
    mine = [p for p in paths if any(inside(p, folder) for folder in own)]
    others = [p for p in paths if p not in mine]
    return [f"{start} ({_few([shown(p, home) for p in found])}), {end}"
            for start, found, end in ((OWN_WRITE, mine, "which no run may change"),
                                      (SECRET_WRITE, others, "which a preview shows empty"))
            if found]


def _few(paths: list[str]) -> str:
    return ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


BUSY = re.compile(r"Device or resource busy|EBUSY")


def beside(rebuilt: list[str], code: str, output: str, cwd: str, home: str) -> str:
    """The reason for an entry a run could not move or remove in a folder rebuilt around
    a mount (each folder in it is covered on its own and each file too large to copy is
    shown in place, so each is a mount point there); "" when the run met no such refusal.
    The folder named is the working one, or one the code or output names, when one of
    them was rebuilt."""
    if not rebuilt or not BUSY.search(output):
        return ""
    named = [path for path in rebuilt if path == cwd or f"{path}/" in code + output
             or (path != home and f"{shown(path, home)}/" in code + output)]
    places = ", ".join(shown(path, home) for path in (named or rebuilt)[:3])
    return (f"moves or removes an entry directly in {places}, which a preview cannot do "
            "beside the mounts there")


REACHES = "reaches "
"""How the reason for a mount the preview could not cover begins."""


def mount(path: str, kind: str, why: str, home: str) -> str:
    """The reason for a mount the preview could not cover, which the run reaches."""
    return (f"{REACHES}{shown(path, home)} ({kind}), which the preview does not cover "
            f"({why}): what it does there is not shown and cannot be undone")


def shown(path: str, home: str) -> str:
    """`path` as a person reads it: ~/... under their home."""
    return f"~{path[len(home):]}" if inside(path, home) else path


def reached(mounts: list[dict[str, str]], code: str, output: str, cwd: str,
            home: str) -> list[dict[str, str]]:
    """The uncovered `mounts` a run may reach: in or around its working folder `cwd`, or
    named (also as ~/...) in its code or what it printed; a file only when named."""
    found = []
    for mount in mounts:
        path = mount["path"]
        names = [re.escape(path), re.escape(shown(path, home))]
        if os.path.dirname(path) == cwd:
            names.append(r"(?:\./)?" + re.escape(os.path.basename(path)))
        around = not mount.get("file") and (inside(cwd, path) or inside(path, cwd))
        named = re.compile("|".join(rf"(?<![\w.~/-]){n}(?![\w.-])" for n in names))
        if around or named.search(code) or named.search(output):
            found.append(mount)
    return found
