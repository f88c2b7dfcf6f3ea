"""The package imports and reads its TOML data on Python 3.10, where the standard library
has no `tomllib`: a child interpreter whose importer refuses `tomllib` loads the modules
that read TOML, and they read it through `tomli`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

WITHOUT_TOMLLIB = """
import json, sys

class NoTomllib:
    '''The importer of Python 3.10: no tomllib in the standard library.'''
    def find_spec(self, name, path=None, target=None):
        if name == "tomllib":
            raise ModuleNotFoundError("No module named 'tomllib'", name=name)
        return None

sys.meta_path.insert(0, NoTomllib())
from assistant import config, rulebook, texts
from assistant.runtime import bus
from assistant.safety import earned
from assistant.tomlread import tomllib

print(json.dumps({
    "parser": tomllib.__name__,
    "tomllib": "tomllib" in sys.modules,
    "text": texts.text("run.stopped"),
    "rules": len(rulebook.catalogue()),
    "profiles": sorted(rulebook.profiles()),
    "bus": len(bus.allowed()),
    "known": len(earned.known().programs),
    "config": config.load_settings().approval,
}))
"""


def test_the_modules_that_read_toml_import_and_read_it_without_tomllib(tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(ROOT), "ASSISTANT_CONFIG_DIR": str(tmp_path / "config"),
           "ASSISTANT_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", WITHOUT_TOMLLIB], capture_output=True,
                          text=True, env=env, cwd=str(tmp_path), timeout=60)
    assert done.returncode == 0, done.stderr
    read = json.loads(done.stdout)
    assert read["parser"] == "tomli" and read["tomllib"] is False
    assert read["text"] and read["rules"] > 10 and read["profiles"] and read["bus"] > 0
    assert read["known"] > 10
    assert read["config"] == "ask"
