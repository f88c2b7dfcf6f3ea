"""The screens shown to the LLM, kept as files so the session and the runtime agree.

`ASSISTANT_VIEW_DIR` (set by the session for its runtimes) holds view-NNNN.png, the
image the LLM gets, and view-NNNN.json: the viewport the image maps to and, once read,
the text map with its ids. Mouse coordinates refer to the newest view, whichever process
took it. An id names one thing for the whole conversation: a text or control read again
where it was keeps its id, anything new gets one never used before (ids.json), so an id
the model read in any map it was shown resolves (`click(id=...)`), even after a run read
the screen again. Without the variable a private temporary folder is used.
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


NEAR_PX = 24  # a text read again this close to where it was is the same text


def _key(item: dict[str, Any]) -> tuple[str, str]:
    return " ".join(str(item.get("text", "")).casefold().split()), str(item.get("role", ""))


def _ids(items: list[dict[str, Any]], folder: Path, numbers: list[int]) -> None:
    """Give `items` the ids they had in the latest maps (same text and role, about the
    same place), and new ones, above every id used before, to the rest."""
    earlier: dict[tuple[str, str], list[tuple[int, float, float]]] = {}
    for number in reversed(numbers[-4:]):
        for item in load(folder, number).items or []:
            x, y, w, h = item["box"]
            earlier.setdefault(_key(item), []).append((item["id"], x + w / 2, y + h / 2))
    counter = folder / "ids.json"
    highest = json.loads(counter.read_text()) if counter.exists() else 0
    taken: set[int] = set()
    for item in items:
        x, y, w, h = item["box"]
        same = [i for i, cx, cy in earlier.get(_key(item), ())
                if i not in taken and abs(cx - x - w / 2) + abs(cy - y - h / 2) <= NEAR_PX]
        if same:
            item["id"] = same[0]
        else:
            highest += 1
            item["id"] = highest
        taken.add(item["id"])
    counter.write_text(json.dumps(max([highest, *taken])))


def item(id: int, folder: Path | None = None) -> dict[str, Any] | None:
    """The item with this id in the newest map that has it: what the model was shown."""
    folder = folder or directory()
    for number in reversed(_numbers(folder)):
        for each in load(folder, number).items or []:
            if each["id"] == id:
                return each
    return None


def save(viewport: Viewport, image: Any = None, items: list[dict[str, Any]] | None = None,
         folder: Path | None = None) -> View:
    """Write a new view; the JSON goes last, so a reader never sees half a view. The
    items get their lasting ids (in place)."""
    folder = folder or directory()
    numbers = _numbers(folder)
    if items is not None:
        _ids(items, folder, numbers)
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
    """Store the text map of a view, so ids given to the LLM resolve later; the items
    get their lasting ids (in place)."""
    folder = folder or directory()
    _ids(items, folder, [n for n in _numbers(folder) if n != view.number])
    path = folder / f"view-{view.number:04d}.json"
    record = {"viewport": view.viewport.to_dict(), "items": items}
    temporary = path.with_name("." + path.name)
    temporary.write_text(json.dumps(record), encoding="utf-8")
    temporary.replace(path)
    view.items = items
