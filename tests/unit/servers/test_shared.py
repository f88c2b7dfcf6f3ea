"""The shared embedded server's bookkeeping: the runtime folder, the token and records,
without a model (tests/integration/llm/test_shared.py runs real servers)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.config import ConfigError, load_settings
from assistant.servers import embedded, shared
from assistant.servers.keepalive import Clock
from assistant.servers.started import Servers


def test_the_runtime_folder_and_the_token_are_the_users_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASSISTANT_RUNTIME_DIR", str(tmp_path / "run"))
    made = shared.token()
    assert len(made) >= 40 and shared.token() == made  # the same until the folder goes
    assert stat.S_IMODE((tmp_path / "run").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "run" / shared.TOKEN_FILE).stat().st_mode) == 0o600


def test_without_a_runtime_dir_it_is_xdg_runtime_dir_else_the_users_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ASSISTANT_RUNTIME_DIR")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "xdg"))
    assert shared.folder() == tmp_path / "xdg" / "assistant"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert shared.folder() == tmp_path / "cache" / "assistant" / "run"
    assert stat.S_IMODE(shared.folder().stat().st_mode) == 0o700


def test_an_open_runtime_folder_is_closed_and_one_of_another_user_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "run-open"
    folder.mkdir(mode=0o755)
    folder.chmod(0o777)
    monkeypatch.setenv("ASSISTANT_RUNTIME_DIR", str(folder))
    assert stat.S_IMODE(shared.folder().stat().st_mode) == 0o700
    if os.getuid() != 0:
        return  # only root can give a folder to someone else
    os.chown(folder, 65534, 65534)  # nobody
    with pytest.raises(embedded.EmbeddedError, match="belongs to another user"):
        shared.folder()


def record(pid: int, port: int) -> shared.Running:
    path = shared.record_path("smollm2-135m-instruct")
    path.write_text(json.dumps({"pid": pid, "port": port, "model": "smollm2-135m-instruct",
                                "path": "/m.gguf", "n_ctx": 4096, "keep_alive": 300,
                                "started": 1.0}))
    found = shared.read(path)
    assert found is not None
    return found


def test_a_record_of_a_dead_pid_or_of_a_pid_that_does_not_answer_is_stale() -> None:
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    assert shared.status(record(ended.pid, embedded.free_port())) is None
    # a live pid (this test's own) with nothing on the port: never trusted either
    assert shared.status(record(os.getpid(), embedded.free_port())) is None
    stale = record(ended.pid, embedded.free_port())
    assert shared.stop(stale) is False and not stale.record.exists()


def test_an_address_no_server_of_the_owners_is_at_is_left_as_it_is() -> None:
    servers = Servers()
    assert servers.ensure("http://127.0.0.1:9/v1") == "http://127.0.0.1:9/v1"
    assert servers.ensure("") == ""
    assert not servers.serves("http://127.0.0.1:9/v1")


def test_keep_alive_is_minus_one_zero_or_seconds() -> None:
    assert load_settings(env={}).embedded_keep_alive == 300
    assert load_settings(env={"ASSISTANT_EMBEDDED_KEEP_ALIVE": "-1"}).embedded_keep_alive == -1
    with pytest.raises(ConfigError, match="embedded_keep_alive must not be negative"):
        load_settings(env={"ASSISTANT_EMBEDDED_KEEP_ALIVE": "-2"})


def test_the_clock_expires_only_when_idle_and_never_at_minus_one() -> None:
    clock = Clock(0.0)
    clock.begin()
    assert not clock.expired() and clock.stops_at() is None  # a request in flight
    clock.end()
    assert clock.expired() and clock.stops_at() == clock.last_wall
    forever = Clock(-1)
    assert not forever.expired() and forever.stops_at() is None

