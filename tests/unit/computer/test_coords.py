"""Mapping between the scaled image the LLM sees and physical pixels."""

from __future__ import annotations

import pytest

from assistant.computer.coords import Rect, Viewport, bounding, fit_scale


def test_a_screen_within_the_limit_is_not_scaled() -> None:
    port = Viewport.fit(Rect(0, 0, 1280, 800), 1280)
    assert port.scale == 1.0 and port.size == (1280, 800)
    assert port.to_physical(0, 0) == (0, 0)
    assert port.to_physical(1279, 799) == (1279, 799)


def test_hidpi_screen_is_halved_and_points_map_back_to_the_centre_of_their_pixels() -> None:
    port = Viewport.fit(Rect(0, 0, 2560, 1600), 1280)
    assert port.scale == 0.5 and port.size == (1280, 800)
    assert port.to_physical(100, 50) == (201, 101)
    assert port.to_view(201, 101) == (100, 50)
    assert port.to_physical(1279, 799) == (2559, 1599)


def test_bounds_are_checked_in_the_space_the_point_was_given_in() -> None:
    port = Viewport.fit(Rect(0, 0, 2560, 1600), 1280)
    # 1300 is inside the physical screen but outside the 1280-wide image the LLM saw.
    with pytest.raises(ValueError, match="outside the screen, which is 1280x800"):
        port.to_physical(1300, 10)
    with pytest.raises(ValueError, match="outside"):
        port.to_physical(-1, 10)


def test_a_monitor_left_of_the_primary_has_a_negative_origin() -> None:
    left = Rect(-1920, -200, 1920, 1080)
    port = Viewport.fit(left, 1280)
    assert port.size == (1280, 720)
    assert port.to_physical(0, 0) == (-1920, -200)
    x, y = port.to_physical(640, 360)
    assert left.contains(x, y) and (x, y) == (-960, 340)
    assert port.to_view(x, y) == (640, 360)


def test_odd_scales_stay_inside_the_monitor() -> None:
    port = Viewport.fit(Rect(1280, 0, 3000, 2000), 1280)
    width, height = port.size
    assert max(width, height) == 1280
    for x, y in [(0, 0), (width - 1, height - 1), (width / 2, height / 3)]:
        assert port.area.contains(*port.to_physical(x, y))


def test_fit_scale_never_enlarges_and_bounding_spans_all_monitors() -> None:
    assert fit_scale(800, 600, 1280) == 1.0
    assert fit_scale(3840, 2160, 1920) == 0.5
    with pytest.raises(ValueError):
        fit_scale(800, 600, 0)
    assert bounding([Rect(0, 0, 1280, 800), Rect(-1024, 100, 1024, 768)]) == Rect(
        -1024, 0, 2304, 868)


def test_viewport_round_trips_through_its_dict() -> None:
    port = Viewport.fit(Rect(-10, 5, 2000, 1000), 1000)
    assert Viewport.from_dict(port.to_dict()) == port
