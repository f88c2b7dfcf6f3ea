"""Run a benchmark's command under the project's venv whatever Python started it, so
`python3 -m benchmarks.bench` measures the installed assistant, not a bare interpreter."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"


def run_in_venv(module: str, command: str) -> NoReturn:
    """Start `python -m module` again under the venv when another Python runs it (the
    command line and the working folder stay), else exit with what `command`'s main()
    returns. `command` is imported only then: it needs the venv's packages."""
    venv = VENV_PYTHON.parent.parent.resolve()
    if Path(sys.prefix).resolve() != venv and VENV_PYTHON.exists():
        os.execv(VENV_PYTHON, [str(VENV_PYTHON), "-m", module, *sys.argv[1:]])
    sys.exit(importlib.import_module(command).main())
