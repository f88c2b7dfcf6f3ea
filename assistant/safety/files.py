"""Findings about files, the same whichever language reaches them: writes (system, start-up,
keys, the assistant's own) and deletions (wide folders, every file under any folder, the rest)."""

from __future__ import annotations

import re

from assistant.safety import paths
from assistant.safety.findings import Finding

UNKNOWN = paths.UNKNOWN
DISK_DEVICE = re.compile(r"^/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper|md|loop|dm-)")


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
        elif target.endswith("/" + paths.EVERY):
            place = paths.normalise(root)
            place = "the current folder, wherever that is" if place == "." else place
            found.append(Finding("delete", "high", part, f"deletes every file under {place}"))
        elif target in ("*", ".", "./*", ".*") and recursive:
            found.append(Finding("delete", "high", part,
                                 "deletes everything in the current folder, wherever that is"))
        else:
            found.append(Finding("delete", "medium", part, "deletes files"))
    return found
