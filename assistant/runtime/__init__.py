"""Running approved code: one persistent process per language, with limits.

`Runtimes` is the whole interface; see runtimes.py for the contract.
"""

from assistant.runtime.languages import LANGUAGES, canonical_language
from assistant.runtime.runtimes import Runtimes

__all__ = ["LANGUAGES", "Runtimes", "canonical_language"]
