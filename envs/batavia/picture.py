"""A picture of one Batavia game (``BataviaGame.draw``): the route, the warehouses and a
panel per seat.

The route: seven blocks of five spaces from the start to the goal; a face-up trading post is
a square in its company's colour with its good's initials, a face-down tile a grey square
(``?``; the full view shows its post framed in grey), a taken space an empty outline.
Merchants are discs with their seat number under the space they stand on. The warehouses: a
grid of goods by companies, each square holding the seat number of the crate standing there.
Beside it: the round, the ship, the cannon against the pirate threshold, the lot and the
auction; each seat's coins, gold, hand (cards for the viewer, a count and the known cards for
the others), display, seals, posts and crates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.batavia.data import (
    BLOCK,
    COMPANY_NAMES,
    GOAL_SPACE,
    GOOD_NAMES,
    NUM_COMPANIES,
    NUM_GOODS,
    NUM_SPACES,
    TILE_COMPANY,
    TILE_GOOD,
)
from envs.batavia.render import status_text
from envs.batavia.state import BataviaState, Phase
from envs.core.draw import INK, Canvas, contrast, seat_title
from envs.core.names import seat_name

if TYPE_CHECKING:
    from envs.batavia.game import BataviaGame

CELL = 40
MARGIN = 24
PANEL = 470
ROUTE_TOP = 70
COMPANY_RGB = [(200, 52, 44), (236, 196, 48), (48, 96, 186), (236, 128, 40), (76, 166, 84)]
SEAT_RGB = [(150, 30, 30), (30, 90, 150), (40, 120, 50), (120, 60, 140), (90, 80, 70)]
FACE_DOWN, TAKEN = (170, 166, 158), (232, 226, 210)
LEGEND = ("square: a trading post in its company's colour with its good | grey ?: face down"
          " | outline: taken | disc: a merchant with its seat",
          "warehouses: the seat whose crate stands on the square | companies: "
          + ", ".join(f"{n}" for n in COMPANY_NAMES))


def draw(game: BataviaGame, state: BataviaState, index: int = 0, seat: int | None = None
         ) -> np.ndarray:
    """(H, W, 3) uint8 picture of game ``index``, as ``seat`` sees it (None: everything)."""
    route = CELL + 2 * BLOCK * CELL + CELL // 2
    width = 2 * MARGIN + route + PANEL
    height = 620
    canvas = Canvas(width, height)
    _title(canvas, game, state, index, seat)
    _route(canvas, state, index, seat is None)
    _warehouses(canvas, state, index, ROUTE_TOP + 4 * (CELL + 34) + 10)
    _panel(canvas, game, state, index, seat, MARGIN * 2 + route)
    for k, line in enumerate(LEGEND):
        canvas.text((MARGIN, height - 36 + 16 * k), line, size=11, fill=(90, 80, 70))
    return canvas.array()


def _title(canvas: Canvas, game: BataviaGame, state: BataviaState, row: int,
           seat: int | None) -> None:
    status = status_text(state, row)
    final = ", final round" if state.final[row] else ""
    view = f" | view of {seat_name(seat)}" if seat is not None else ""
    canvas.text((MARGIN, 8), f"Batavia {game.num_players}p, round {int(state.round[row])}"
                f"{final}, {status}{view}", size=15)
    canvas.text((MARGIN, 30), f"open spaces 1-{int(state.open[row])} | goal tile "
                + (f"taken by {seat_name(int(state.goal_holder[row]))}"
                   if state.goal_holder[row] >= 0 else "on the goal space"), size=12)


def _space_box(space: int) -> tuple[float, float, float, float]:
    """Space 0 (start) .. 36 (goal): four lines of two blocks, the start before block 1 and
    the goal after block 7."""
    if space == 0:
        return MARGIN, ROUTE_TOP, MARGIN + CELL - 4, ROUTE_TOP + CELL - 4
    block, slot = divmod(space - 1, BLOCK)  # the goal is block 7's right neighbour
    line, half = divmod(block, 2)
    x = MARGIN + CELL + half * (BLOCK * CELL + CELL // 2) + slot * CELL
    y = ROUTE_TOP + line * (CELL + 34)
    return x, y, x + CELL - 4, y + CELL - 4


def _route(canvas: Canvas, state: BataviaState, row: int, full: bool) -> None:
    opened = int(state.open[row])
    for space in (0, GOAL_SPACE):
        box = _space_box(space)
        canvas.rect(box, fill=(210, 190, 150), outline=INK, radius=4)
        canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                    "start" if space == 0 else "goal", size=10, anchor="mm")
    for space in range(1, NUM_SPACES + 1):
        box = _space_box(space)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        canvas.text((box[0], box[1] - 12), str(space), size=9, fill=(70, 54, 34))
        tile = int(state.route[row, space - 1])
        if tile < 0:
            canvas.rect(box, fill=TAKEN, outline=(190, 172, 130))
        elif space <= opened or full:
            colour = COMPANY_RGB[TILE_COMPANY[tile]]
            shown = space <= opened
            canvas.rect(box, fill=colour, outline=INK if shown else FACE_DOWN,
                        width=1 if shown else 4, radius=3)
            canvas.text(centre, GOOD_NAMES[TILE_GOOD[tile]][:3], fill=contrast(colour),
                        size=11, anchor="mm")
        else:
            canvas.rect(box, fill=FACE_DOWN, outline=INK, radius=3)
            canvas.text(centre, "?", size=14, anchor="mm")
    at: dict[int, int] = {}
    for p, space in enumerate(state.pos[row].tolist()):
        x0, _, _, y1 = _space_box(int(space))
        k = at.get(int(space), 0)
        at[int(space)] = k + 1
        centre = (x0 + 6 + (k % 3) * 12, y1 + 7 + (k // 3) * 12)
        canvas.circle(centre, 5, fill=SEAT_RGB[p], outline=INK)
        canvas.text(centre, str(p), fill=(255, 255, 255), size=8, anchor="mm")


def _warehouses(canvas: Canvas, state: BataviaState, row: int, top: int) -> None:
    left = MARGIN + 80
    canvas.text((MARGIN, top), "warehouses", size=12)
    for c in range(NUM_COMPANIES):
        x = left + c * 36
        canvas.rect((x, top, x + 32, top + 14), fill=COMPANY_RGB[c])
        canvas.text((x + 16, top + 7), COMPANY_NAMES[c], fill=contrast(COMPANY_RGB[c]),
                    size=10, anchor="mm")
    for g in range(NUM_GOODS):
        y = top + 18 + g * 18
        canvas.text((MARGIN, y + 2), GOOD_NAMES[g], size=11)
        for c in range(NUM_COMPANIES):
            x = left + c * 36
            owner = int(state.warehouse[row, g, c])
            canvas.rect((x, y, x + 32, y + 15), fill=SEAT_RGB[owner] if owner >= 0 else TAKEN,
                        outline=(190, 172, 130))
            if owner >= 0:
                canvas.text((x + 16, y + 8), str(owner), fill=(255, 255, 255), size=10,
                            anchor="mm")


def _counts(counts: np.ndarray) -> str:
    return " ".join(f"{COMPANY_NAMES[c]}{int(n)}" for c, n in enumerate(counts) if n) or "-"


def _panel(canvas: Canvas, game: BataviaGame, state: BataviaState, row: int,
           seat: int | None, left: int) -> None:
    y = ROUTE_TOP - 16  # below the title line, which may run into the panel's column
    lot = _counts(state.lot[row]) + (" (carried over)" if state.carried[row] else "")
    lines = [f"ship: {seat_name(int(state.ship[row]))} | die {int(state.die[row]) or '-'}",
             f"cannon {int(state.cannon[row])}/{game.threshold} | cubes "
             f"{_counts(state.cubes[row])}",
             f"draw pile {int(state.deck_size[row])} | discard {_counts(state.discard[row])}",
             f"lot {lot}"]
    if state.phase[row] == Phase.AUCTION_BID and not state.done[row]:
        bidder = int(state.high_bidder[row])
        lines.append(f"high bid {int(state.high_bid[row])}"
                     + (f" by {seat_name(bidder)}" if bidder >= 0 else "")
                     + f" | passed {np.flatnonzero(state.passed[row]).tolist()}")
    for line in lines:
        canvas.text((left, y), line, size=12)
        y += 17
    y += 8
    total = game.scores(state.take(row))[0]
    for p in range(game.num_players):
        acting = not state.done[row] and int(state.current_player[row]) == p
        canvas.circle((left + 6, y + 7), 6, fill=SEAT_RGB[p], outline=INK)
        canvas.text((left + 18, y), seat_title(state, row, p, seat), size=14,
                    fill=SEAT_RGB[p] if acting else INK)
        canvas.text((left + 220, y + 2), f"coins {int(state.coins[row, p])} | gold "
                    f"{int(state.gold[row, p])} (score {int(total[p])})", size=12)
        hand = state.hand[row, p]
        hand_text = (_counts(hand) if seat is None or seat == p else
                     f"{int(hand.sum())} cards (known {_counts(state.known[row, p])})")
        seals = " ".join(COMPANY_NAMES[c] for c in np.flatnonzero(state.seal[row] == p))
        canvas.text((left, y + 18), f"hand {hand_text}", size=11)
        canvas.text((left, y + 32), f"display {_counts(state.display[row, p])} | seals "
                    f"{seals or '-'}", size=11)
        canvas.text((left, y + 46), f"posts {_counts(state.posts[row, p])} | crates "
                    f"{int(state.crates[row, p])}", size=11)
        y += 66
