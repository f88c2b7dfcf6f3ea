"""The session's own home: what a process started by a test finds, never the person's."""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("from assistant.config import default_config_dir, default_data_dir\n"
           "from assistant.servers import shared\n"
           "print(default_config_dir(), default_data_dir(), shared.folder(), sep='\\n')\n")


def test_a_child_finds_config_journal_and_the_shared_server_in_the_sessions_home(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """With no ASSISTANT_ folder set, as a daemon or server a module's tests share is
    started, a child looks for its config, its journal and the shared embedded server's
    record and token under the session's home (the server's runtime folder may be one a
    fixture of this session made, under its temporary folders): it can neither read nor stop
    the person's."""
    person = Path(pwd.getpwuid(os.getuid()).pw_dir).resolve()
    home = Path(os.environ["HOME"]).resolve()
    assert home != person
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("ASSISTANT_")}
    done = subprocess.run([sys.executable, "-c", FOLDERS], capture_output=True, text=True,
                          env={**env, "PYTHONPATH": str(ROOT)}, cwd=ROOT, timeout=60,
                          check=True)
    folders = [Path(line).resolve() for line in done.stdout.splitlines()]
    assert len(folders) == 3
    session = (home, tmp_path_factory.getbasetemp().resolve())
    assert all(folder.is_relative_to(home) for folder in folders[:2]), (home, folders)
    assert any(folders[2].is_relative_to(root) for root in session), (session, folders)
