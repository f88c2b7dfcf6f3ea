"""Runs inside a real bubblewrap sandbox: what they may write, what they may not touch, no
network when asked, and stops, limits and the stdin watch working as outside."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.config import Settings
from assistant.events import OutputChunk, RunEnd
from assistant.runtime import Runtimes
from assistant.runtime.sandbox import Sandbox
from assistant.runtime.watch import Limits
from tests.support.require import require


def require_sandbox() -> None:
    """Skip naming what this machine lacks, except in CI, where it must fail."""
    problem = Sandbox().problem()
    require(not problem, problem)


def run(runtimes: Runtimes, language: str, code: str, **options: float) -> RunEnd:
    events = list(runtimes.run(language, code, proposal_id="s", **options))
    assert all(isinstance(e, OutputChunk) for e in events[:-1])
    end = events[-1]
    assert isinstance(end, RunEnd)
    return end


@pytest.fixture
def work(tmp_path: Path) -> Path:
    require_sandbox()
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


def test_writes_land_only_in_the_writable_folder(work: Path, tmp_path: Path) -> None:
    """Home and system are read-only; the host's /tmp (here: `outside`) is not even seen."""
    outside = tmp_path / "outside"
    outside.mkdir()
    probe = str(Path.home() / f"assistant-sandbox-{os.getpid()}")
    with Runtimes(timeout=20, cwd=str(work), sandbox=Sandbox()) as runtimes:
        end = run(runtimes, "python", "open('made.txt', 'w').write('yes'); print('wrote')")
        assert end.exit_status == 0 and (work / "made.txt").read_text() == "yes"
        end = run(runtimes, "python", f"open({probe!r}, 'w')")
        assert end.exit_status == 1 and "Read-only file system" in end.output
        end = run(runtimes, "shell", f"echo sh > {work}/made.sh; touch /usr/probe; "
                                     f"touch {outside}/no.sh")
        assert "/usr/probe': Read-only file system" in end.output
        assert "no.sh': No such file or directory" in end.output
        assert (work / "made.sh").read_text() == "sh\n"
        end = run(runtimes, "javascript",
                  f"try {{ require('fs').writeFileSync({probe!r}, 'x') }} "
                  "catch (e) { console.log(e.code) }")
        assert end.output.strip() == "EROFS"
        private = f"assistant-sandbox-{os.getpid()}"
        end = run(runtimes, "shell", f"echo t > /tmp/{private} && cat /tmp/{private}")
        assert end.output == "t\n" and not Path("/tmp", private).exists()
    assert list(outside.iterdir()) == []
    assert not Path(probe).exists()


def test_config_profiles_journal_and_code_stay_read_only(work: Path) -> None:
    """Even inside the writable folder, the assistant's own files cannot be changed, and
    the folders holding them cannot be moved away to put others in their place."""
    config, data = work / "home" / ".config" / "assistant", work / "data"
    (config / "profiles").mkdir(parents=True)
    (config / "config.toml").write_text('approval = "ask"\n')
    data.mkdir()
    (data / "journal.db").write_bytes(b"journal")
    settings = Settings(config_dir=str(config), data_dir=str(data), sandbox="on")
    code = Path(__file__).resolve().parents[3] / "assistant" / "safety" / "policy.py"
    attempts = [config / "config.toml", config / "profiles" / "evil.toml",
                data / "journal.db", data / "journal.db-wal", code]
    program = "\n".join([
        "import os, sys",
        f"for path in {[str(p) for p in attempts]!r}:",
        "    try:",
        "        open(path, 'a').write('approval = \"auto\"')",
        "        print('CHANGED', path)",
        "    except OSError as error:",
        "        print('refused', error.strerror)",
        f"for path in {[str(config), str(config.parent), str(config.parent.parent)]!r}:",
        "    try:",
        f"        os.rename(path, {str(work / 'moved')!r})",
        "        print('MOVED', path)",
        "    except OSError as error:",
        "        print('stayed', error.strerror)",
        f"open({str(work / 'home' / 'notes')!r}, 'w').write('still writable')",
    ])
    with Runtimes(timeout=20, cwd=str(work), sandbox=Sandbox.from_settings(settings)) as rt:
        end = run(rt, "python", program)
    assert "CHANGED" not in end.output
    # The config folder is seen empty: its profiles folder is not even there.
    assert end.output.count("refused Read-only file system") == len(attempts) - 1
    assert end.output.count("refused No such file or directory") == 1
    assert "MOVED" not in end.output and end.output.count("stayed") == 3
    assert (work / "home" / "notes").read_text() == "still writable"
    assert (config / "config.toml").read_text() == 'approval = "ask"\n'
    assert (data / "journal.db").read_bytes() == b"journal"
    assert sorted(p.name for p in data.iterdir()) == ["journal.db"]


