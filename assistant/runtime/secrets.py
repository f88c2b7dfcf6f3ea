"""The assistant's secrets, kept out of its runs.

A run is code a model wrote, and a model can be steered by what it reads (a web page, a
file, a tool's answer), so even an approved run must not reach what would let it act as
the assistant or its owner elsewhere: the API keys, the web page's token, the keyring.

- Variables named like secrets (as the redactor names them: `*_API_KEY`, `*_TOKEN`,
  `*_SECRET`, `*PASSWORD`, and `*_ACCESS_KEY`) are not in a run's environment, unless the
  user lets one through by name (`run_env_allow`). Keys the assistant took from the
  keyring or the config never were in it.
- Python's `keyring` in a run is the failing backend, so it does not ask the keyring.
- Under the guard and the sandbox (see sandbox.py), the assistant's config and data
  folders are seen empty and read-only: the config may hold `api_key`, the data folder
  holds the web token and the journal. Only the downloaded models are seen in it. The
  keyring's own files in the home folder are hidden too.

Other programs running as the user are outside this: they can read what the user can.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Mapping
from pathlib import Path

from assistant.safety.redact import SECRET_NAMES

MORE_SECRET_NAMES = re.compile(r"_ACCESS_KEY$", re.IGNORECASE)
"""Names the redactor does not mask by name but which are keys (AWS_SECRET_ACCESS_KEY)."""
KEYRING_BACKEND = ("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
KEYRING_FOLDERS = ("keyrings", "python_keyring", "kwalletd")
"""Where keyrings keep their entries in the data home (GNOME, keyrings.alt, KWallet)."""


def is_secret(name: str) -> bool:
    """Whether an environment variable's name says it holds a secret."""
    return bool(SECRET_NAMES.search(name) or MORE_SECRET_NAMES.search(name))


def run_environment(env: Mapping[str, str], allow: Collection[str] = ()) -> dict[str, str]:
    """`env` for a run: without secret variables but those in `allow`, keyring turned off."""
    kept = {name: value for name, value in env.items()
            if name in allow or not is_secret(name)}
    name, backend = KEYRING_BACKEND
    kept[name] = backend
    return kept


def keyring_paths() -> list[Path]:
    """The keyrings' folders in the user's data home (XDG_DATA_HOME, else ~/.local/share)."""
    home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return [Path(home) / name for name in KEYRING_FOLDERS]
