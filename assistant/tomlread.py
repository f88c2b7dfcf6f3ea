"""The TOML reader, one for the package: the standard library's `tomllib` (Python 3.11+),
else `tomli`, the same parser under its older name (a dependency before 3.11). Below every
layer: it imports nothing of the package, so texts.py, the catalogue every layer reads,
may use it."""

from __future__ import annotations

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = ["tomllib"]
