"""The model files `./scripts/setup` installed, for the tests that need a real model.

Setup joins the embedded weights and Whisper base into the user's data folder
(`ASSISTANT_DATA_DIR`, else ~/.local/share/assistant) under models/. Every test runs with
its own temporary data folder, so that place is read once, when this module is imported
during collection, before any test changes the environment; a test passes the file on as
`embedded_model=PATH` (or `ASSISTANT_EMBEDDED_MODEL`), or the folder as `models=`.
"""

from __future__ import annotations

import os
from pathlib import Path

from assistant.config import Settings, default_data_dir
from assistant.servers import embedded
from tests.support.require import lacking, require

# Set by tests/conftest.py before the session's own home replaces the person's, so that
# the test processes it starts (xdist workers, a run in a namespace) look in the same place.
PLACE_VARIABLE = "TESTS_INSTALLED_MODELS"
INSTALLED = Path(os.environ.get(PLACE_VARIABLE) or default_data_dir() / "models")
# SmolLM2-135M: a demo-quality model that starts in a second, for the fast tests.
SMOLLM2 = Settings(embedded_model=embedded.SMOLLM2)


def require_embedded(settings: Settings = SMOLLM2) -> None:
    """The embedded model of `settings` and its server can start; skipped (failed in CI)
    otherwise."""
    missing = embedded.missing(settings)
    require(not missing, f"the embedded model is not installed ({'; '.join(missing)})")


def installed_gguf(name: str) -> Path:
    """The installed weights of `name`; the test is skipped (failed in CI) without them."""
    path = INSTALLED / f"{name}.gguf"
    if not path.is_file():
        lacking(f"the {name} weights are not installed ({path}): run ./scripts/setup")
    return path


def installed_stt(name: str) -> Path:
    """The installed speech model folder `name` (models/NAME/model.bin); skipped (failed in
    CI) without it."""
    path = INSTALLED / name
    if not (path / "model.bin").is_file():
        lacking(f"the {name} speech model is not installed ({path}): run ./scripts/setup")
    return path
