"""A move is not a delete: it is judged by where the files end up. Within home nothing is
lost; a wide folder moved out of home (another disk, a system or scratch folder, nowhere)
is wide-delete."""

from __future__ import annotations

import pytest

from assistant.safety.risk import assess

WITHIN_HOME = [
    ("shell", "mv ~/*.jpg ~/Pictures/"),
    ("shell", "mkdir -p ~/papers && mv ~/*.pdf ~/papers/"),
    ("shell", "cd ~ && mkdir -p papers && mv *.pdf papers/"),
    ("shell", "for f in ~/*.png; do mv \"$f\" ~/Pictures/; done"),
    ("shell", "find ~ -maxdepth 1 -name '*.pdf' -exec mv {} ~/papers/ \\;"),
    ("shell", "mv ~/Desktop/* ~/Desktop/old/"),
    ("python", "import os\nos.chdir(os.path.expanduser('~/Pictures'))\nfor f in os.listdir('.'):\n"
               "    if f.endswith('.jpeg'):\n        os.rename(f, f[:-5] + '.jpg')"),
    ("python", "import shutil\nfrom pathlib import Path\nhome = Path.home()\n"
               "(home / 'papers').mkdir(exist_ok=True)\nfor p in home.glob('*.pdf'):\n"
               "    shutil.move(str(p), home / 'papers')"),
]


@pytest.mark.parametrize(("language", "code"), WITHIN_HOME)
def test_moving_within_home_is_a_move(language: str, code: str) -> None:
    assert assess(code, language).risk == "low", assess(code, language)


@pytest.mark.parametrize(("language", "code"), [
    ("shell", "mv ~/Documents /media/usb/"),
    ("shell", "mv ~/Pictures /tmp/"),
    ("shell", "mv ~/* \"$DEST\""),
    ("python", "import shutil, os\nshutil.move(os.path.expanduser('~/Documents'), '/mnt/b/')"),
])
def test_moving_a_wide_folder_out_of_home_is_wide_delete(language: str, code: str) -> None:
    verdict = assess(code, language)
    assert verdict.risk == "blocked" and "wide-delete" in verdict.families


def test_moving_into_nothing_is_a_delete() -> None:
    assert assess("mv notes.txt /dev/null", "shell").families == ("delete",)
