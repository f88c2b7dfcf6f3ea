"""Redaction of secrets: API keys never reach the journal, error messages or logs.

Two nets: the exact values this assistant knows to be secret (its API key, the
environment's *_API_KEY / *_TOKEN / *_SECRET / *PASSWORD values), and the shapes of
well-known provider keys, for keys it was never told about.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping

MASK = "[redacted]"
SECRET_NAMES = re.compile(r"(API_KEY|_TOKEN|_SECRET|SECRET_KEY|PASSWORD|PASSWD)$", re.IGNORECASE)
KEY_SHAPES = re.compile(
    r"\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|gsk_[A-Za-z0-9]{20,}|AIza[0-9A-Za-z_-]{30,}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|xox[abprs]-[A-Za-z0-9-]{10,}"
    r"|AKIA[0-9A-Z]{16}|hf_[A-Za-z0-9]{30,}|glpat-[A-Za-z0-9_-]{20,})"
)
MIN_LENGTH = 8  # shorter values ("test", "1") would blank out ordinary words


class Redactor:
    """Replaces secrets in text; one per Assistant, built from its settings."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        values = {s.strip() for s in secrets if s and len(s.strip()) >= MIN_LENGTH}
        # Longest first, so a key that contains another is masked whole.
        self._secrets = sorted(values, key=len, reverse=True)

    @classmethod
    def from_environment(
        cls, api_key: str = "", env: Mapping[str, str] | None = None
    ) -> Redactor:
        env = os.environ if env is None else env
        found = [value for name, value in env.items() if SECRET_NAMES.search(name)]
        return cls([api_key, *found])

    def __call__(self, text: str) -> str:
        for secret in self._secrets:
            if secret in text:
                text = text.replace(secret, MASK)
        return KEY_SHAPES.sub(MASK, text)
