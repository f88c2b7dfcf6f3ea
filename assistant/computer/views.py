"""The screens shown to the LLM, kept as files so the session and the runtime agree.

`ASSISTANT_VIEW_DIR` (set by the session for its runtimes) holds view-NNNN.png, the
image the LLM gets, and view-NNNN.json: the viewport the image maps to and, once read,
the text map with its ids. Mouse coordinates and `click(id=...)` refer to the newest
view, whichever process took it. Without the variable a private temporary folder is used.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.computer.coords import DEFAULT_MAX_SIDE, Viewport

DIR_VARIABLE = "ASSISTANT_VIEW_DIR"
MAX_SIDE_VARIABLE = "ASSISTANT_SCREENSHOT_MAX_SIDE"

_private: list[Path] = []


@dataclass
class View:
    """One screen the LLM was (or will be) shown."""

    number: int
    viewport: Viewport
    image: Path | None = None
    items: list[dict[str, Any]] | None = None


def directory() -> Path:
    configured = os.environ.get(DIR_VARIABLE)
    if configured:
        path = Path(configured)
        path.mkdir(parents=True, exist_ok=True)
        return path
    if not _private:
        _private.append(Path(tempfile.mkdtemp(prefix="assistant-views-")))
    return _private[0]


def max_side() -> int:
    raw = os.environ.get(MAX_SIDE_VARIABLE, "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else DEFAULT_MAX_SIDE


def _numbers(folder: Path) -> list[int]:
    found = []
    for path in folder.glob("view-*.json"):
        stem = path.stem.removeprefix("view-")
        if stem.isdigit():
            found.append(int(stem))
    return sorted(found)


def latest(folder: Path | None = None) -> View | None:
    folder = folder or directory()
    numbers = _numbers(folder)
    return load(folder, numbers[-1]) if numbers else None


def since(folder: Path, after: int) -> list[View]:
    """Views numbered above `after`, oldest first: what the session has not attached yet."""
    return [load(folder, n) for n in _numbers(folder) if n > after]


def load(folder: Path, number: int) -> View:
    data = json.loads((folder / f"view-{number:04d}.json").read_text(encoding="utf-8"))
    image = folder / f"view-{number:04d}.png"
    return View(number, Viewport.from_dict(data["viewport"]),
                image if image.exists() else None, data.get("items"))


def save(viewport: Viewport, image: Any = None, items: list[dict[str, Any]] | None = None,
         folder: Path | None = None) -> View:
    """Write a new view; the JSON goes last, so a reader never sees half a view."""
    folder = folder or directory()
    numbers = _numbers(folder)
    number = numbers[-1] + 1 if numbers else 1
    path = None
    if image is not None:
        path = folder / f"view-{number:04d}.png"
        image.save(path, format="PNG", optimize=False, compress_level=1)
    record = {"viewport": viewport.to_dict(), "items": items}
    temporary = folder / f".view-{number:04d}.json"
    temporary.write_text(json.dumps(record), encoding="utf-8")
    temporary.replace(folder / f"view-{number:04d}.json")
    return View(number, viewport, path, items)


def update_items(view: View, items: list[dict[str, Any]], folder: Path | None = None) -> None:
    """Store the text map of a view, so ids given to the LLM resolve later."""
    folder = folder or directory()
    path = folder / f"view-{view.number:04d}.json"
    record = {"viewport": view.viewport.to_dict(), "items": items}
    temporary = path.with_name("." + path.name)
    temporary.write_text(json.dumps(record), encoding="utf-8")
    temporary.replace(path)
    view.items = items
