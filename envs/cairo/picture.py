"""A picture of one Kairo game (``CairoGame.draw``): the board and a panel per seat.

The board: market cells in sand, the restaurant strip in terracotta, thick lines between the
nine sections (their numbers in the corners); a stall tile filled in its colour with its
owner's seat number (``n`` neutral), the main stall framed in black; an entrance as a
triangle of its colour pointing at its stall; a customer as a disc of its colour with a
dark ring. Beside it: each seat's VP, money (a bar per colour), barkers, hand (cards for the
viewer, a count for the others), medals; the display, the piles and the expansion supply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.cairo.board import NEIGHBOURS
from envs.cairo.data import (
    CARD_TYPE_NAMES,
    COLOUR_NAMES,
    HEIGHT,
    MARKET,
    MONEY_PER_COLOUR,
    NEUTRAL,
    NUM_COLOURS,
    SECTION,
    WIDTH,
)
from envs.cairo.state import CairoState, Stage
from envs.core.draw import INK, Canvas, contrast, edge, seat_title

if TYPE_CHECKING:
    from envs.cairo.game import CairoGame

CELL = 34
MARGIN = 24
PANEL = 330
COLOURS = {"red": (200, 52, 44), "yellow": (236, 196, 48), "green": (76, 166, 84),
           "blue": (48, 96, 186), "white": (236, 236, 230), "purple": (126, 66, 150)}
RGB = [COLOURS[name] for name in COLOUR_NAMES]
SAND, TERRACOTTA = (232, 214, 170), (205, 150, 112)
NUMBERS = (70, 54, 34)  # section numbers: 4.5:1 on sand and terracotta (WCAG AA text)
LEGEND = ("tile: a stall of its colour with its owner's seat number (n: neutral); framed: the "
          "main stall",
          "triangle: an entrance, pointing at its stall | disc: a customer | sand: market, "
          "terracotta: restaurant | small numbers: sections",
          "VP 14 (final 32): victory points now, and with the final scoring (medals, a VP per 3 "
          "coins) | bars: coins of each colour")


def draw(game: CairoGame, state: CairoState, index: int = 0, seat: int | None = None
         ) -> np.ndarray:
    """(H, W, 3) uint8 picture of game ``index``, as ``seat`` sees it (None: everything)."""
    width = 2 * MARGIN + WIDTH * CELL + PANEL
    height = max(2 * MARGIN + HEIGHT * CELL + 40, 560)
    canvas = Canvas(width, height)
    _board(canvas, state, index)
    _panel(canvas, game, state, index, seat, MARGIN * 2 + WIDTH * CELL)
    for k, line in enumerate(LEGEND):
        canvas.text((MARGIN, height - 4 - 16 * (len(LEGEND) - k)), line, size=11,
                    fill=(90, 80, 70))
    return canvas.array()


def _ground(k: int) -> tuple[int, int, int]:
    """The colour of an empty cell: sand in the market, terracotta in the restaurant."""
    return SAND if MARKET[k] else TERRACOTTA


def _cell_box(k: int) -> tuple[float, float, float, float]:
    x, y = MARGIN + (k % WIDTH) * CELL, MARGIN + 30 + (k // WIDTH) * CELL
    return x, y, x + CELL, y + CELL


def _board(canvas: Canvas, state: CairoState, row: int) -> None:
    stage = Stage(int(state.stage[row])).name
    status = ("game over" if state.done[row] else
              f"player_{int(state.current_player[row])} to act")
    canvas.text((MARGIN, 8), f"Kairo, {stage}, turn {int(state.turn[row])}, {status}",
                size=15)
    mains = {int(k) for k in state.stall_cell[row].ravel() if k >= 0}
    for k in range(WIDTH * HEIGHT):
        box = _cell_box(k)
        ground = _ground(k)
        canvas.rect(box, fill=ground, outline=(190, 172, 130))
        tile = int(state.tile[row, k])
        if tile >= 0:
            colour = RGB[tile % NUM_COLOURS]
            inset = (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3)
            main = k in mains
            canvas.rect(inset, fill=colour, outline=INK if main else (90, 80, 70),
                        width=3 if main else 1, radius=4)
            owner = tile // NUM_COLOURS
            canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                        "n" if owner == NEUTRAL else str(owner), fill=contrast(colour),
                        size=14, anchor="mm")
        entrance = int(state.entrance[row, k])
        if entrance >= 0:
            _entrance(canvas, state, row, k, entrance)
    _section_lines(canvas, state, row)
    for colour, k in enumerate(state.customer[row].tolist()):
        if k >= 0:
            _, y0, x1, _ = _cell_box(k)
            canvas.circle((x1 - 9, y0 + 9), 7, fill=RGB[colour], outline=INK, width=2)


def _entrance(canvas: Canvas, state: CairoState, row: int, k: int, group: int) -> None:
    """A triangle pointing from the entrance cell at its stall."""
    owner, colour = divmod(group, NUM_COLOURS)
    stall = int(state.stall_cell[row, owner, colour])
    x0, y0, x1, y1 = _cell_box(k)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    direction = next((d for d in range(4) if NEIGHBOURS[k, d] == stall), 0)
    dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[direction]
    tip = (cx + dx * 13, cy + dy * 13)
    base = [(cx - dy * 11 - dx * 9, cy + dx * 11 - dy * 9),
            (cx + dy * 11 - dx * 9, cy - dx * 11 - dy * 9)]
    # A light entrance on sand (white, yellow) gets a thick dark rim: WCAG's 3:1 for shapes.
    line, width = edge(RGB[colour], _ground(k))
    canvas.polygon([tip, *base], fill=RGB[colour], outline=line, width=width)


def _section_lines(canvas: Canvas, state: CairoState, row: int) -> None:
    grid = SECTION.reshape(HEIGHT, WIDTH)
    for y in range(HEIGHT):
        for x in range(WIDTH):
            x0, y0, x1, y1 = _cell_box(y * WIDTH + x)
            if x + 1 < WIDTH and grid[y, x] != grid[y, x + 1]:
                canvas.line([(x1, y0), (x1, y1)], width=3)
            if y + 1 < HEIGHT and grid[y, x] != grid[y + 1, x]:
                canvas.line([(x0, y1), (x1, y1)], width=3)
    for section in range(9):
        k = int(np.flatnonzero(section == SECTION)[0])
        x0, y0, _, _ = _cell_box(k)
        tile = int(state.tile[row, k])
        ink = contrast(RGB[tile % NUM_COLOURS]) if tile >= 0 else NUMBERS
        canvas.text((x0 + 2, y0 + 1), str(section), fill=ink, size=10)


def _panel(canvas: Canvas, game: CairoGame, state: CairoState, row: int, seat: int | None,
           left: int) -> None:
    y = MARGIN
    scores = game.scores(state.take(row))[0]
    sees_money = game.options["reveal_money"]
    for p in range(game.num_players):
        acting = not state.done[row] and int(state.current_player[row]) == p
        canvas.text((left, y), seat_title(state, row, p, seat), size=14,
                    fill=(150, 30, 30) if acting else INK)
        canvas.text((left + 200, y), f"VP {int(state.vp[row, p])} (final {int(scores[p])})",
                    size=12)
        y += 20
        if sees_money or seat is None or seat == p:
            for c in range(NUM_COLOURS):
                amount = int(state.money[row, p, c])
                x = left + c * 50
                canvas.rect((x, y, x + 44, y + 10), fill=(225, 218, 200))
                canvas.rect((x, y, x + 44 * amount / MONEY_PER_COLOUR, y + 10), fill=RGB[c])
                canvas.text((x + 22, y + 12), str(amount), size=10, anchor="ma")
        else:
            canvas.text((left, y), "money hidden", size=11)
        y += 28
        hand = state.hand[row, p]
        cards = (" ".join(f"{CARD_TYPE_NAMES[t]}x{int(n)}" for t, n in enumerate(hand) if n)
                 if seat is None or seat == p else f"{int(hand.sum())} cards") or "-"
        # Grouped by kind, so that twelve medals still fit the panel's width.
        medals = " | ".join(
            f"{kind} " + " ".join(COLOUR_NAMES[c] for c in range(NUM_COLOURS)
                                  if state.medal[row, c, k] == p)
            for k, kind in enumerate(("gold", "silver")) if (state.medal[row, :, k] == p).any())
        canvas.text((left, y), f"hand {cards} | barkers {int(state.barkers[row, p])}", size=11)
        canvas.text((left, y + 14), f"medals {medals or '-'}", size=11)
        y += 40
    display = " ".join(CARD_TYPE_NAMES[c] if c >= 0 else "--" for c in state.display[row])
    canvas.text((left, y), f"display {display}", size=12)
    canvas.text((left, y + 18), f"draw pile {int(state.deck_size[row])} | discard "
                f"{int(state.discard[row].sum())}", size=12)
    y += 44
    canvas.text((left, y), "expansions left", size=12)
    for c in range(NUM_COLOURS):
        x = left + c * 50
        canvas.rect((x, y + 18, x + 40, y + 38), fill=RGB[c], outline=INK, radius=3)
        canvas.text((x + 20, y + 28), str(int(state.supply[row, c])), fill=contrast(RGB[c]),
                    size=12, anchor="mm")
