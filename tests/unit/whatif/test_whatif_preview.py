"""What-if runs in real user and mount namespaces, with real runtimes: the effect is
right, and the real files are untouched whatever the code does."""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from assistant.events import RunEnd
from assistant.runtime import Runtimes
from assistant.whatif.preview import Preview, finished
from tests.support.folders import contents

Whatif = Callable[[str, str], Preview]


def test_shell_edit_delete_and_move_into_a_new_folder_leave_the_folder_as_it_was(
        folder: Path, whatif: Whatif) -> None:
    before = contents(folder)
    result = whatif("shell", "echo second >> notes.txt; rm run.sh; mkdir old; "
                             "mv logs/*.log old/; chmod +x old/a.log; echo done")
    effect = result.effect
    assert result.problem == ""
    assert effect.created == ("old/",)
    assert effect.modified == ("notes.txt",)
    assert effect.deleted == ("run.sh",)
    assert effect.moved == (("logs/a.log", "old/a.log"), ("logs/b.log", "old/b.log"))
    assert effect.exit_status == 0 and effect.output == "done\n"
    assert contents(folder) == before


def test_a_rewrite_with_the_same_bytes_or_a_touch_is_no_change(folder: Path,
                                                                whatif: Whatif) -> None:
    effect = whatif("shell", "touch notes.txt; cp notes.txt /dev/stdout >/dev/null; "
                             "printf 'first\\n' > notes.txt").effect
    assert not effect.changes_files
    assert effect.summary == "Changes no files."


def test_python_preview_sees_the_live_variables_and_leaves_them_alone(
        folder: Path, runtimes: Runtimes, whatif: Whatif) -> None:
    list(runtimes.run("python", "answer = 41"))
    effect = whatif("python", "Path('answer.txt').write_text(str(answer + 1))\n"
                              "import shutil; shutil.rmtree('logs'); leaked = True").effect
    assert effect.created == ("answer.txt",)
    assert effect.deleted == ("logs/", "logs/a.log", "logs/b.log")
    *_, end = runtimes.run("python", "print(answer, 'leaked' in globals())")
    assert isinstance(end, RunEnd) and end.output == "41 False\n"
    assert not (folder / "answer.txt").exists()


def test_shell_preview_starts_from_the_live_shells_variables_functions_and_folder(
        folder: Path, runtimes: Runtimes, whatif: Whatif) -> None:
    list(runtimes.run("shell", "name=a.log; files=(a.log b.log); export KEEP=old\n"
                               "archive() { mkdir -p \"$KEEP\" && mv \"$@\" \"$KEEP\"/; }\n"
                               "set -o pipefail; cd logs"))
    effect = whatif("shell", 'archive "$name"; echo "${files[1]} $KEEP $(pwd)"\n'
                             "false | true").effect
    assert effect.moved == (("logs/a.log", "logs/old/a.log"),)
    assert effect.output == f"b.log old {folder}/logs\n"
    assert effect.exit_status == 1  # pipefail, set by the live shell
    *_, end = runtimes.run("shell", 'echo "$name $(pwd)"; ls')
    assert isinstance(end, RunEnd) and end.output == f"a.log {folder}/logs\na.log\nb.log\n"


def test_python_and_node_can_rename_a_folder_that_was_there_before(
        folder: Path, whatif: Whatif) -> None:
    for language, code in (("python", "os.rename('logs', 'old-logs')"),
                           ("javascript", "require('fs').renameSync('logs', 'old-logs')")):
        effect = whatif(language, code).effect
        assert effect.exit_status == 0, effect.output
        assert effect.moved == (("logs/", "old-logs/"), ("logs/a.log", "old-logs/a.log"),
                                ("logs/b.log", "old-logs/b.log"))
    assert (folder / "logs" / "a.log").read_text() == "alpha\n"


def test_no_network_no_secrets_no_display(folder: Path, whatif: Whatif, isolated_dirs: Path,
                                          monkeypatch: object) -> None:
    (isolated_dirs / "data" / "web-token").write_text("s3cret-token")
    os.environ["SERVICE_API_KEY"] = "k3y-value-123"
    try:
        with socket.socket() as server:
            server.bind(("127.0.0.1", 0))
            server.listen()
            port = server.getsockname()[1]
            code = (f"import socket, os\n"
                    f"try:\n    socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
                    f"    print('connected')\nexcept OSError as e:\n    print('no network:', e)\n"
                    f"print(os.environ.get('SERVICE_API_KEY'), os.environ.get('DISPLAY'))\n"
                    f"print(os.listdir({str(isolated_dirs / 'data')!r}))\n")
            effect = whatif("python", code).effect
    finally:
        del os.environ["SERVICE_API_KEY"]
    assert "no network:" in effect.output
    assert "None None" in effect.output
    assert "[]" in effect.output and "s3cret" not in effect.output
    assert any("network" in why for why in effect.unpreviewable)


def test_what_a_run_writes_into_the_assistants_own_folder_is_named_and_never_lands(
        folder: Path, whatif: Whatif, isolated_dirs: Path) -> None:
    config = isolated_dirs / "config" / "config.toml"
    config.write_text('approval = "ask"\n')
    code = (f"cat {config} 2>/dev/null || echo unseen; "
            f"mkdir -p {config.parent}/plugins && echo 'approval = \"auto\"' > {config}")
    effect = whatif("shell", code).effect
    assert effect.exit_status == 0 and "unseen" in effect.output  # shown empty, writable
    assert f"writes to the assistant's own files ({config}, {config.parent}/plugins/)" in \
        " | ".join(effect.unpreviewable)
    assert config.read_text() == 'approval = "ask"\n'
    assert not (config.parent / "plugins").exists()


