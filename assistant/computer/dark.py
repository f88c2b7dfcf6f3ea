"""Windows that publish no controls (a terminal, a program without accessibility): what is
typed into them by their title (their text is read off the screen: screen_text.read_off).

A small model copies what it was shown, prompt and all: asked to list the .log files in
the terminal, it typed "root@vm:/tmp/work# ls *.log", which the shell runs as a command
named "root@vm:/tmp/work#". A shell prompt at the start of a line typed there is left
out: nobody means to type their prompt.
"""

from __future__ import annotations

import re

# user@host:folder# or $, as bash's default prompt shows it, at the start of a line
PROMPT = re.compile(r"^[\w.-]+@[\w.-]+:[^\n#$]*[#$][ \t]+(?=\S)", re.MULTILINE)


def unprompted(text: str) -> str:
    """`text` without a shell prompt copied at the start of its lines."""
    return PROMPT.sub("", text)

