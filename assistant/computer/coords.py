"""Coordinates: the screen as the LLM sees it (scaled) and as the pixels really are.

A Viewport is the physical rectangle an image shows (origins may be negative on
multi-monitor layouts) and the factor it was scaled by. Points the LLM gives are in the
image's own pixels; they are checked against the image's size (the space they were
given in), then mapped to physical pixels.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

DEFAULT_MAX_SIDE = 1280


@dataclass(frozen=True)
class Rect:
    """A physical rectangle: left and top may be negative (a monitor left of the primary)."""

    left: int
    top: int
    width: int
    height: int

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x < self.left + self.width and self.top <= y < self.top + self.height


def fit_scale(width: int, height: int, max_side: int) -> float:
    """The factor that brings the longest side down to max_side (never enlarges)."""
    if max_side <= 0:
        raise ValueError(f"max_side must be positive, got {max_side}")
    return min(1.0, max_side / max(width, height))


def bounding(rects: list[Rect]) -> Rect:
    """The rectangle around several monitors (the virtual screen)."""
    left = min(r.left for r in rects)
    top = min(r.top for r in rects)
    right = max(r.left + r.width for r in rects)
    bottom = max(r.top + r.height for r in rects)
    return Rect(left, top, right - left, bottom - top)


@dataclass(frozen=True)
class Viewport:
    """A physical rectangle shown to the LLM as an image `scale` times its size."""

    area: Rect
    scale: float

    @classmethod
    def fit(cls, area: Rect, max_side: int = DEFAULT_MAX_SIDE) -> Viewport:
        return cls(area, fit_scale(area.width, area.height, max_side))

    @property
    def size(self) -> tuple[int, int]:
        """The image's size in its own pixels: the space the LLM's coordinates are in."""
        width, height = round(self.area.width * self.scale), round(self.area.height * self.scale)
        return max(1, width), max(1, height)

    def to_physical(self, x: float, y: float) -> tuple[int, int]:
        """Map a point of the image to a physical pixel; outside the image is an error."""
        width, height = self.size
        if not (0 <= x < width and 0 <= y < height):
            raise ValueError(
                f"point ({x:g}, {y:g}) is outside the screen, which is {width}x{height}: "
                "use coordinates from the latest screenshot"
            )
        # The centre of the physical pixels that the image pixel covers.
        px = self.area.left + int((x + 0.5) / self.scale)
        py = self.area.top + int((y + 0.5) / self.scale)
        right, bottom = self.area.left + self.area.width - 1, self.area.top + self.area.height - 1
        return min(px, right), min(py, bottom)

    def to_view(self, px: float, py: float) -> tuple[int, int]:
        """Map a physical pixel into the image's space (it may fall outside the image)."""
        return round((px - self.area.left) * self.scale), round((py - self.area.top) * self.scale)

    def to_dict(self) -> dict[str, Any]:
        return {"area": asdict(self.area), "scale": self.scale}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Viewport:
        return cls(Rect(**data["area"]), float(data["scale"]))
