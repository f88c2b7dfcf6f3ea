"""The system message: who the assistant is and what machine it acts on; and the line that
asks for an answer in the language a request was spoken in."""

from __future__ import annotations

import getpass
import os
import platform
import shutil
import time

from assistant.plugins.registry import languages as plugin_languages
from assistant.runtime.packages import python_packages
from assistant.texts import text

BASE = text("system.base")


def machine_facts() -> str:
    """Facts the LLM needs to write code that works here, read fresh for each conversation."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown"
    languages = ["python", "shell"] + (["javascript"] if shutil.which("node") else [])
    languages += plugin_languages()  # installed plugins add these
    # The working directory is not given as its absolute path: small models build paths
    # from it and drop a part (/tmp/x/pdfs for /tmp/x/work/pdfs), and `pwd` tells it when
    # it is needed. No example path either: one was taken for a folder that is there
    # ('pdfs'). The day, not the minute: a system message that changes every minute makes
    # a local model read the whole conversation again (8-11 s here instead of 0.4 s).
    facts = text("system.facts").format(
        system=f"{platform.system()} {platform.release()} ({platform.machine()})",
        user=user, home=os.path.expanduser("~"), date=time.strftime("%Y-%m-%d (%A)"),
        languages=", ".join(languages))
    return f"{facts}\n{python_packages()}"


def system_message(custom: str, addendum: str) -> str:
    """The user's own system message replaces the base text, never the machine facts."""
    parts = [custom.strip() or BASE, machine_facts(), addendum.strip()]
    return "\n\n".join(part for part in parts if part)


# Whisper's codes for the languages users most often speak to it in; others are named by
# their code, which models also understand.
LANGUAGE_NAMES = {
    "ar": "Arabic", "cs": "Czech", "da": "Danish", "de": "German", "el": "Greek",
    "es": "Spanish", "fi": "Finnish", "fr": "French", "hi": "Hindi", "hu": "Hungarian",
    "it": "Italian", "ja": "Japanese", "ko": "Korean", "nl": "Dutch", "no": "Norwegian",
    "pl": "Polish", "pt": "Portuguese", "ro": "Romanian", "ru": "Russian", "sv": "Swedish",
    "tr": "Turkish", "uk": "Ukrainian", "zh": "Chinese",
}


def answer_in(language: str) -> str:
    """The line added to a request spoken in another language than English: a few
    tokens on the user's message, not the system message, so a local model's cached
    conversation stays valid. Empty for English, and when the language is not known."""
    if not language or language == "en":
        return ""
    name = LANGUAGE_NAMES.get(language) or text("system.language_code").format(language)
    return "\n" + text("system.answer_in").format(name)
