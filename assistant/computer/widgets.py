"""One finder for what the caller names on screen: the accessibility tree first, OCR after.

An element of the tree is exact (name, role, states and box come from the window itself)
and covers icons that show no text; OCR reads what the tree misses (Tk, games, remote
desktops). Exact beats contains in both, and among equals the controls a person clicks
(buttons, links, check boxes, tabs, fields) beat text that only says the same words.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

from assistant.computer import a11y, ocr, textmatch
from assistant.computer.coords import Rect, Viewport

# What a caller may write for a role, beyond the role's own name ("push button" is
# also "button", "check box" also "checkbox"): the roles each word stands for.
ROLE_WORDS = {
    "entry": a11y.EDITABLE, "field": a11y.EDITABLE, "textbox": a11y.EDITABLE,
    "input": a11y.EDITABLE, "checkbox": {"check box", "check menu item"},
    "tab": {"page tab"}, "menu": {"menu", "menu item", "check menu item", "radio menu item"},
}
CHROMIUM = ("chrom", "electron", "code", "slack", "discord", "teams", "brave", "edge")
_stack: list[tuple[str, list[dict[str, Any]]]] = []  # the window stack of the latest screen


class Disabled(LookupError):
    """The named control is there but greyed out: it cannot be used now."""


class Covered(LookupError):
    """The named control is behind another window and has no action to use instead."""


@dataclass(frozen=True)
class Wanted:
    """What the caller named: a text, and optionally a role, a window, which of several
    (index) or the one closest to another text (near)."""

    text: str
    role: str | None = None
    window: str | None = None
    index: int | None = None
    near: str | None = None


@dataclass(frozen=True)
class Target:
    """Where a name was found: the physical point, how, and the element when the tree had it."""

    point: tuple[int, int]
    via: str  # "accessibility" or "ocr"
    element: a11y.Element | None = None
    covered_by: str = ""  # the title of the window in front of it, when it is covered


def role_matches(wanted: str, role: str) -> bool:
    """`role="button"` takes push and toggle buttons, `role="entry"` any text field."""
    word = "".join(wanted.casefold().split()).replace("_", "").replace("-", "")
    squashed = role.replace(" ", "")
    return squashed == word or squashed.endswith(word) or role in ROLE_WORDS.get(word, ())


def screen_key(image: Any) -> str:
    """A key of the screen's pixels: the tree read for it stays good while it is the same.
    CRC-32 is three times as fast as a cryptographic hash, and nothing here is adversarial."""
    return f"{zlib.crc32(image.tobytes()):08x}{image.size}"


def stack(screen: str) -> list[dict[str, Any]]:
    """The windows on screen, bottom first, read once per screen content."""
    if _stack and _stack[0][0] == screen:
        return _stack[0][1]
    from assistant.computer import windows

    try:
        found = windows.stacking()
    except Exception:  # no window list here (Wayland, no Xlib): nothing is known covered
        found = []
    _stack[:] = [(screen, found)]
    return found


def _own(element: a11y.Element, stacked: list[dict[str, Any]]) -> int:
    """Where the element's window is in the stack (-1 when it cannot be told)."""
    for position in range(len(stacked) - 1, -1, -1):
        window = stacked[position]
        if window["title"] == element.window and (
                not window["pid"] or not element.pid or window["pid"] == element.pid):
            return position
    return -1


def covering(element: a11y.Element, stacked: list[dict[str, Any]]) -> str:
    """The title of the window in front of the element's centre, or ""."""
    own = _own(element, stacked)
    if own < 0:
        return ""
    x, y = element.center()
    for window in reversed(stacked[own + 1:]):
        if Rect(window["x"], window["y"], window["width"], window["height"]).contains(x, y):
            return str(window["title"]) or "an untitled window"
    return ""


def _view_box(port: Viewport, box: Rect) -> list[int]:
    left, top = port.to_view(box.left, box.top)
    right, bottom = port.to_view(box.left + box.width, box.top + box.height)
    return [left, top, right - left, bottom - top]


def elements(port: Viewport, screen: str, window: str | None = None,
             ) -> list[tuple[a11y.Element, dict[str, Any], str]]:
    """The tree's elements inside the view: each with its text-map item (box in view
    coordinates) and the window covering it. Without `window`, covered ones are left out."""
    found = []
    stacked: list[dict[str, Any]] | None = None
    for element in a11y.elements(window, screen):
        if not port.area.contains(*element.center()):
            continue
        stacked = stack(screen) if stacked is None else stacked
        cover = covering(element, stacked)
        if cover and window is None:
            continue
        item: dict[str, Any] = {"text": element.name, "box": _view_box(port, element.box),
                                "role": element.role}
        found.append((element, item, cover))
    for number, (_, item, _) in enumerate(found, start=1):
        item["id"] = number
    return found


