"""Pygments lexers for proposals' languages, without Tk: the popup and the web page share them."""

from __future__ import annotations

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from assistant.ui.terminal import LEXERS


def code_lexer(language: str) -> Lexer:
    """The pygments lexer for a proposal's language, plain text when pygments has none."""
    options = {"stripnl": False, "ensurenl": False}
    try:
        return get_lexer_by_name(LEXERS.get(language, language), **options)
    except ClassNotFound:
        return get_lexer_by_name("text", **options)
