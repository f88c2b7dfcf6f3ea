"""A folder's exact contents, to show a run or a preview left it byte for byte as it was."""

from __future__ import annotations

import os
from pathlib import Path


def contents(root: Path) -> dict[str, tuple[str, bytes, int]]:
    """Every entry under `root`: kind, bytes (a link's target) and permission bits."""
    found: dict[str, tuple[str, bytes, int]] = {}
    for here, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(here, name)
            relative = str(path.relative_to(root))
            mode = path.lstat().st_mode & 0o7777
            if path.is_symlink():
                found[relative] = ("link", os.readlink(path).encode(), mode)
            elif path.is_dir():
                found[relative] = ("dir", b"", mode)
            else:
                found[relative] = ("file", path.read_bytes(), mode)
    return found
