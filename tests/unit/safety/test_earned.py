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


@pytest.mark.parametrize(("language", "code", "effect"), [
    # failed: what the code does where it works, the preview never reached
    ("shell", "for f in ~/Documents/*.tex; do sed -i 's/a/b/' \"$f\"; done",
     Effect(exit_status=2, output="sed: can't read /home/ada/Documents/*.tex: No such file")),
    ("python", "import os\nos.rename('Reports', os.path.expanduser('~/.cache/r/x'))",
     Effect(exit_status=1, output="OSError: [Errno 18] Invalid cross-device link")),
    ("javascript", "require('fs').truncateSync('ledger.ods')",
     Effect(exit_status=1, output="Error: boom")),
])
def test_a_preview_that_failed_asks(language: str, code: str, effect: Effect) -> None:
    said = unearned(language, code, effect)
    assert said.startswith(f"its preview failed (exit status {effect.exit_status})")


@pytest.mark.parametrize("output", [
    "cat: /home/ada/.ssh/id_ed25519.pub: No such file or directory\ndone",
    "FileNotFoundError: [Errno 2] No such file or directory: 'notes.txt'",
    "Error: ENOENT: no such file or directory, open 'a.md'",
])
def test_a_preview_that_met_a_missing_file_asks_though_it_ended_well(output: str) -> None:
    said = unearned("shell", "cat ~/.ssh/id_ed25519.pub; echo done", Effect(exit_status=0,
                                                                          output=output))
    assert said.startswith("its preview met a missing file or folder")


def test_a_preview_that_ran_well_over_files_that_are_there_has_earned_it() -> None:
    shown = Effect(exit_status=0, output="notes.txt\n2 files", modified=("notes.txt",))
    assert unearned("shell", "sed -i 's/a/b/' notes.txt; ls | wc -l", shown) == ""


@pytest.mark.parametrize("code", [
    "awk -f tidy.awk notes.txt", "gawk -i inplace '{print toupper($0)}' notes.txt",
    "awk --include=lib.awk '{print}' x", "sed -f edits.sed notes.txt",
    "sed -nf edits.sed notes.txt", "mawk -f x.awk notes.txt",
])
def test_a_program_read_from_a_file_asks(code: str) -> None:
    assert "which can start other programs" in unearned("shell", code, SHOWN)


@pytest.mark.parametrize("code", ["awk -F, '{print $2}' a.csv", "sed -i 's/-/+/' a.txt"])
def test_awk_and_sed_given_their_program_inline_stay_known(code: str) -> None:
    assert unearned("shell", code, SHOWN) == ""


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
