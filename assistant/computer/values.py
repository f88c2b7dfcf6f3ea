"""A field's or an editor's whole text, read and set: the forms models write anyway.

    text = computer.get("text area")                  # the editor's text, whole
    computer.set("text area", text.replace("recieve", "receive"))
    computer.set("Your name:", "Ana")                 # a field: as type(..., into=) does

Asked to fix a word in the note open in Mousepad, a small model wrote `computer.get(
"text_area")`, changed the text in Python, and `computer.set("text_area", fixed)`:
a coder model is surest with a string in hand. The text is read from the tree and set
through the text area's own editable text (the editor marks itself modified, as typing
does; nothing is saved). What is set is said from the screen before anyone approves it
(aim.py).
"""

from __future__ import annotations

from assistant.computer import finding, textmatch, tree
from assistant.computer.acting import fill_in, pick
from assistant.computer.editing import editor
from assistant.computer.said import Said
from assistant.computer.tree import Control, Window
from assistant.computer.verbs import holding, said

__all__ = ["get", "set"]

# What models call an editor's text area when they name it ("text_area", "editor").
AREA_WORDS = frozenset({"text area", "textarea", "text", "editor", "document", "content",
                        "contents", "body", "text box", "textbox"})


def holder(name: str | None, window: str | None = None) -> tuple[Control, Window]:
    """The field labelled `name`, else the text area of the editor that `name` names (a
    title, the text it holds, a word for a text area) or of `window` (else the focused
    editor)."""
    said_name = textmatch.normalize((name or "").replace("_", " "))
    if not said_name or said_name in AREA_WORDS:
        shown, area = editor(window)
        return area, shown
    if window is None and tree.windows(name):  # a window's title
        shown, area = editor(name)
        return area, shown
    try:
        return finding.find(name or "", "field", window)
    except finding.NotOnScreen:
        held = holding(name or "", window)  # the text it holds, copied as its name
        if held is None:
            raise
        shown, area = editor(held.title)
        return area, shown


def get(name: str | None = None, window: str | None = None) -> Said:
    """The whole text the field labelled `name` holds, or the editor's text area (named
    by its title, or "text area"; else the focused editor's)."""
    control, _ = holder(name, window)
    return Said(control.value)


@said
def set(name: str | None = None, value: object = None, window: str | None = None) -> str:
    """The field labelled `name`, or the editor's text area, holds just `value` (an
    editor's whole text replaced, not saved)."""
    if value is None:
        raise ValueError('say what it should hold: set("text area", "the new text")')
    text = str(value)
    control, where = holder(name, window)
    if control.role == "combo box" and "editable" not in control.states:
        pick(control, where, text)  # a drop-down takes no text: its entry is chosen
        return f"Chose {text} in {control.name or 'the drop-down'!r} in {where.kind()}."
    fill_in(control, where, text)
    if "multi line" in control.states:
        return f"Set the whole text of {where.kind()} ({len(text)} characters); not saved yet."
    label = repr(control.name) if control.name else "the field"
    return f"Set {label} in {where.kind()} to {text!r}."
