"""Pictures of boards: a small drawing surface every game's ``draw`` paints on.

The drawing library is Pillow (``PIL.ImageDraw``): it is well kept, small (a few MB, no GUI
toolkit or display), draws straight into memory and hands the pixels to NumPy, and its
bundled FreeType font needs no system fonts. It is an optional extra (``pip install
'tradewinds[render]'``); only ``draw`` needs it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

Colour = tuple[int, int, int]
INK: Colour = (40, 36, 32)
PAPER: Colour = (246, 241, 228)


def _pillow():
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as err:  # pragma: no cover - Pillow ships with the [render] extra
        raise ImportError("pictures of boards need Pillow: pip install 'tradewinds[render]'"
                          ) from err
    return Image, ImageDraw, ImageFont


class Canvas:
    """An RGB picture being drawn; coordinates in pixels, origin top left."""

    def __init__(self, width: int, height: int, background: Colour = PAPER):
        image, draw, self._fonts = _pillow()
        self.image = image.new("RGB", (int(width), int(height)), background)
        self._draw = draw.Draw(self.image)
        self._font_cache: dict[int, object] = {}

    def font(self, size: int):
        if size not in self._font_cache:
            self._font_cache[size] = self._fonts.load_default(size=size)
        return self._font_cache[size]

    def rect(self, box: tuple[float, float, float, float], fill: Colour | None = None,
             outline: Colour | None = None, width: int = 1, radius: int = 0) -> None:
        """A rectangle ``(x0, y0, x1, y1)``, rounded when ``radius``."""
        if radius:
            self._draw.rounded_rectangle(box, radius, fill=fill, outline=outline, width=width)
        else:
            self._draw.rectangle(box, fill=fill, outline=outline, width=width)

    def circle(self, centre: tuple[float, float], radius: float, fill: Colour | None = None,
               outline: Colour | None = None, width: int = 1) -> None:
        x, y = centre
        self._draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill,
                           outline=outline, width=width)

    def polygon(self, points: list[tuple[float, float]], fill: Colour | None = None,
                outline: Colour | None = None) -> None:
        self._draw.polygon(points, fill=fill, outline=outline)

    def line(self, points: list[tuple[float, float]], fill: Colour = INK, width: int = 1
             ) -> None:
        self._draw.line(points, fill=fill, width=width)

    def text(self, xy: tuple[float, float], text: str, fill: Colour = INK, size: int = 12,
             anchor: str = "la") -> None:
        """Text at ``xy``; ``anchor`` as Pillow's (``"mm"``: centred on the point)."""
        self._draw.text(xy, text, fill=fill, font=self.font(size), anchor=anchor)

    def array(self) -> np.ndarray:
        """(H, W, 3) uint8."""
        return np.asarray(self.image, dtype=np.uint8).copy()


def save_png(picture: np.ndarray, path: str | Path) -> Path:
    """Write an (H, W, 3) uint8 picture (a game's ``draw``) as a PNG file."""
    image, _, _ = _pillow()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.fromarray(np.asarray(picture, dtype=np.uint8)).save(path)
    return path


def contrast(colour: Colour) -> Colour:
    """Ink that reads on ``colour`` (dark on light, light on dark)."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (250, 250, 250)
