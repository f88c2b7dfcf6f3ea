"""What a test needs from this machine: without it the test is skipped with the reason,
except in CI (`CI` set, as `.ci/run` does), where a missing prerequisite is a failure,
so nothing is skipped silently there."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def lacking(reason: str) -> NoReturn:
    """Skip naming what is missing; fail in CI."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must have it: ./scripts/setup --test installs it)")
    pytest.skip(reason)


def require(ok: object, missing: str) -> None:
    """`lacking(missing)` unless `ok`."""
    if not ok:
        lacking(missing)
