"""The system message's machine facts: what code written for this machine must know."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from assistant.loop.prompt import answer_in, machine_facts, system_message
from assistant.runtime.packages import KNOWN_PACKAGES


def test_the_facts_say_which_known_packages_the_python_runtime_has() -> None:
    line = next(line for line in machine_facts().splitlines() if line.startswith("Python packages"))
    have, missing = line.split("; not installed: ")
    for name in KNOWN_PACKAGES:
        present = importlib.util.find_spec(name) is not None
        assert (name in have.split(": ", 1)[1]) == present, name
        assert (name in missing) == (not present), name


def test_the_users_system_message_replaces_the_base_but_never_the_facts() -> None:
    message = system_message("Be terse.", "note")
    assert message.startswith("Be terse.\n\nOperating system: ")
    assert "Python packages besides the standard library" in message
    assert message.endswith("\n\nnote")


def test_a_request_in_another_language_asks_for_the_answer_in_it_in_one_short_line() -> None:
    assert answer_in("") == answer_in("en") == ""
    assert answer_in("fr") == "\n(Answer in French.)"
    assert answer_in("yo") == "\n(Answer in the language with ISO code yo.)"



def test_the_facts_name_the_working_directory_without_a_path_to_mangle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    facts = machine_facts()
    assert str(tmp_path) not in facts
    assert "Working directory: the current directory of every run" in facts
