"""Fixtures for what-if runs: a working folder with files, its exact contents, and a
preview driven to its end; real namespaces, overlays and runtimes throughout."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from assistant.runtime import Runtimes
from assistant.whatif.preview import Preview, finished, preview, problem


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    (work / "logs").mkdir(parents=True)
    (work / "notes.txt").write_text("first\n")
    (work / "logs" / "a.log").write_text("alpha\n")
    (work / "logs" / "b.log").write_text("beta\n")
    (work / "run.sh").write_text("echo hi\n")
    return work


@pytest.fixture
def runtimes(folder: Path) -> Iterator[Runtimes]:
    if problem():
        pytest.skip(problem())
    with Runtimes(timeout=20.0, cwd=str(folder)) as rt:
        yield rt


@pytest.fixture
def whatif(runtimes: Runtimes, isolated_dirs: Path) -> Callable[[str, str], Preview]:
    """Preview code in the working folder, hiding the test's config and data folders."""

    def _preview(language: str, code: str) -> Preview:
        return finished(preview(runtimes, language, code,
                                hidden=(str(isolated_dirs / "config"),
                                        str(isolated_dirs / "data"))))

    return _preview