@pytest.fixture
def listener() -> Iterator[int]:
    """A TCP server on 127.0.0.1 that answers every connection with 'hello'."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.sendall(b"hello")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    server.close()


def test_network_off_means_no_connection_even_to_loopback(work: Path, listener: int) -> None:
    connect = (f"import socket\ns = socket.create_connection(('127.0.0.1', {listener}), "
               "timeout=3)\nprint(s.recv(5).decode())")
    with Runtimes(timeout=20, cwd=str(work), sandbox=Sandbox()) as runtimes:
        assert run(runtimes, "python", connect).output == "hello\n"  # the server does answer
    with Runtimes(timeout=20, cwd=str(work), sandbox=Sandbox(network=False)) as runtimes:
        end = run(runtimes, "python", connect)
        assert end.exit_status == 1 and "ConnectionRefusedError" in end.output
        end = run(runtimes, "shell", f"exec 3<>/dev/tcp/127.0.0.1/{listener} && echo CONNECTED")
        assert "CONNECTED" not in end.output and end.exit_status != 0


def test_interrupts_time_limit_and_stdin_watch_work_inside(work: Path) -> None:
    with Runtimes(timeout=20, cwd=str(work), sandbox=Sandbox()) as runtimes:
        run(runtimes, "python", "kept = 42")
        threading.Timer(0.5, runtimes.interrupt).start()
        end = run(runtimes, "python", "import time\ntime.sleep(30)")
        assert (end.interrupted, end.exit_status, end.restarted) == (True, 130, False)
        assert run(runtimes, "python", "print(kept)").output == "42\n"
        run(runtimes, "shell", "kept=yes")
        end = run(runtimes, "shell", "sleep 30; echo not reached", timeout=1.0)
        assert end.timed_out and not end.restarted and "not reached" not in end.output
        end = run(runtimes, "python", "input('name? ')")
        assert end.waiting_for_input and end.seconds < 3
        end = run(runtimes, "shell", "read answer; echo got $answer")
        assert end.waiting_for_input and "got" not in end.output
        assert run(runtimes, "shell", "echo $kept").output == "yes\n"


def test_process_limit_holds_and_the_next_run_starts_a_new_sandbox(work: Path) -> None:
    bomb = "for i in $(seq 30); do sleep 20 & done; wait"
    with Runtimes(timeout=20, cwd=str(work), sandbox=Sandbox(),
                  limits=Limits(processes=10)) as runtimes:
        started = time.monotonic()
        end = run(runtimes, "shell", bomb)
        assert end.limit == "processes" and time.monotonic() - started < 10
        again = run(runtimes, "shell", "echo still here; touch after")
        assert again.output == "still here\n" and (work / "after").exists()


def test_secrets_in_home_are_hidden(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hidden even when the home folder is inside a writable one (the host's /tmp is not
    seen in the sandbox, so this test's home lives there)."""
    home = work / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text("PRIVATE KEY")
    (home / ".netrc").write_text("machine x password secret")
    (home / "notes.txt").write_text("readable")
    (work / "gpg").mkdir()
    (work / "gpg" / "secring.gpg").write_text("KEY")
    (home / ".gnupg").symlink_to(work / "gpg")
    monkeypatch.setenv("HOME", str(home))
    code = ("import os\nprint(os.listdir(os.path.expanduser('~/.ssh')))\n"
            "print(os.listdir(os.path.expanduser('~/.gnupg')))\n"
            "print(repr(open(os.path.expanduser('~/.netrc')).read()))\n"
            "print(open(os.path.expanduser('~/notes.txt')).read())")
    with Runtimes(timeout=20, cwd=str(work), sandbox=Sandbox()) as runtimes:
        assert run(runtimes, "python", code).output == "[]\n[]\n''\nreadable\n"
    assert (home / ".ssh" / "id_ed25519").read_text() == "PRIVATE KEY"


def test_a_missing_writable_folder_is_refused_in_one_line(work: Path, tmp_path: Path) -> None:
    missing = tmp_path / "not-there"
    with Runtimes(timeout=20, cwd=str(work), sandbox=Sandbox([str(missing)])) as runtimes:
        end = run(runtimes, "python", "print(1)")
    assert end.exit_status is None
    assert f"sandbox_writable folder {missing} does not exist" in end.output
