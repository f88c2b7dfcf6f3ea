"""The tray icon, drawn with Pillow: one colour and one glyph per state, legible at 16 px.

Drawn, not shipped as files, so every size is sharp and a new state is a few lines. The
application icons in packaging/icons are the idle look, written by `write_app_icons`:

    python -m assistant.ui.tray_icons packaging/icons
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

# (background, glyph colour) per state: hues far apart, so the state reads at a glance.
COLOURS: dict[str, tuple[str, str]] = {
    "idle": ("#546e7a", "#ffffff"),
    "listening": ("#e53935", "#ffffff"),
    "transcribing": ("#fb8c00", "#ffffff"),
    "thinking": ("#8e24aa", "#ffffff"),
    "awaiting_approval": ("#fdd835", "#212121"),
    "running": ("#43a047", "#ffffff"),
    "speaking": ("#1e88e5", "#ffffff"),
    "error": ("#212121", "#ff5252"),
}
APP_ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)
_SUPERSAMPLE = 4  # drawn large and scaled down: smooth edges without an antialiasing API

Glyph = Callable[[Any, float, str], None]  # (ImageDraw, unit = size / 100, colour)


def _idle(draw: Any, u: float, ink: str) -> None:
    """A calm ring."""
    draw.ellipse((32 * u, 32 * u, 68 * u, 68 * u), outline=ink, width=round(7 * u))


def _microphone(draw: Any, u: float, ink: str) -> None:
    draw.rounded_rectangle((39 * u, 20 * u, 61 * u, 58 * u), radius=11 * u, fill=ink)
    draw.arc((29 * u, 34 * u, 71 * u, 70 * u), 0, 180, fill=ink, width=round(5 * u))
    draw.line((50 * u, 70 * u, 50 * u, 80 * u), fill=ink, width=round(5 * u))
    draw.line((39 * u, 81 * u, 61 * u, 81 * u), fill=ink, width=round(5 * u))


def _text_lines(draw: Any, u: float, ink: str) -> None:
    """Lines of text: speech becoming words."""
    for top, right in ((30, 72), (46, 72), (62, 58)):
        draw.rounded_rectangle((28 * u, top * u, right * u, (top + 8) * u), radius=4 * u,
                               fill=ink)


def _dots(draw: Any, u: float, ink: str) -> None:
    for centre in (30, 50, 70):
        draw.ellipse(((centre - 7) * u, 43 * u, (centre + 7) * u, 57 * u), fill=ink)


def _question(draw: Any, u: float, ink: str) -> None:
    width = round(9 * u)
    draw.arc((33 * u, 18 * u, 67 * u, 52 * u), 200, 90, fill=ink, width=width)
    draw.line((50 * u, 48 * u, 50 * u, 63 * u), fill=ink, width=width)
    draw.ellipse((44 * u, 70 * u, 56 * u, 82 * u), fill=ink)


def _play(draw: Any, u: float, ink: str) -> None:
    draw.polygon(((38 * u, 27 * u), (38 * u, 73 * u), (75 * u, 50 * u)), fill=ink)


def _sound_waves(draw: Any, u: float, ink: str) -> None:
    """A speaker with two waves."""
    draw.polygon(((24 * u, 42 * u), (34 * u, 42 * u), (48 * u, 29 * u), (48 * u, 71 * u),
                  (34 * u, 58 * u), (24 * u, 58 * u)), fill=ink)
    width = round(5 * u)
    draw.arc((42 * u, 36 * u, 62 * u, 64 * u), -50, 50, fill=ink, width=width)
    draw.arc((44 * u, 25 * u, 78 * u, 75 * u), -50, 50, fill=ink, width=width)


def _exclamation(draw: Any, u: float, ink: str) -> None:
    draw.rounded_rectangle((43 * u, 18 * u, 57 * u, 62 * u), radius=6 * u, fill=ink)
    draw.ellipse((43 * u, 68 * u, 57 * u, 82 * u), fill=ink)


GLYPHS: dict[str, Glyph] = {
    "idle": _idle,
    "listening": _microphone,
    "transcribing": _text_lines,
    "thinking": _dots,
    "awaiting_approval": _question,
    "running": _play,
    "speaking": _sound_waves,
    "error": _exclamation,
}


def draw_icon(state: str, size: int = 64) -> Any:
    """The tray icon for `state` as a square RGBA PIL image of `size` pixels."""
    if state not in GLYPHS:
        raise ValueError(f"unknown state {state!r}: one of {', '.join(GLYPHS)}")
    if size < 8:
        raise ValueError(f"icon size {size} is too small: use 8 pixels or more")
    from PIL import Image, ImageDraw

    big = size * _SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    background, ink = COLOURS[state]
    margin = big * 0.03
    draw.ellipse((margin, margin, big - margin, big - margin), fill=background)
    GLYPHS[state](draw, big / 100, ink)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def write_app_icons(folder: Path) -> list[Path]:
    """Write the application icon (the idle look) as hicolor/<n>x<n>/apps/assistant.png."""
    written = []
    for size in APP_ICON_SIZES:
        path = folder / "hicolor" / f"{size}x{size}" / "apps" / "assistant.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        draw_icon("idle", size).save(path, optimize=True)
        written.append(path)
    return written


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m assistant.ui.tray_icons FOLDER (e.g. packaging/icons)")
    for written_path in write_app_icons(Path(sys.argv[1])):
        print(written_path)
