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
                outline: Colour | None = None, width: int = 1) -> None:
        self._draw.polygon(points, fill=fill, outline=outline, width=width)

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


LIGHT_INK: Colour = (255, 255, 255)
TEXT_CONTRAST = 4.5  # WCAG 2 AA, normal text: the least ratio of text to its background
GRAPHIC_CONTRAST = 3.0  # WCAG 2 AA, graphical objects (1.4.11) and large text


def luminance(colour: Colour) -> float:
    """WCAG 2 relative luminance of an sRGB colour, 0 (black) to 1 (white)."""
    channels = [c / 255 for c in colour]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(a: Colour, b: Colour) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (the same) to 21 (black on white)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def contrast(colour: Colour) -> Colour:
    """Ink that reads on ``colour``: the dark ink or white, whichever contrasts more."""
    return max((INK, LIGHT_INK), key=lambda ink: contrast_ratio(ink, colour))


def edge(colour: Colour, background: Colour) -> tuple[Colour, int]:
    """The outline (colour, width in pixels) that sets a shape of ``colour`` off
    ``background``: a thin dark line when the fill itself stands out by WCAG's 3:1 for
    shapes, else a line of 2 pixels in the ink that stands out from the background (a white
    entrance on sand gets a dark rim)."""
    if contrast_ratio(colour, background) >= GRAPHIC_CONTRAST:
        return INK, 1
    return contrast(background), 2


def places(state, row: int) -> list[int] | None:
    """Each seat's place (1 = winner; equal rank rewards share a place) in the finished game
    of ``row``; None while it goes on."""
    if not state.done[row]:
        return None
    rewards = np.asarray(state.rewards[row])
    return [1 + int((rewards > reward).sum()) for reward in rewards]


def seat_title(state, row: int, seat: int, viewer: int | None) -> str:
    """A seat's heading in a picture: ``player_1 (you) to act`` during the game,
    ``player_2 - winner`` or ``player_0 - 3rd place`` once it is over."""
    title = f"player_{seat}" + (" (you)" if viewer == seat else "")
    place = places(state, row)
    if place is None:
        return title + (" to act" if int(state.current_player[row]) == seat else "")
    tied = " (tied)" if place.count(place[seat]) > 1 else ""
    if place[seat] == 1:
        return f"{title} - winner{tied}"
    ordinal = {2: "2nd", 3: "3rd"}.get(place[seat], f"{place[seat]}th")
    return f"{title} - {ordinal} place{tied}"


def caption(picture: np.ndarray, lines: list[str], size: int = 13) -> np.ndarray:
    """``picture`` with a band of text lines added below it (seats, agents, the winner)."""
    width = picture.shape[1]
    band = Canvas(width, 10 + (size + 6) * len(lines))
    for k, line in enumerate(lines):
        band.text((12, 6 + (size + 6) * k), line, size=size)
    return np.concatenate([np.asarray(picture, dtype=np.uint8), band.array()], axis=0)
