"""The screen as text a small model can act on: windows, and each control's role, name
and state, in the words the verbs take.

    Window "Export" (dialog, focused):
      text: Export the quarterly report now?
      button "No"
      button "Yes" (focused)
    Other windows: "Memo.txt - Mousepad"

The focused window and every dialog are given whole; other windows by title (read one
with computer.read("Title")). A window that publishes no controls (Tk, games, remote
desktops) is read off the screen by OCR, each text with an id for click(id=N): the only
place a position is needed. No pixel coordinates are written anywhere. The assistant's
own windows (its popup and panel, which show the request itself) are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assistant.computer import tree
from assistant.computer.coords import Rect, Viewport
from assistant.computer.said import Said
from assistant.computer.tree import Control, Window

TEXT_CHARS = 160  # a text or a field's content, cut here
# What the windows given whole may take of a small model's prompt, all together: on two
# cores every 100 characters read cost it about 3 s. A window over its share has its long
# texts cut shorter, then its last lines left to computer.read(title).
BUDGET_CHARS = 1200
SHORT_CHARS = 60
WHOLE = ("dialog", "alert", "file chooser")  # windows given whole even without the focus
ROLE_WORDS = {"push button": "button", "toggle button": "toggle", "radio button": "radio",
              "check box": "check box", "check menu item": "check box", "menu item": "menu item",
              "radio menu item": "radio", "page tab": "tab", "link": "link",
              "combo box": "drop-down", "list item": "item", "tree item": "item",
              "table cell": "row", "spin button": "number field", "slider": "slider",
              "password text": "password field", "icon": "icon"}


def _cut(text: str, chars: int = TEXT_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= chars else flat[:chars - 1] + "…"


def _states(control: Control) -> str:
    said = []
    if control.role in ("check box", "check menu item", "toggle button"):
        said.append("ticked" if control.checked else "not ticked")
    elif control.role in ("radio button", "radio menu item") and control.checked:
        said.append("chosen")
    if "selected" in control.states and control.role in ("page tab", "list item", "tree item",
                                                          "table cell"):
        said.append("selected")
    if "focused" in control.states:
        said.append("focused")
    if not control.enabled:
        said.append("disabled")
    return f" ({', '.join(said)})" if said else ""


def control_line(control: Control, chars: int = TEXT_CHARS) -> str:
    """One control as the verbs name it: `button "Yes" (focused)`, `field "Name:" = "Ana"`;
    a text cut to `chars`."""
    if control.toggle:
        return f'row "{control.name}" [{"x" if control.checked else " "}]'
    if control.role in tree.TEXTS:
        return f"text: {_cut(control.name, chars)}"
    if control.role == "calendar":  # its value: the month its heading shows
        return f'calendar showing "{control.value}"' if control.value else "calendar"
    if control.field:
        word = field_word(control)
        value = f' = "{_cut(control.value)}"' if control.value and word != "password field" \
            and control.value != control.name else ""
        name = f' "{_cut(control.name)}"' if control.name else ""
        return f"{word}{name}{value}{_states(control)}"
    word = ROLE_WORDS.get(control.role, control.role)
    name = f' "{_cut(control.name)}"' if control.name else ""  # a switch with no label
    return f"{word}{name}{_states(control)}"


def field_word(control: Control) -> str:
    """What a field is called: "field", "text area" (an editor's, many lines), "password
    field", "number field", "drop-down"; the verbs take it as the name of an unnamed one."""
    if control.role in ROLE_WORDS:
        return ROLE_WORDS[control.role]
    return "text area" if "multi line" in control.states else "field"


def _lines(window: Window, chars: int = TEXT_CHARS) -> list[str]:
    """A line for each text and control, but a browser's own (its page's are said) other
    than its address field, and a link's text said again as a text after it; a list's row
    is one line, its first cell's name (or its tick box) with the others after it (a
    file's size, type; an invoice's supplier, amount)."""
    toggled = {c.name for c in window.controls if c.toggle}
    lines: list[str] = []
    rows: dict[int, tuple[int, Control, list[str]]] = {}  # a row's top: its line, cells
    named = ""  # the last control's name
    for control in window.controls:
        if control.label or (control.role == "table cell" and not control.toggle
                             and control.name in toggled):
            continue  # said with the field it names, or with its row's tick box
        if control.chrome and control.role not in tree.FIELDS:
            continue
        if control.role in tree.TEXTS and control.name == named:
            continue
        named = control.name if control.role not in tree.TEXTS else ""
        if control.role == "table cell" and control.name:
            if not control.toggle and control.box.top in rows \
                    and control.box.top > tree.UNPLACED:
                rows[control.box.top][2].append(_cut(control.name, SHORT_CHARS))
                continue
            rows[control.box.top] = (len(lines), control, [])  # a tick box's: its row
        line = control_line(control, chars)
        if line not in lines or control.role == "table cell":  # two rows may read alike
            lines.append(line)
    for at, first, cells in rows.values():
        if cells and first.toggle:  # row "INV-1041" [ ]: Harbor Supply, 120.00
            lines[at] = f'{control_line(first)}: {", ".join(cells)}'
        elif cells:
            lines[at] = f'row "{_cut(first.name)}": {", ".join(cells)}{_states(first)}'
    return lines


def _heading(window: Window) -> str:
    said = [window.role] if window.role in WHOLE else []
    said += ["focused"] if window.active else []
    return f'Window "{window.title}"' + (f" ({', '.join(said)})" if said else "") + ":"


def window_text(window: Window, budget: int | None = None) -> Said:
    """One window: its heading, then a line for each text and control; over `budget`
    characters, long texts are cut shorter, then the last lines left to read()."""
    lines = _lines(window) or ["(no texts or controls)"]
    if budget is not None and _size(lines) > budget:
        lines = _lines(window, SHORT_CHARS)
        kept: list[str] = []
        for line in lines:
            if _size([*kept, line]) > budget:
                break
            kept.append(line)
        if len(kept) < len(lines):
            left = len(lines) - len(kept)
            kept.append(f"… {left} more line{'s' if left > 1 else ''}: "
                        f"computer.read({window.title!r})")
        lines = kept
    return Said("\n".join([_heading(window), *("  " + line for line in lines)]))


def _size(lines: list[str]) -> int:
    return sum(len(line) + 3 for line in lines)


def _shares(given: list[Window], budget: int) -> dict[int, int]:
    """Each window's share of `budget` (by position): the smaller take what they need
    first (a dialog is short), the rest is split among the larger."""
    needs = {n: _size(_lines(w)) for n, w in enumerate(given)}
    shares: dict[int, int] = {}
    left = budget
    for count, n in enumerate(sorted(needs, key=needs.__getitem__)):
        shares[n] = min(needs[n], left // (len(needs) - count))
        left -= shares[n]
    return shares


def describe(keep: Callable[[list[dict[str, Any]]], object],
             port: Viewport | None = None, image: Any = None) -> Said:
    """The screen as text. `image` (the view as captured) is read only where a window
    publishes nothing (without it, such windows are captured now), and `keep` stores the
    items read there in a view, which gives them their lasting ids, before they are said.
    The windows given whole share BUDGET_CHARS."""
    from assistant.computer.windows import own

    found = [w for w in tree.windows() if (w.title or w.controls) and not own(w.title)]
    given = [w for n, w in enumerate(found) if n == 0 or w.active or w.role in WHOLE]
    shares = _shares(given, BUDGET_CHARS)
    parts: list[str] = [window_text(w, shares[n]) for n, w in enumerate(given)]
    others = [w.title for w in found if w not in given and w.title]
    dark = _dark({w.title for w in found})
    if dark or (not found and dark is None):  # no window list: the whole screen
        read, shown = _read_off(dark or [], keep, port, image)
        parts += read
        others += [w["title"] for w in dark or [] if w["title"] not in shown]  # covered
    if others:
        parts.append("Other windows: " + ", ".join(f'"{t}"' for t in others))
    return Said("\n".join(parts) or "(nothing on screen)")


def _dark(published: set[str]) -> list[dict[str, Any]] | None:
    """The windows on screen that publish no controls, top first (the assistant's own
    left out); None without a window list."""
    from assistant.computer import windows

    try:
        stacked = windows.stacking()
    except Exception:  # no window list here (Wayland, no Xlib)
        return None
    return [w for w in reversed(stacked)
            if w["title"] and w["title"] not in published and not windows.own(w["title"])]


def own_areas() -> list[Rect]:
    """Where the assistant's own windows are (its panel shows the request): what OCR
    reads there is not the screen's."""
    from assistant.computer import windows

    try:
        stacked = windows.stacking()
    except Exception:  # no window list here (Wayland, no Xlib)
        return []
    return [Rect(w["x"], w["y"], w["width"], w["height"]) for w in stacked
            if windows.own(w["title"])]


_COVERED = "\0"  # a point a window with controls shows: not a dark window's text


def _on_top(dark: list[dict[str, Any]]) -> list[tuple[str, Rect]]:
    """Every window's area, top first, a dark one by its title and one that publishes
    controls as covered: a text read off the screen belongs to the window on top there
    (a dialog over a terminal is not the terminal's)."""
    from assistant.computer import windows

    titles = {w["title"] for w in dark}
    try:
        stacked = list(reversed(windows.stacking()))
    except Exception:  # no window list here: the dark windows alone
        stacked = dark
    return [(w["title"] if w["title"] in titles else _COVERED,
             Rect(w["x"], w["y"], w["width"], w["height"])) for w in stacked]


def _read_off(dark: list[dict[str, Any]], keep: Callable[[list[dict[str, Any]]], object],
              port: Viewport | None, image: Any) -> tuple[list[str], set[str]]:
    """The text of windows that publish nothing, by OCR, each with an id to click; and
    the titles of those it read something of."""
    from assistant.computer import display, ocr, textmatch

    port = port or display.viewport()
    image = image if image is not None else display.capture(port)
    read = ocr.read(image)
    areas = _on_top(dark) if dark else [("", port.area)]
    mine = own_areas()
    owned: list[tuple[str, dict[str, Any]]] = []
    for each in read:
        point = port.to_physical(*textmatch.center(each["box"]))
        if any(area.contains(*point) for area in mine):
            continue
        title = next((title for title, area in areas if area.contains(*point)), None)
        if title == _COVERED:
            continue
        if title is not None:
            owned.append((title, dict(each)))
    keep([item for _, item in owned])
    parts = []
    for title in dict.fromkeys(title for title, _ in owned):
        inside = [item for owner, item in owned if owner == title]
        parts.append((f'Window "{title}"' if title else "The screen") +
                     " (publishes no controls: type into it by its title; its text, read off "
                     "the screen, click(id=N)):")
        parts += [f'  [{i["id"]}] "{_cut(i["text"])}"' for i in inside]
    return parts, {title for title, _ in owned}


def read_off(title: str) -> Said:
    """The text of the window `title`, which publishes no controls, read off the screen
    (where another window covers it, left out), each text with an id for click(id=N)."""
    from assistant.computer import display, views

    port = display.viewport()
    dark = [w for w in _dark(set()) or [] if w["title"] == title]
    parts, _ = _read_off(dark, lambda items: views.save(port, None, items), port, None)
    return Said("\n".join(parts) or f'Window "{title}": no text could be read off the screen')


def screen() -> Said:
    """The screen as text: the focused window and dialogs whole, each control by role,
    name and state; the other windows by title; the text of windows without controls,
    with ids for click(id=N)."""
    from assistant.computer import display, views

    port = display.viewport()
    return describe(lambda items: views.save(port, None, items), port)
