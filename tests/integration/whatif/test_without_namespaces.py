"""Where the kernel refuses user namespaces (here: max_user_namespaces set to 0 in a
namespace of the test's own, a real refusal), previews say why in one line, runs go
on as before and say once that they cannot be undone, and doctor shows it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.conftest import ROOT, cli_args
from tests.support.llm_server import LLMServer, text, tool_call

NO_NAMESPACES = "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$@\""


def refused(args: list[str], folder: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The assistant in a namespace whose kernel allows no further user namespaces."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed")
    return subprocess.run(["unshare", "-rm", "sh", "-c", NO_NAMESPACES, "sh", sys.executable,
                           *args], input=stdin, capture_output=True, text=True, cwd=folder,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=180)


def test_preview_says_why_it_cannot_and_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.log").write_text("a")
    result = refused(["-m", "assistant.cli", "preview", "--json", "-l", "shell", "-"],
                     tmp_path, stdin="rm a.log")
    assert result.returncode == 1
    effect = json.loads(result.stdout)
    said = effect["unpreviewable"][0]
    assert said.startswith("previews need user namespaces, which this system allows none of")
    assert "sysctl -w user.max_user_namespaces=" in said
    assert (tmp_path / "a.log").read_text() == "a"


def test_unpreviewed_runs_ask_even_under_y_and_say_once_why(tmp_path: Path) -> None:
    """Where no preview can be made, nothing shows a run is harmless: -y runs it only with
    a person's yes (here there is no terminal to give one), and says why in one line."""
    with LLMServer([tool_call("shell", "echo made > made.txt"), text("Done.")]) as server:
        result = refused(cli_args(server, "-y", "make a file"), tmp_path)
    said = " ".join(result.stdout.split())
    assert result.returncode == 0, result.stderr
    assert said.count("runs are not previewed and cannot be undone") == 1
    assert "it was not previewed, so nothing shows what it does" in said
    assert not (tmp_path / "made.txt").exists()


def test_doctor_shows_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the session's buses are not this test's: libatspi aborted doctor (SIGTRAP) when the
    # accessibility bus it was pointed at could not be reached from the namespace
    for name in ("DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"):
        monkeypatch.delenv(name, raising=False)
    result = refused(["-m", "assistant.cli", "doctor", "--json"], tmp_path)
    assert result.stdout.startswith("["), (result.returncode, result.stderr)
    checks = {c["component"]: c for c in json.loads(result.stdout)}
    assert checks["preview and undo"]["ok"] is False
    assert "user namespaces" in checks["preview and undo"]["detail"]
    assert checks["preview and undo"]["fix"].startswith("sysctl -w user.max_user_namespaces=")
