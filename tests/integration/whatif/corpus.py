"""The everyday preview corpus (tests/corpus/preview/everyday.json), written blind: each
entry's files laid out in a fresh folder, and that folder's exact contents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "preview" / "everyday.json"
ENTRIES: list[dict[str, Any]] = json.loads(CORPUS.read_text(encoding="utf-8"))


def lay_out(entry: dict[str, Any], folder: Path) -> None:
    """The entry's files and empty folders, in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for relative, text in entry["files"].items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for relative in entry.get("dirs", []):
        (folder / relative).mkdir(parents=True, exist_ok=True)


def as_sets(effect: dict[str, Any]) -> dict[str, Any]:
    """An effect's lists as sets, as the corpus is compared: order does not count."""
    return {"created": set(effect["created"]), "modified": set(effect["modified"]),
            "deleted": set(effect["deleted"]),
            "moved": {tuple(pair) for pair in effect["moved"]}, "exit": effect["exit"]}
