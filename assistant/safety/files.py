"""Findings about files, the same whichever language reaches them: writes (system, start-up,
keys, the assistant's own), deletions (wide folders, every file under any folder, the rest)
and moves (judged by where the files end up)."""

from __future__ import annotations

import re

from assistant.safety import paths
from assistant.safety.findings import Finding
from assistant.safety.runs_later import is_startup, runs_later

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
    later = runs_later(target)
    if later:
        found.append(Finding("persistence", "high", part,
                             f"writes {paths.normalise(target)}, {later}"))
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
        elif paths.is_system(target) or paths.is_secret(target) or is_startup(target):
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


def each_named(source: str, target: str) -> str:
    """Where a move or copy of each entry of a listing puts it: `B/NAME`, named after each
    source, is a file per source in the folder B, not every file already there."""
    if "*" in source and target.endswith("/*"):
        return target[:-2]
    return target


def moved_away(sources: list[str], target: str, part: str) -> list[Finding]:
    """A move judged by where the files end up: within home they are only moved; into
    nothing, or the whole of a wide folder out of home (another disk, a system or scratch
    folder, a place known only at run time), they are lost to the user."""
    wide = [s for s in sources if paths.is_wide(s)]
    if paths.normalise(target) == "/dev/null":
        return [Finding("wide-delete" if wide else "delete", "high", part,
                        "moves files into nothing, away for good")]
    if wide and paths.is_out_of_reach(target):
        return [Finding("wide-delete", "high", part,
                        f"moves all of {wide[0]} out of the home folder, to {target}")]
    return []


def own_read(targets: list[str], part: str, protected: tuple[str, ...]) -> list[Finding]:
    """The assistant's own files read: a whole folder of them may hold its web token; its
    settings may hold an API key (the token itself is a secret, said above)."""
    own = [t for t in targets if paths.is_protected(t, protected)]
    if any(t.endswith("*") or paths.normalise(t) in {paths.normalise(p) for p in protected}
           for t in own):
        return [Finding("secrets", "high", part, "reads every file of the assistant's own, "
                        "its web token among them")]
    if own:
        return [Finding("secrets", "medium", part,
                        "reads the assistant's own files (its settings may hold an API key)")]
    return []
