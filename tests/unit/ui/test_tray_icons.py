"""The tray icons: one distinct look per state, at the size asked for, and the committed
application icons are what the drawing code draws today."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from assistant.ui.tray import STATES
from assistant.ui.tray_icons import APP_ICON_SIZES, COLOURS, draw_icon, write_app_icons

ROOT = Path(__file__).resolve().parents[3]


def test_every_state_has_its_own_image() -> None:
    images = {state: draw_icon(state).tobytes() for state in STATES}
    assert len(set(images.values())) == len(STATES)


@pytest.mark.parametrize("size", [16, 22, 64, 256])
def test_the_requested_size_with_a_transparent_corner(size: int) -> None:
    for state in STATES:
        image = draw_icon(state, size)
        assert image.size == (size, size) and image.mode == "RGBA"
        assert image.getpixel((0, 0))[3] == 0


def test_the_state_colour_fills_the_icon() -> None:
    for state in STATES:
        background = COLOURS[state][0]
        expected = tuple(int(background[i:i + 2], 16) for i in (1, 3, 5))
        assert draw_icon(state, 64).getpixel((7, 32))[:3] == expected, state


def test_glyphs_differ_even_at_tray_size() -> None:
    """At 16 px the glyph still changes the picture, not only the colour."""
    for state in STATES:
        image = draw_icon(state, 16)
        assert len(image.getcolors(256) or []) > 4, f"{state} is a plain disc at 16 px"


def test_bad_input_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="one of idle"):
        draw_icon("sleeping")
    with pytest.raises(ValueError, match="8 pixels"):
        draw_icon("idle", 4)


def test_committed_app_icons_match_the_drawing(tmp_path: Path) -> None:
    fresh = write_app_icons(tmp_path)
    assert [path.parent.parent.name for path in fresh] == [f"{n}x{n}" for n in APP_ICON_SIZES]
    for path in fresh:
        committed = ROOT / "packaging" / "icons" / path.relative_to(tmp_path)
        assert committed.exists(), "write it: python -m assistant.ui.tray_icons packaging/icons"
        old, new = Image.open(committed).convert("RGBA"), Image.open(path).convert("RGBA")
        assert old.size == new.size
        difference = ImageStat.Stat(ImageChops.difference(old, new)).mean
        assert max(difference) < 2, f"{committed} is stale: python -m assistant.ui.tray_icons"
