"""The static check's general misses, fixed where the fix is general: functions passed as
values, child_process under any name, files found by find, and the false alarms."""

from __future__ import annotations

import pytest

from assistant.safety.risk import assess

DOCS = "os.path.expanduser('~/Documents')"


@pytest.mark.parametrize("code", [
    f"import functools, shutil, os\nfunctools.partial(shutil.rmtree, {DOCS})()",
    f"import os, glob\nlist(map(os.remove, glob.glob({DOCS} + '/*')))",
    f"import atexit, shutil, os\natexit.register(shutil.rmtree, {DOCS})",
    f"import threading, shutil, os\nthreading.Timer(0.2, shutil.rmtree, [{DOCS}]).start()",
    f"import threading, shutil, os\nthreading.Thread(target=shutil.rmtree, args=({DOCS},)).start()",
    "import os\nos.execvp('sh', ['sh', '-c', 'rm -rf ~/Documents'])",
])
def test_a_function_passed_as_a_value_is_judged_as_its_call(code: str) -> None:
    assert assess(code, "python").risk == "blocked"


def test_fileinput_in_place_writes_its_files() -> None:
    code = ("import fileinput, os\nfor line in fileinput.input([os.path.expanduser("
            "'~/.bashrc')], inplace=True):\n    print(line, end='')\n")
    assert "persistence" in assess(code, "python").families


@pytest.mark.parametrize("code", [
    "const child = require('child_process'); child.execSync('rm -rf ~/Documents')",
    "import * as k from 'node:child_process';\nk.exec('rm -rf ~/Documents')",
    "const { execSync: run } = require('child_process'); run('rm -rf ~/Documents')",
])
def test_child_process_under_any_name_is_read(code: str) -> None:
    assert assess(code, "javascript").risk == "blocked"


def test_find_exec_acts_on_the_files_found_under_its_folder() -> None:
    verdict = assess("find ~ -name '*.txt' -exec sed -i d {} +", "shell")
    assert verdict.risk == "high" and "anywhere in ~" in verdict.reasons[0]
    assert assess("find . -name '*.py' -exec grep -l TODO {} +", "shell").risk == "low"


@pytest.mark.parametrize("code", [
    "find ~/Downloads -name '*.tmp' -delete", "find ~/Downloads -type d -empty -delete",
    "find ~/Pictures -name 'Thumbs.db' -delete", "cat ~/.ssh/id_ed25519.pub",
    "cat ~/.ssh/config", "chmod 600 ~/.ssh/id_ed25519", "pkill firefox", "killall -9 vlc",
])
def test_former_false_alarms_are_medium_or_below(code: str) -> None:
    assert assess(code, "shell").risk in ("low", "medium")


@pytest.mark.parametrize("code", [
    "find ~ -name '*.tmp' -delete", "cat ~/.ssh/id_ed25519", "chmod 644 ~/.ssh/id_ed25519",
    "pkill -f python", "pkill -u bob", "killall -9 python3",
])
def test_their_wide_neighbours_still_alarm(code: str) -> None:
    assert assess(code, "shell").risk != "low"
