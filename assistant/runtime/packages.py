"""Which well-known packages the Python runtime has, as the system message says it."""

from __future__ import annotations

import functools
import importlib.util

# Packages small models reach for; saying which are here saves a failed import and a
# `pip install` that lands in another interpreter.
KNOWN_PACKAGES = ("numpy", "pandas", "requests", "PIL", "yaml", "openpyxl", "bs4", "matplotlib")


@functools.cache
def python_packages() -> str:
    """Which well-known packages the Python runtime (this interpreter) can import."""
    have = [name for name in KNOWN_PACKAGES if importlib.util.find_spec(name) is not None]
    missing = [name for name in KNOWN_PACKAGES if name not in have]
    return (f"Python packages besides the standard library: {', '.join(have) or 'none'}; "
            f"not installed: {', '.join(missing) or 'none'} (prefer the standard library)")