def from_tree(wanted: Wanted, port: Viewport, screen: str) -> Target | None:
    """The element named as `wanted` says, or None when the tree has no such name."""
    found = elements(port, screen, wanted.window)
    if wanted.role is not None:
        found = [entry for entry in found if role_matches(wanted.role, entry[0].role)]
    by_id = {item["id"]: (element, cover) for element, item, cover in found}
    items = [item for _, item, _ in found]
    if not textmatch.find(items, wanted.text):
        return None

    def rank(item: dict[str, Any]) -> tuple[bool, bool]:
        element = by_id[item["id"]][0]
        return not (wanted.role or element.actionable), not element.enabled

    chosen = textmatch.pick(items, wanted.text, index=wanted.index, near=wanted.near, rank=rank)
    element, cover = by_id[chosen["id"]]
    if not element.enabled:
        raise Disabled(f"{element.describe()} is disabled (greyed out): it cannot be used "
                       "now; do what enables it first")
    return Target(element.center(), "accessibility", element, cover)


def _window_rect(window: str, screen: str) -> Rect | None:
    wanted = window.casefold()
    for entry in reversed(stack(screen)):
        if wanted in str(entry["title"]).casefold():
            return Rect(entry["x"], entry["y"], entry["width"], entry["height"])
    return None


def from_ocr(wanted: Wanted, image: Any, port: Viewport, screen: str) -> Target:
    """The text as OCR reads it. With `role`, text inside a window that publishes
    a tree does not count (the tree said no such control is there); with `window`, only
    text inside that window counts."""
    query, role, window = wanted.text, wanted.role, wanted.window
    if wanted.near is not None:
        ocr.read(image, wanted.near)  # cached per screen: the next read keeps what it found
    items = ocr.read(image, query)
    areas = []
    if role is not None:
        titles = {element.window for element in a11y.elements(None, screen)}
        areas = [Rect(w["x"], w["y"], w["width"], w["height"]) for w in stack(screen)
                 if w["title"] in titles]
    inside = _window_rect(window, screen) if window is not None else None

    def allowed(item: dict[str, Any]) -> bool:
        point = port.to_physical(*textmatch.center(item["box"]))
        if inside is not None and not inside.contains(*point):
            return False
        return not any(area.contains(*point) for area in areas)

    try:
        chosen = textmatch.pick([i for i in items if allowed(i)], query, index=wanted.index,
                                near=wanted.near)
    except textmatch.TextNotFound as exc:
        raise textmatch.TextNotFound(_not_found(str(exc), query, role, screen)) from None
    return Target(port.to_physical(*textmatch.center(chosen["box"])), "ocr")


def _not_found(said: str, query: str, role: str | None, screen: str) -> str:
    """The OCR miss, said for a role when one was asked, with how to turn on the tree of
    Chromium and Electron windows (they publish it only when asked to)."""
    if role is not None:
        said = f"no {role} named {query!r} on screen ({said})"
    published = {element.window for element in a11y.elements(None, screen)}
    dark = [w for w in stack(screen) if w["title"] not in published
            and any(name in str(w["class"]).casefold() for name in CHROMIUM)]
    if dark:
        said += (f"; {dark[-1]['title']!r} is a Chromium/Electron window that publishes no "
                 "accessibility tree: start it with --force-renderer-accessibility (or set "
                 "ACCESSIBILITY_ENABLED=1) so its icons and controls can be found by name")
    return said


def locate(wanted: Wanted, port: Viewport, image: Any) -> Target:
    """The tree first, then OCR: `image` is the view as captured now."""
    screen = screen_key(image)
    return from_tree(wanted, port, screen) or from_ocr(wanted, image, port, screen)


def field(name: str, port: Viewport, image: Any) -> a11y.Element:
    """The text field labelled `name`; an error that says why when there is none."""
    screen = screen_key(image)
    found = from_tree(Wanted(name, role="entry"), port, screen)
    if found is None or found.element is None:
        published = bool(a11y.elements(None, screen))
        why = ("" if published else
               ": this screen publishes no accessibility tree (click the field, then write)")
        raise textmatch.TextNotFound(f"no text field named {name!r} on screen{why}")
    return found.element
