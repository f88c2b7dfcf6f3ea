"""Windows that publish no controls (a terminal, a program without accessibility): typed
into by their title, and read off the screen.

A small model copies what it was shown, prompt and all: asked to list the .log files in
the terminal, it typed "root@vm:/tmp/work# ls *.log", which the shell runs as a command
named "root@vm:/tmp/work#". A shell prompt at the start of a line typed there is left
out: nobody means to type their prompt.
"""

from __future__ import annotations

import re

from assistant.computer.said import Said

# user@host:folder# or $, as bash's default prompt shows it, at the start of a line
PROMPT = re.compile(r"^[\w.-]+@[\w.-]+:[^\n#$]*[#$][ \t]+(?=\S)", re.MULTILINE)


def unprompted(text: str) -> str:
    """`text` without a shell prompt copied at the start of its lines."""
    return PROMPT.sub("", text)


def shows(title: str) -> Said:
    """What the window `title` shows, read off the screen, each text with an id for
    click(id=N); it says so when nothing could be read."""
    from assistant.computer import screen_text

    return screen_text.read_off(title)
