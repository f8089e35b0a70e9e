"""Dschunke's tables: junks, goods, figures, helper tracks, market cards, special cards and
the initial layout.

Every value cites the rules spec (``docs/rules/junk.md``); the ones the spec marks
[DESIGNED] or [INFERRED] live only here, so a found source replaces them in one place.

The ring of junks (§2.2, [INFERRED]), clockwise, and the goods each carries::

    GREY(0) -> ORANGE(1) -> PURPLE(2) -> BROWN(3) -> WHITE(4) -> GREY
      any       SPICE        VEG          FISH        RICE
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- players, goods, junks (§2.2)
MAX_PLAYERS = 4
NUM_GOODS = 4
GOODS_NAMES = ("FISH", "RICE", "SPICE", "VEG")
FISH, RICE, SPICE, VEG = range(NUM_GOODS)
GOODS_PER_TYPE = 18  # §2.1: 72 goods cards, 18 of each type
HAND_START = 8  # §3, item 5: every seat is dealt 8 goods cards
NUM_JUNKS = 5
JUNK_NAMES = ("GREY", "ORANGE", "PURPLE", "BROWN", "WHITE")
GREY, ORANGE, PURPLE, BROWN, WHITE = range(NUM_JUNKS)
GOODS_OF_JUNK = np.array([-1, SPICE, VEG, FISH, RICE], dtype=np.int8)  # -1: grey, any good


def dealt_per_type(num_players: int) -> int:
    """§3, item 5: goods of each type shuffled into the hands, D = 8 (4 players) or 6 (3)."""
    return 2 * num_players


# ---------------------------------------------------------------- cargo (§2.1, §2.3)
STRIPS_PER_PLAYER = 20
SLOTS = 3  # strips side by side in a layer; each strip has 3 crates
CELLS = SLOTS * SLOTS  # a hold is a 3 x 3 grid of crates
MAX_LAYERS = 27  # L_MAX = ceil(80 / 3)

# §2.9 [DESIGNED] initial cargo, layer 0 slots in order, per player count.
INITIAL_CARGO = {
    4: ((0, 1), (1, 2), (0, 2, 3), (1, 3), (0, 2, 3)),
    3: ((0, 1), (1, 2), (0, 2), (1,), (0, 2)),
}

# ---------------------------------------------------------------- figures (§2.4, §2.5)
NUM_MERCHANTS = 3
MERCHANT_NAMES = ("LOAD", "MONEY", "GOODS")
M_LOAD, M_MONEY, M_GOODS = range(NUM_MERCHANTS)
# §2.5 [INFERRED] start junks of the LOAD, MONEY and GOODS merchants.
MERCHANT_START = np.array([PURPLE, GREY, BROWN], dtype=np.int8)
MAX_HELPERS = 2  # lower (3 and 4 players) and upper (4 players only)
HELPER_NAMES = ("lower", "upper")
NUM_FIGURES = NUM_MERCHANTS + MAX_HELPERS
MERCHANT_LOAD_SIZE = 2  # §5.3: the LOAD merchant places 2 strips
MINIMUM_TAKE = 3  # §5.3: money and goods actions give at least 3

# Action kinds of a helper space (§2.4).
KIND_NAMES = ("LOAD", "MONEY", "GOODS")
K_LOAD, K_MONEY, K_GOODS = range(3)
NUM_ROUNDS = 10
# §2.4 [DESIGNED] helper tracks, rounds 1..10: (kind, load size).
HELPER_TRACK = np.array(
    [
        # lower helper (3 and 4 players)
        [(K_LOAD, 1), (K_GOODS, 0), (K_MONEY, 0), (K_LOAD, 2), (K_GOODS, 0),
         (K_MONEY, 0), (K_LOAD, 1), (K_GOODS, 0), (K_MONEY, 0), (K_LOAD, 2)],
        # upper helper (4 players only)
        [(K_GOODS, 0), (K_MONEY, 0), (K_LOAD, 2), (K_GOODS, 0), (K_MONEY, 0),
         (K_LOAD, 1), (K_GOODS, 0), (K_MONEY, 0), (K_LOAD, 2), (K_GOODS, 0)],
    ],
    dtype=np.int8,
)  # (2 helpers, 10 rounds, 2)
EVENT_NONE, EVENT_S, EVENT_Y = 0, 1, 2
# §2.4 [DESIGNED] events on the lower track: S in rounds 3 and 7, Y in rounds 5 and 9.
EVENTS = np.array([0, 0, EVENT_S, 0, EVENT_Y, 0, EVENT_S, 0, EVENT_Y, 0], dtype=np.int8)

# ---------------------------------------------------------------- market cards (§2.7)
S_GOOD = 0  # a price of 0 marks the good whose winner gets a special card ("S")
NUM_MARKET_CARDS = 10
# §2.7 [DESIGNED] (cards 1-2 from the seed): price of FISH, RICE, SPICE, VEG, 0 = S.
MARKET_CARDS = np.array(
    [
        [2, 1, 4, 0],
        [0, 4, 1, 2],
        [2, 4, 0, 1],
        [4, 0, 2, 1],
        [1, 2, 0, 3],
        [3, 0, 1, 2],
        [0, 1, 3, 4],
        [1, 3, 4, 0],
        [4, 2, 3, 0],
        [3, 0, 2, 4],
    ],
    dtype=np.int8,
)
MAX_PRICE = 4
LAST_ROUND_YUAN = 3  # §5.2: the round-10 S winner may take 3 Yuan instead of a card

# ---------------------------------------------------------------- special cards (§2.6)
NUM_SPECIAL_TYPES = 21
NUM_SPECIAL_CARDS = 30
SUPPLY_PLUS, WIN_TIES, EXCHANGE, LOAD_ONE, MOVE_STRIP, GOODS_ANY = range(6)
MONEY_AT = 6  # types 6..10: MONEY_AT[j]
BONUS8 = 11  # types 11..15: BONUS8[j]
BONUS12 = 16  # types 16..20: BONUS12[k]
NUM_ALWAYS = 3  # types 0..2 are ALWAYS (face up); 3..10 EXTRA; 11..20 END
FIRST_END = BONUS8
SPECIAL_COUNTS = np.array([6, 1, 2, 2, 2, 2] + [1] * 15, dtype=np.int8)  # sums to 30
SPECIAL_NAMES = (
    "SUPPLY_PLUS", "WIN_TIES", "EXCHANGE", "LOAD_ONE", "MOVE_STRIP", "GOODS_ANY",
    *(f"MONEY_AT_{n}" for n in JUNK_NAMES),
    *(f"BONUS8_{n}" for n in JUNK_NAMES),
    *(f"BONUS12_{k}" for k in range(5)),
)
# §2.6 [DESIGNED] BONUS12 pairs (A_k, B_k): 12 Yuan if vis(A_k) >= 5 and vis(B_k) >= 2.
BONUS12_PAIRS = np.array([(GREY, PURPLE), (ORANGE, BROWN), (PURPLE, WHITE), (BROWN, GREY),
                          (WHITE, ORANGE)], dtype=np.intp)
BONUS8_VALUE, BONUS8_NEED = 8, 4
BONUS12_VALUE, BONUS12_NEED_A, BONUS12_NEED_B = 12, 5, 2
# §3, item 4 [DESIGNED] pile sizes: square, circle, triangle, star.
NUM_PILES = 4
PILE_NAMES = ("square", "circle", "triangle", "star")
PILE_SIZES = np.array([8, 8, 7, 7], dtype=np.int8)
MAX_PILE = 8
MAX_COPIES = 6  # copies of the commonest type (SUPPLY_PLUS)
SUPPLY_CARDS = 2  # §2.8: supply cards per player
MAX_SUPPLY = SUPPLY_CARDS + 6  # with all six SUPPLY_PLUS
NUM_HIDDEN_KINDS = 11 + 10  # EXTRA + END cards (21), the bound of a seat's face-down count

# ---------------------------------------------------------------- scoring (§7)
PRESENCE_VALUE = 4  # per junk with a visible own crate
ALL_PRESENCE_VALUE = 25  # instead of 5 x 4
# §9.2: one money action per round (<= 9), the five MONEY_AT cards (<= 9 each), every price
# of the ten market cards (74), the round-10 3 Yuan: 90 + 45 + 74 + 3.
MAX_MONEY = 212
