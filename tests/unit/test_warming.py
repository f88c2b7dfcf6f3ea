from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

EXITING = """
import sys, time
sys.path.insert(0, sys.argv[1])
from assistant import warming

class Closer:
    def __init__(self):
        self.me = self  # a cycle: collected as the interpreter finalizes
    def __del__(self):
        import slow

warming.start(lambda: __import__("slow"))
time.sleep(0.2)
Closer()
"""


def test_exit_waits_for_an_import_that_a_finalizer_needs(tmp_path: Path) -> None:
    """As litellm's HTTP client did: with the import frozen at exit, the process hung."""
    (tmp_path / "slow.py").write_text("import time\ntime.sleep(1)\n")
    try:
        result = subprocess.run([sys.executable, "-c", EXITING, str(tmp_path)], cwd=ROOT,
                                capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        raise AssertionError("the process did not end") from None
    assert result.returncode == 0, result.stderr
