"""Windows that publish no controls (a terminal, a program without accessibility): typed
into by their title, and read off the screen.

A small model copies what it was shown, prompt and all: asked to list the .log files in
the terminal, it typed "root@vm:/tmp/work# ls *.log", which the shell runs as a command
named "root@vm:/tmp/work#". A shell prompt at the start of a line typed there is left
out: nobody means to type their prompt. After a command, the terminal's last lines are
read back for the run's result.
"""

from __future__ import annotations

import re
import time

from assistant.computer.said import Said

OUTPUT_S = 0.8  # for a command typed into a terminal to print what it prints
LAST_LINES = 8  # of a terminal's text, read back after a command

# user@host:folder# or $, as bash's default prompt shows it, at the start of a line
PROMPT = re.compile(r"^[\w.-]+@[\w.-]+:[^\n#$]*[#$][ \t]+(?=\S)", re.MULTILINE)


def unprompted(text: str) -> str:
    """`text` without a shell prompt copied at the start of its lines."""
    return PROMPT.sub("", text)


def after_command(title: str) -> str:
    """What the terminal `title` shows once a command typed into it had a moment to run:
    its last lines, read off the screen (the command's output, an error), for the result
    of the run that typed it; "" where nothing can be read. A small model that saw only
    "Typed ... into the window" typed its command again, or another over its output."""
    time.sleep(OUTPUT_S)
    try:
        lines = shows(title).splitlines()[1:]
    except Exception:  # no OCR engine here, or the window went away
        return ""
    if not lines:
        return ""
    return "\nIts last lines now, read off the screen:\n" + "\n".join(lines[-LAST_LINES:])


def shows(title: str) -> Said:
    """What the window `title` shows, read off the screen, each text with an id for
    click(id=N); it says so when nothing could be read."""
    from assistant.computer import screen_text

    return screen_text.read_off(title)
