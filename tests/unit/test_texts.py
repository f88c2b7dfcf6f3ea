"""The catalogue of texts the model reads: every key the code names is there, every text
there is named by the code, and a missing key says where it was looked for."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from assistant.texts import CATALOGUE, _texts, text

PACKAGE = Path(__file__).resolve().parents[2] / "assistant"


def named_keys() -> set[str]:
    """The keys of every `text("...")` call in the package."""
    keys = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "text" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                keys.add(str(node.args[0].value))
    return keys


def test_every_key_the_code_names_is_in_the_catalogue_and_every_text_is_used() -> None:
    named = named_keys()
    assert named - _texts().keys() == set()
    assert _texts().keys() - named == set()


def test_a_missing_key_names_the_catalogue() -> None:
    with pytest.raises(KeyError, match=f"answer.nope is not in {CATALOGUE}"):
        text("answer.nope")
