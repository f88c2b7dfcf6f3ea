"""What earns a low run going unasked under auto: known programs used in known ways, and
a preview that covered the run (the Effect here is what a preview reports)."""

from __future__ import annotations

import pytest

from assistant.events import Effect
from assistant.safety.earned import unearned

SHOWN = Effect(exit_status=0, summary="Changes no files.")


@pytest.mark.parametrize(("language", "code"), [
    ("shell", "ls -la ~/Downloads | sort | head -5"),
    ("shell", "for f in *.jpeg; do mv \"$f\" \"${f%.jpeg}.jpg\"; done"),
    ("shell", "awk -F, '{print $2}' data.csv | sort | uniq -c"),
    ("shell", "mkdir -p old && find . -name '*.log' -exec mv {} old/ \\;"),
    ("python", "import os, shutil\nfor n in os.listdir('.'):\n    print(n)"),
    ("python", "import csv, json\nfrom pathlib import Path\nprint(Path('a').read_text())"),
    ("python", "import subprocess\nprint(subprocess.run(['du', '-sh', '.'], capture_output=True))"),
    ("javascript", "const fs = require('fs');\nconsole.log(fs.readdirSync('.'))"),
])
def test_known_programs_used_in_known_ways_have_earned_it(language: str, code: str) -> None:
    assert unearned(language, code, SHOWN) == ""


@pytest.mark.parametrize(("language", "code", "said"), [
    ("shell", "busybox rm -rf ~/Documents", "busybox, which is not on the list"),
    ("shell", "awk 'BEGIN{system(\"rm -rf ~/Documents\")}'", "awk with `system(`"),
    ("shell", "sed -n '1e rm -rf x' notes.txt", "sed"),
    ("shell", "sh -c 'rm -rf x'", "starts sh"),
    ("shell", "find . -name '*.txt' -exec sh -c 'rm \"$1\"' _ {} \\;", "starts sh"),
    ("shell", "ls | xargs perl -e 'unlink @ARGV'", "starts perl"),
    ("shell", "python3 -c 'import shutil'", "starts python3"),
    ("shell", "tar --to-command='sh' -xf a.tar", "tar with"),
    ("shell", "$tool --now", "known only at run time"),
    ("python", "import threading\nthreading.Timer(1, print).start()", "threading"),
    ("python", "import atexit\natexit.register(print)", "atexit"),
    ("python", "import ctypes", "ctypes"),
    ("python", "exec(open('x.py').read())", "exec"),
    ("python", "import os\nos.fork()", "os.fork"),
    ("python", "import os\ngetattr(os, 'rem' + 'ove')('x')", "known only at run time"),
    ("javascript", "const c = require('child_process'); c.execSync('ls')", "child_process"),
    ("javascript", "const fs = require('fs'); fs[m]('x')", "name built at run time"),
    ("javascript", "process.on('exit', () => 1)", "process.on"),
])
def test_an_unknown_program_or_code_in_a_string_asks(language: str, code: str,
                                                     said: str) -> None:
    assert said in unearned(language, code, SHOWN)


def test_a_preview_that_did_not_cover_everything_asks() -> None:
    assert "not previewed" in unearned("shell", "ls", None)
    assert "urllib.request, which is not on the list" in unearned(
        "python", "import urllib.request", None)
    assert "uses the network" in unearned("shell", "ls http://x", None)
    uncovered = Effect(exit_status=0, unpreviewable=("leaves processes running (sleep)",))
    assert "leaves processes running" in unearned("shell", "ls", uncovered)
    missing = Effect(exit_status=127, output="sh: 1: gh: not found")
    assert "not installed here" in unearned("shell", "ls", missing)
    # a failure the real run meets too (the same files): nothing more to show
    failed = Effect(exit_status=2, output="ls: cannot access 'x'")
    assert unearned("shell", "ls x", failed) == ""


def test_changes_outside_the_working_folder_ask_unless_the_person_allowed_them() -> None:
    effect = Effect(exit_status=0, deleted=("/srv/shared/old.tmp",))
    assert "outside the working folder" in unearned("shell", "rm /srv/shared/old.tmp", effect)
    assert unearned("shell", "rm /srv/shared/old.tmp", effect, ("/srv/shared",)) == ""
    inside = Effect(exit_status=0, deleted=("old.tmp",))
    assert unearned("shell", "rm old.tmp", inside) == ""


def test_a_desktop_action_found_on_the_screen_still_asks() -> None:
    # what a press sets off in the program is not in any preview, though its aim is known
    aimed = Effect(exit_status=0, summary="Presses OK in the dialog 'Export'.",
                   desktop=("Presses OK in the dialog 'Export'",))
    assert "acts on the screen (Presses OK" in unearned("python", 'computer.press("OK")', aimed)
