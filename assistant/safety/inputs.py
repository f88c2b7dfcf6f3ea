"""Requests that cannot be meant as they are: empty, binary, or too large to send.

Caught before the LLM is asked or the journal written, each with one line saying what
to do instead, so a stray pipe (`cat photo.jpg | assistant`) costs nothing.
"""

from __future__ import annotations

import re

MAX_REQUEST_CHARS = 1_000_000
# Undecodable bytes (kept as lone surrogates), NUL and other control characters.
BINARY = re.compile(r"[\udc80-\udcff\x00-\x08\x0e-\x1f\ufffd]")


def request_problem(text: str) -> str:
    """Why a request cannot be sent, in one line; empty when it is fine."""
    if not text.strip():
        return "the request is empty: say what you want done"
    odd = len(BINARY.findall(text[:20_000]))
    if odd > max(8, len(text[:20_000]) // 100):
        return ("the request looks like binary data, not text: pipe in text, or name the "
                "file in the request and let the code read it")
    if len(text) > MAX_REQUEST_CHARS:
        return (f"the request is {len(text):,} characters, more than {MAX_REQUEST_CHARS:,}: "
                "name the file in the request instead of pasting it")
    return ""
