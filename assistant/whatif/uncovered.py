"""What a what-if run cannot cover, told from the code and from what the run printed.

A preview has no network, no display and no devices, stops what the run leaves running,
and refuses writes outside home and the working folder (every other mount is read-only
there). Code that needs any of these does something else for real, so the preview says
which, instead of passing the difference off as the effect.
"""

from __future__ import annotations

import re

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
