"""The guard, the default: runs see and change the system as without it, but never the
assistant's own config, profiles, journal or code, whatever the risk check made of them,
and they see its config and data folders empty but for the models."""

from __future__ import annotations

import os
from pathlib import Path

from assistant.config import Settings
from assistant.runtime import Runtimes
from assistant.runtime.sandbox import Sandbox
from tests.unit.runtime.test_sandbox import run, work

__all__ = ["work"]


def guard_settings(work: Path) -> Settings:
    config, data = work / "home" / ".config" / "assistant", work / "home" / ".local" / "data"
    (config / "profiles").mkdir(parents=True)
    (config / "config.toml").write_text('approval = "ask"\n')
    data.mkdir(parents=True)
    (data / "journal.db").write_bytes(b"journal")
    return Settings(config_dir=str(config), data_dir=str(data))


def test_own_files_are_read_only_and_everything_else_is_as_it_was(work: Path) -> None:
    settings = guard_settings(work)
    assert settings.sandbox == "guard"
    sandbox = Sandbox.from_settings(settings)
    assert sandbox is not None and sandbox.guard
    config, data = settings.config_path, settings.data_path
    own = [str(config / "config.toml"), str(config / "profiles" / "x.toml"),
           str(data / "journal.db")]
    program = "\n".join([
        "import os",
        f"for path in {own!r}:",
        "    try:",
        "        open(path, 'a').write('approval = \"auto\"')",
        "        print('CHANGED', path)",
        "    except OSError as error:",
        "        print('refused', error.strerror)",
        f"for path in {[str(config), str(config.parent)]!r}:",
        "    try:",
        f"        os.rename(path, {str(work / 'moved')!r})",
        "        print('MOVED', path)",
        "    except OSError as error:",
        "        print('stayed', error.strerror)",
        f"open({str(work / 'notes')!r}, 'w').write('written')",
        f"open('/tmp/guard-{os.getpid()}', 'w').write('shared /tmp')",
        f"print('parent seen', os.path.exists('/proc/{os.getpid()}'))",
    ])
    with Runtimes(timeout=20, cwd=str(work), sandbox=sandbox) as runtimes:
        end = run(runtimes, "python", program)
        shell = run(runtimes, "shell", "echo $$ > pid.txt; id -u")
    assert "CHANGED" not in end.output and "MOVED" not in end.output
    # The config folder is seen empty: its profiles folder is not even there.
    assert end.output.count("refused Read-only file system") == 2
    assert end.output.count("refused No such file or directory") == 1
    assert end.output.count("stayed") == 2
    assert "parent seen True" in end.output  # the same processes: no namespace of its own
    assert (work / "notes").read_text() == "written"
    shared = Path(f"/tmp/guard-{os.getpid()}")
    assert shared.read_text() == "shared /tmp"
    shared.unlink()
    assert shell.output.strip() == str(os.getuid())
    assert (config / "config.toml").read_text() == 'approval = "ask"\n'
    assert (data / "journal.db").read_bytes() == b"journal"


def test_interrupt_and_limits_reach_the_guarded_interpreter(work: Path) -> None:
    sandbox = Sandbox.from_settings(guard_settings(work))
    with Runtimes(timeout=2, cwd=str(work), sandbox=sandbox) as runtimes:
        slow = run(runtimes, "python", "import time\ntime.sleep(30)")
        after = run(runtimes, "python", "print('next run', 6 * 7)")
    assert slow.timed_out
    assert "next run 42" in after.output


def test_the_config_and_data_folders_are_seen_empty_but_for_the_models(work: Path) -> None:
    """What the folders hold (a key in the config, the web token) is not there for a run,
    even when the token is made or replaced while the runtime lives on."""
    settings = guard_settings(work)
    config, data = settings.config_path, settings.data_path
    (config / "config.toml").write_text('api_key = "sk-in-the-config-0123456789"\n')
    (settings.models_path / "voice").mkdir(parents=True)
    (settings.models_path / "voice" / "model.onnx").write_text("weights")
    look = (f"import os; print(sorted(os.listdir({str(config)!r})), "
            f"sorted(os.listdir({str(data)!r})), "
            f"open({str(settings.models_path / 'voice' / 'model.onnx')!r}).read()); "
            f"print(os.path.exists({str(data / 'web-token')!r}))")
    with Runtimes(timeout=20, cwd=str(work), sandbox=Sandbox.from_settings(settings)) as rt:
        before = run(rt, "python", look)
        (data / "web-token").write_text("the-web-token-made-later\n")
        after = run(rt, "python", look)
    assert before.output == "[] ['models'] weights\nFalse\n"
    assert after.output == before.output
