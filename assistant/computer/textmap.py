"""The text map: every text and named control on screen, the accessibility tree first.

A window that publishes its tree (GTK, Qt, Firefox, Chromium with accessibility on)
gives its texts and controls exactly, in milliseconds; OCR reads only what is left, the
parts of the screen where no such window is in front (Tk, games, remote desktops, the
desktop itself). Reading a whole screen by OCR took seconds on two cores; a screen of
published windows now costs the tree's read.
"""

from __future__ import annotations

from typing import Any

from assistant.computer import a11y, ocr, textmatch, widgets
from assistant.computer.coords import Rect, Viewport

BLANK = "#808080"  # one flat colour: OCR finds no text band in it


def text_map(port: Viewport, image: Any) -> list[dict[str, Any]]:
    """Items {"id", "text", "box": [x, y, w, h] in view coordinates, "score"} in reading
    order; "role" where the tree tells, and "source": "accessibility" for its items."""
    screen = widgets.screen_key(image)
    found = widgets.elements(port, screen)
    if not found:
        return ocr.read(image)
    published = {element.window for element, _, _ in found}
    items = [dict(item) for item in ocr.read(_unpublished(port, image, screen, published))]
    for element, item, _ in found:
        items.append({"text": element.name, "box": item["box"], "score": 1.0,
                      "role": element.role, "source": "accessibility"})
    items = _once(items)
    order = {id(box): n for n, box in enumerate(ocr.reading_order([i["box"] for i in items]))}
    items.sort(key=lambda item: order[id(item["box"])])
    for number, item in enumerate(items, start=1):
        item["id"] = number
    return items


def _unpublished(port: Viewport, image: Any, screen: str, published: set[str]) -> Any:
    """`image` with the parts where a published window is in front painted flat: windows
    are painted bottom to top, each published one flat and each other one as it is."""
    from PIL import Image, ImageDraw

    mask = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(mask)
    for window in widgets.stack(screen):
        box = Rect(window["x"], window["y"], window["width"], window["height"])
        left, top = port.to_view(box.left, box.top)
        right, bottom = port.to_view(box.left + box.width, box.top + box.height)
        draw.rectangle((left, top, right - 1, bottom - 1),
                       fill=255 if window["title"] in published else 0)
    flat = Image.new(image.mode, image.size, BLANK)
    return Image.composite(flat, image, mask)


def _once(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One item per text where the tree nests it (a link and its text, a heading and its
    text, a page and its title): the control a person uses, else the smallest."""
    kept: list[dict[str, Any]] = []
    for item in sorted(items, key=_rank):
        centre = textmatch.center(item["box"])
        if not any(other["text"].casefold() == item["text"].casefold()
                   and (Rect(*other["box"]).contains(*centre)
                        or Rect(*item["box"]).contains(*textmatch.center(other["box"])))
                   for other in kept):
            kept.append(item)
    return kept


def _rank(item: dict[str, Any]) -> tuple[bool, int]:
    box = item["box"]
    return item.get("role") not in a11y.ACTIONABLE, box[2] * box[3]
