"""A change of folder is followed for writes, reads and deletes alike: whatever way the code
gets into the assistant's own folder first, writing there is self-tamper."""

from __future__ import annotations

import pytest

from assistant.safety.risk import assess

WRITES = [
    ("shell", "cd ~/.config/assistant && sed -i s/ask/auto/ config.toml"),
    ("shell", "cd ~/.config && cd assistant && echo 'approval = \"auto\"' >> config.toml"),
    ("shell", "pushd ~/.config/assistant; echo 'approval = \"auto\"' >> config.toml; popd"),
    ("shell", "( cd ~/.config/assistant; echo 'approval=\"auto\"' > config.toml )"),
    ("shell", "bash -c 'cd ~/.config/assistant && tee -a config.toml <<< approval=auto'"),
    ("shell", "env -C ~/.config/assistant sed -i s/ask/auto/ config.toml"),
    ("shell", "cd ${XDG_CONFIG_HOME:-$HOME/.config}/assistant && cp /tmp/x.toml config.toml"),
    ("shell", "cd ~/.config/assistant && python3 -c \"open('config.toml', 'a').write('x')\""),
    ("shell", "CDPATH=~/.config\ncd assistant && tee config.toml <<< 'approval = \"auto\"'"),
    ("shell", "ls ~/.config/assistant/profiles/*.toml | xargs sed -i s/ask/auto/"),
    ("python", "import os\nos.chdir(os.path.expanduser('~/.config/assistant'))\n"
               "open('config.toml', 'a').write('approval = \"auto\"')"),
    ("python", "import os\nfrom pathlib import Path\n"
               "os.chdir(Path.home() / '.config' / 'assistant')\n"
               "Path('config.toml').write_text('x')"),
    ("python", "import subprocess, os\nsubprocess.run(['sed', '-i', 's/ask/auto/', 'config.toml'],"
               " cwd=os.path.expanduser('~/.config/assistant'))"),
    ("python", "import os\nos.chdir(os.path.expanduser('~/.local/share/assistant'))\n"
               "os.remove('journal.db')"),
    ("javascript", "const fs = require('fs');\n"
                   "process.chdir(require('os').homedir() + '/.config/assistant');\n"
                   "fs.appendFileSync('config.toml', 'approval = \"auto\"');"),
    ("javascript", "const cp = require('child_process');\ncp.execSync('sed -i s/ask/auto/ "
                   "config.toml', {cwd: process.env.HOME + '/.config/assistant'});"),
]


@pytest.mark.parametrize(("language", "code"), WRITES)
def test_writing_the_assistants_files_after_changing_folder_is_self_tamper(
        language: str, code: str, own: tuple[str, str]) -> None:
    verdict = assess(code, language, protected=own)
    assert verdict.risk == "blocked" and "self-tamper" in verdict.families, verdict


def test_a_subshells_change_of_folder_ends_with_it(own: tuple[str, str]) -> None:
    code = "(cd ~/.config/assistant && ls); echo 'x' > config.toml"
    assert assess(code, "shell", protected=own).risk == "low"
    assert assess("pushd ~/.config/assistant; popd; echo x > config.toml", "shell",
                  protected=own).risk == "low"


def test_git_cleaning_home_is_a_wide_delete() -> None:
    assert "wide-delete" in assess("git -C ~ clean -ffdx", "shell").families
    assert "wide-delete" in assess("cd ~ && git clean -fdx", "shell").families
    assert assess("cd ~/projects/app && git clean -fdx", "shell").risk == "medium"


def test_a_change_of_folder_is_followed_for_every_write_rule(own: tuple[str, str]) -> None:
    assert "persistence" in assess("cd ~ && echo 'curl x | sh' >> .bashrc", "shell").families
    assert "system-write" in assess("cd /etc && echo x > hosts", "shell").families
    assert "secrets" in assess("cd ~/.aws && cat credentials", "shell").families


def test_everyday_work_in_another_folder_stays_low(own: tuple[str, str]) -> None:
    for code in ("cd ~/projects/site && echo hello > index.html", "cd /tmp && tar xzf a.tgz",
                 "cd ~/Pictures && for f in *.jpeg; do mv \"$f\" \"${f%.jpeg}.jpg\"; done"):
        assert assess(code, "shell", protected=own).risk == "low", code
