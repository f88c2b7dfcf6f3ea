"""How a control found on screen is acted on: through its own action, which works behind
other windows, else a click; a window brought forward before keys go to it; a field
given its text; a list row selected; a drop-down opened, its entry chosen, and closed.
What the verbs (verbs.py) and the editing verbs (editing.py) share.
"""

from __future__ import annotations

import time

from assistant.computer import a11y, finding, keyboard
from assistant.computer import windows as x_windows
from assistant.computer.finding import NotOnScreen, find, titles
from assistant.computer.tree import Control, Window


def element(control: Control) -> a11y.Element:
    """The control as the accessibility calls take it."""
    return a11y.Element(control.name, control.role, control.box, control.states,
                        control.window, 0, control.ref)


def do(control: Control, window: Window) -> None:
    """The control's own action (works behind other windows), else a click on it. A menu
    item is clicked: through its action, GTK runs the dialog it opens (Save As) inside
    the accessibility call, and the dialog publishes no controls while it is open."""
    if not control.enabled:
        raise disabled(control, window)
    if control.role != "menu item":
        try:
            a11y.act(element(control))
            return
        except LookupError:  # it offers no action
            pass
    from assistant.computer import mouse

    front(window)
    mouse._act("click", *control.center())


def disabled(control: Control, window: Window) -> LookupError:
    """A press of a greyed-out button, with what in its window may enable it: a small
    model told only "do what enables it first" pressed the same OK three times over an
    unticked "I accept" box."""
    boxes = [c.name for c in window.controls if c.name and not c.checked
             and c.enabled and finding.is_kind(c, "tick box")]
    empty = [c.name for c in window.controls if c.field and c.name and c.enabled
             and not c.value]
    might = "; ".join(part for part in (
        f"unticked there: {', '.join(repr(n) for n in boxes[:5])}" if boxes else "",
        f"empty fields there: {', '.join(repr(n) for n in empty[:5])}" if empty else "") if part)
    return LookupError(f"{control.role} {control.name!r} in {window.kind()} is disabled "
                       "(greyed out): do what enables it first"
                       + (f" ({might})" if might else ""))


def front(window: Window | str) -> str:
    """Bring the window forward and wait until it has the focus (keys go there); its
    title. A title no window has is a miss that names the open ones."""
    title = window.title if isinstance(window, Window) else window
    try:
        title = x_windows.focus(title)["title"]
    except LookupError:
        if isinstance(window, Window):
            return title
        raise NotOnScreen(f"no window titled {title!r}; {titles()}") from None
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        active = x_windows.active()
        if active and active["title"] == title:
            break
        time.sleep(0.02)
    return title


def closed(combo: Control | None) -> None:
    """A drop-down left open once its entry is chosen (Chromium's list for a page's
    <select>: the choice is made, the list's own highlight is not) is closed by Esc,
    which keeps the choice (Enter would take the highlight); a GTK one closes itself."""
    if combo is None:
        return
    time.sleep(0.2)
    try:
        still = combo.ref.get_state_set().contains(a11y._atspi().StateType.EXPANDED)
    except Exception:  # gone with its window
        return
    if still:
        keyboard.press("esc")


def select(control: Control, where: Window) -> None:
    """A list row: selected through the list's own selection, else clicked."""
    table = control.ref.get_parent() if control.ref is not None else None
    try:
        index = control.ref.get_index_in_parent()
        if table is not None and "Selection" in table.get_interfaces() and \
                a11y._atspi().Selection.select_child(table, index):
            return
    except Exception:  # the list has no selection of its own: a click selects the row
        pass
    from assistant.computer import mouse

    front(where)
    mouse._act("click", *control.center())


def opened(combo: Control, where: Window, item: str) -> Control | None:
    """The entry `item` of the drop-down `combo`, opened; None (closed again) when it
    has none so named."""
    do(combo, where)
    time.sleep(0.3)
    try:
        return find(item, "item", None, settle=False)[0]
    except NotOnScreen:
        keyboard.press("esc")
        return None


def pick(combo: Control, where: Window, item: str) -> None:
    """Choose `item` in the drop-down `combo` (a page's <select> typed into by a form's
    mapping); a miss names the window's drop-down entries there are not."""
    entry = opened(combo, where, item)
    if entry is None:
        raise NotOnScreen(f"no entry {item!r} in the drop-down {combo.name!r} in "
                          f"{where.kind()}: choose one it lists")
    a11y.act(element(entry))
    closed(combo)


def fill_in(control: Control, where: Window, text: str) -> None:
    """The field holds `text`: through its editable text, else clicked, cleared and typed."""
    if not control.enabled:
        raise disabled(control, where)
    if control.role == "slider":
        a11y.set_number(element(control), text)
        return
    if a11y.put_text(element(control), text):
        if control.role == "spin button":  # its value is taken from its text on activate
            a11y.act(element(control))
        return
    from assistant.computer import mouse

    front(where)
    mouse._act("click", *control.center())
    a11y.focused(element(control))  # keys typed before the focus moves go elsewhere
    keyboard.hotkey("ctrl", "a")
    keyboard.write(text)
    if control.role != "password text":  # it shows bullets
        a11y.holds(element(control), text)  # the next call finds the field as typed
