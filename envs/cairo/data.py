"""Kairo's tables: board geometry, sections, start cells, cards, medals and component counts.

Every value cites the rules spec (``docs/rules/cairo.md``); the ones the spec marks
[DESIGNED] live only here, so a correction of the real value is a one-line change.

Board (§2.7, [DESIGNED] grid): 14 × 13 cells, flat index ``k = 14*y + x``::

    y\\x   0  1  2  3  4  5  6  7  8  9 10 11 12 13
      0  R0 *0  0  0  0  1  1  1  1  2  2  2 *2 R2
      ..  market x = 1..12, y = 0..11 in 4 × 4 sections ..
      11 R6 *6  6  6  6  7  7  7  7  8  8  8 *8 R8
      12 R6 R6 R6 R6 R6 R7 R7 R7 R7 R8 R8 R8 R8 R8

``Rn`` is a restaurant cell of section n, ``*n`` a customer start cell.
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- colours and players (§2.6)
NUM_COLOURS = 6
COLOUR_NAMES = ("red", "yellow", "green", "blue", "white", "purple")
COLOUR_LETTERS = "rygbwp"
PURPLE = 5  # the restaurant colour [SEED]
NUM_OWNERS = 5  # owner slots: seats 0..3 and the neutral set
NEUTRAL = 4  # owner slot of the 2-player neutral stalls (§5.9.2)

# ---------------------------------------------------------------- board geometry (§2.7)
WIDTH = 14
HEIGHT = 13
NUM_CELLS = WIDTH * HEIGHT  # 182
NUM_SECTIONS = 9
SECTION_SIDE = 4  # [DESIGNED] 4 × 4 market cells per section
DIRECTIONS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N, E, S, W (the DIR_d actions, §9.1)
DIRECTION_NAMES = ("N", "E", "S", "W")


def _geometry() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Market mask, restaurant mask and section id of every cell (§2.7)."""
    market = np.zeros(NUM_CELLS, dtype=bool)
    section = np.zeros(NUM_CELLS, dtype=np.int8)
    for y in range(HEIGHT):
        for x in range(WIDTH):
            k = WIDTH * y + x
            if 1 <= x <= 12 and y <= 11:
                market[k] = True
                section[k] = 3 * (y // SECTION_SIDE) + (x - 1) // SECTION_SIDE
            elif x == 0:  # west strip; the corner (0, 12) belongs to section 6
                section[k] = 3 * min(y // SECTION_SIDE, 2)
            elif x == 13:  # east strip; the corner (13, 12) belongs to section 8
                section[k] = 3 * min(y // SECTION_SIDE, 2) + 2
            else:  # south strip y = 12, x = 1..12
                section[k] = 6 + (x - 1) // SECTION_SIDE
    return market, ~market, section


MARKET, RESTAURANT, SECTION = _geometry()  # (182,) bool, (182,) bool, (182,) int8
# The area type of each colour's tiles (§5.1): purple in the restaurant, the rest in the market.
COLOUR_AREA = np.stack([RESTAURANT if c == PURPLE else MARKET for c in range(NUM_COLOURS)])
for _table in (MARKET, RESTAURANT, SECTION, COLOUR_AREA):
    _table.flags.writeable = False


def cell(x: int, y: int) -> int:
    """Flat index of cell ``(x, y)``."""
    return WIDTH * y + x


# Customer start cells P0..P4 in placement order (§2.7 [DESIGNED]): NW, NE, centre, SW, SE.
CUSTOMER_STARTS = np.array(
    [cell(1, 0), cell(12, 0), cell(6, 5), cell(1, 11), cell(12, 11)], dtype=np.int16
)
NUM_CUSTOMERS_ON_BOARD = 5

# ---------------------------------------------------------------- stall cards (§2.3)
NUM_STANDARD_TYPES = 9  # S0..S8, one per section
NUM_JOKER_TYPES = 6  # J0..J5
NUM_CARD_TYPES = NUM_STANDARD_TYPES + NUM_JOKER_TYPES  # 15
STANDARD_COPIES = 3  # [DESIGNED from evidence] 27 = 9 × 3
# [DESIGNED] joker highlights: the three rows, then the three columns of sections.
JOKER_SECTIONS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8))
CARD_TYPE_NAMES = tuple(f"S{k}" for k in range(NUM_STANDARD_TYPES)) + tuple(
    f"J{j}" for j in range(NUM_JOKER_TYPES)
)


def _card_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Coverage of each card type, copies per type and the type of every card id (§2.3)."""
    cover = np.zeros((NUM_CARD_TYPES, NUM_SECTIONS), dtype=bool)
    cover[np.arange(NUM_STANDARD_TYPES), np.arange(NUM_STANDARD_TYPES)] = True
    for j, sections in enumerate(JOKER_SECTIONS):
        cover[NUM_STANDARD_TYPES + j, list(sections)] = True
    copies = np.array([STANDARD_COPIES] * NUM_STANDARD_TYPES + [1] * NUM_JOKER_TYPES, np.int8)
    card_type = np.repeat(np.arange(NUM_CARD_TYPES, dtype=np.int8), copies)
    return cover, copies, card_type


CARD_COVER, CARD_COPIES, CARD_ID_TYPE = _card_tables()  # (15, 9) bool, (15,) int8, (33,) int8
JOKER_COVER = CARD_COVER[NUM_STANDARD_TYPES:]  # (6, 9) bool
NUM_CARDS = int(CARD_COPIES.sum())  # 27 standard + 6 jokers = 33
for _table in (CARD_COVER, CARD_COPIES, CARD_ID_TYPE):
    _table.flags.writeable = False

# ---------------------------------------------------------------- components and setup (§2, §3)
MONEY_PER_COLOUR = 20  # 10 × 1 + 5 × 2 per colour [SEED][EN-RB]
START_MONEY = 1  # of each colour [SEED]
START_HAND = 3  # stall cards dealt to each player [REV:bgg]
HAND_LIMIT = 4  # stall cards kept after a Draw [SEED]
DISPLAY_SLOTS = 4
NUM_BARKERS = 7
EXPANSIONS_PER_COLOUR = 6
MAX_GROUP_SIZE = 1 + EXPANSIONS_PER_COLOUR  # main stall + every expansion of its colour
SETUP_STALLS = 3  # own stalls each player places in setup [EN-RB][REV:bgg]
SETUP_SECTION_LIMIT = 2  # main stalls a section may hold during setup [SEED]
NEUTRAL_STEPS = 6  # 2 players: one neutral stall per colour (§5.9.2)
DRAWS_PER_ACTION = 2
THREE_CARDS = 3

# ---------------------------------------------------------------- medals (§2.5)
MEDAL_VP = (3, 2)  # [DESIGNED] (gold, silver), the same for every colour
GOLD, SILVER = 0, 1