def test_a_preview_signals_no_process_of_the_user_and_reaches_no_socket_under_run(
        folder: Path, whatif: Whatif) -> None:
    """A user namespace alone lets `kill` and `pkill` reach the user's real processes, and a
    read-only mount lets a connection to the session bus or the container engine through:
    the preview runs in a process namespace of its own, with /run emptied."""
    mark = f"sleep 60.{os.getpid()}"  # a command line no other process on this machine has
    sleeper = subprocess.Popen(mark.split())
    listening = Path("/run") / f"whatif-test-{os.getpid()}.sock"
    try:
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(str(listening))
            server.listen()
            server.settimeout(0)
            code = (f"kill -9 {sleeper.pid}; pkill -9 -f '{mark}'; ls /proc | grep -c '^[0-9]'\n"
                    f"python3 -c \"import socket; socket.socket(socket.AF_UNIX).connect("
                    f"'{listening}')\" 2>&1 | tail -1\n")
            output = whatif("shell", code).effect.output
            with pytest.raises(BlockingIOError):
                server.accept()
        assert sleeper.poll() is None, output
        assert "No such file or directory" in output
        assert int(output.split("\n")[1]) < 10  # its own processes, not the machine's
    finally:
        sleeper.kill()
        listening.unlink(missing_ok=True)


def test_code_cannot_unmount_the_overlay_to_reach_the_real_files(folder: Path,
                                                                  whatif: Whatif) -> None:
    before = contents(folder)
    code = ("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            "print('umount', libc.umount2(os.getcwd().encode(), 2))\n"
            "for root in ('/tmp', os.path.expanduser('~')):\n"
            "    libc.umount2(root.encode(), 2)\n"
            "open('notes.txt', 'w').write('overwritten')\n")
    effect = whatif("python", code).effect
    assert "umount -1" in effect.output
    assert effect.modified == ("notes.txt",)
    assert contents(folder) == before


def test_what_a_preview_cannot_cover_is_said(folder: Path, whatif: Whatif,
                                             tmp_path: Path) -> None:
    outside = Path("/tmp") / f"whatif-outside-{os.getpid()}"
    sleep = f"sleep 30.{os.getpid()}"  # a command line no other process on this machine has
    effect = whatif("shell", f"echo x > {outside}; ({sleep} &); echo y > /etc/whatif-test; "
                             "true").effect
    reasons = " | ".join(effect.unpreviewable)
    # on a busy machine the subshell may be caught before it has become `sleep`
    assert "leaves processes running (sleep)" in reasons or \
        "leaves processes running (bash)" in reasons
    assert str(outside) in reasons
    assert "writes outside home and the working folder (or beside the assistant's own folders)" \
        in reasons
    assert not outside.exists() and not Path("/etc/whatif-test").exists()
    left = subprocess.run(["pgrep", "-f", sleep], capture_output=True, text=True)
    assert left.stdout.strip() == ""
    display = whatif("python", "computer.screenshot()").effect
    assert any("computer" in why for why in display.unpreviewable)


def test_under_the_guard_the_overlay_goes_around_the_assistants_own_folders(
        folder: Path, isolated_dirs: Path) -> None:
    from assistant.runtime.sandbox import Sandbox
    from assistant.whatif.preview import preview

    own = (str(isolated_dirs / "config"), str(isolated_dirs / "data"))
    guard = Sandbox(guard=True, protected=own)
    if guard.problem():
        pytest.skip(guard.problem())
    before = contents(folder)
    with Runtimes(timeout=20.0, cwd=str(folder), sandbox=guard) as runtimes:
        list(runtimes.run("python", "kept = 'from the guarded runtime'"))
        effect = finished(preview(
            runtimes, "python",
            "os.rename('logs', 'old')\nPath('note.txt').write_text(kept)\n"
            f"open({str(isolated_dirs / 'beside.txt')!r}, 'w')")).effect
    assert effect.moved == (("logs/", "old/"), ("logs/a.log", "old/a.log"),
                            ("logs/b.log", "old/b.log"))
    assert effect.created == ("note.txt",)
    # beside them is written for real under the guard, and so in the preview (in /tmp here)
    assert any(str(isolated_dirs / "beside.txt") in why for why in effect.unpreviewable)
    assert contents(folder) == before and not (isolated_dirs / "beside.txt").exists()


def test_under_the_guard_a_shell_preview_starts_from_the_live_shells_state(
        folder: Path, isolated_dirs: Path) -> None:
    from assistant.runtime.sandbox import Sandbox
    from assistant.whatif.preview import preview

    guard = Sandbox(guard=True, protected=(str(isolated_dirs / "config"),))
    if guard.problem():
        pytest.skip(guard.problem())
    with Runtimes(timeout=20.0, cwd=str(folder), sandbox=guard) as runtimes:
        list(runtimes.run("shell", "kept='from the guarded shell'; cd logs"))
        effect = finished(preview(runtimes, "shell", 'printf %s "$kept" > note.txt')).effect
    assert effect.created == ("logs/note.txt",)
    assert not (folder / "logs" / "note.txt").exists()


def test_a_javascript_preview_failing_on_an_earlier_runs_variable_is_no_preview(
        folder: Path, runtimes: Runtimes, whatif: Whatif) -> None:
    """A preview starts a new node without the live one's variables: its failure on one
    says so, and is no failure the real run would have."""
    code = "require('fs').unlinkSync(target);"
    before = whatif("javascript", code)  # no live node yet: nothing earlier to lack
    assert before.problem == "" and before.effect.exit_status == 1
    list(runtimes.run("javascript", "var target = 'notes.txt';"))
    seen = whatif("javascript", code)
    assert "it uses target" in seen.problem and not seen.effect.deleted
    assert (folder / "notes.txt").read_text() == "first\n"
