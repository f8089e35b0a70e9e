"""Every table of the Batavia rules (``docs/rules/batavia.md``), as constants.

Values the spec marks [DESIGNED] live here only, so a found source replaces them in one
place: the even card split (§2.3), the quick-start layout (§2.8), the round cap (§7) and the
first auctioneer (§3 step 6, an option of the game).
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- companies and goods (§2)
COMPANY_NAMES = ("EN", "DK", "FR", "NL", "SE")  # England, Denmark, France, Netherlands, Sweden
GOOD_NAMES = ("Tea", "Cotton", "Porcelain", "Silk", "Ginger", "Nutmeg", "Pepper")
NUM_COMPANIES = 5
MAX_PLAYERS = 5  # the largest player count (3-5)
NUM_GOODS = 7
NUM_TILES = NUM_COMPANIES * NUM_GOODS  # 35, tile id = 7 * company + good (§2.4)
TILE_COMPANY = np.arange(NUM_TILES) // NUM_GOODS
TILE_GOOD = np.arange(NUM_TILES) % NUM_GOODS

# ---------------------------------------------------------------- ship cards (§2.3)
CARDS_PER_COMPANY = 22  # [DESIGNED] an even split of the 110 cards (§8 #1)
NUM_CARDS = NUM_COMPANIES * CARDS_PER_COMPANY  # 110
CARD_COMPANY = np.arange(NUM_CARDS) // CARDS_PER_COMPANY  # the setup listing, company by company

# ---------------------------------------------------------------- the route (§2.1, §3)
NUM_SPACES = 35  # route spaces 1..35; 0 is the start, 36 the goal
START = 0
GOAL_SPACE = 36
BLOCK = 5  # spaces per block; block k = 1..7 covers spaces 5k-4 .. 5k
NUM_BLOCKS = NUM_SPACES // BLOCK  # 7
OPEN_AT_START = 10  # spaces 1..10 face up in the standard game
REVEAL_STEP = 5

# ---------------------------------------------------------------- per player (§2.7, §3)
START_HAND = 10
START_COINS = 15
CRATES = 12
DRAW_COUNT = 2
DIE_FACES = 6
MAX_SEATS = 5

# ---------------------------------------------------------------- values (§2.5, §2.6, §2.7)
GOOD_VALUE = np.array([10, 11, 12, 13, 14, 15, 16], dtype=np.int16)  # sole majority
GOOD_TIE_VALUE = np.array([5, 5, 6, 6, 7, 7, 8], dtype=np.int16)  # each tied player
EXCHANGE_GOLD = np.array([0, 1, 3, 6, 10, 15], dtype=np.int16)  # by distinct companies k
MOST_COINS_GOLD = 5
MOST_COINS_TIE_GOLD = 2
SEAL_GOLD = 2
GOAL_GOLD = 4
PIRATE_THRESHOLD = {3: 21, 4: 25, 5: 25}

# ---------------------------------------------------------------- length (§7, §9.7)
MAX_ROUNDS = 100  # [DESIGNED] the truncation cap


def max_decisions(num_players: int) -> int:
    """§9.7: 16N auction decisions and 110 + 2N turn decisions per round, 100 rounds."""
    return MAX_ROUNDS * (18 * num_players + 110)


# ---------------------------------------------------------------- quick-start layout (§2.8)
def fixed_layout() -> np.ndarray:
    """(35,) tile id on spaces 1..35 of the [DESIGNED] Latin layout of §2.8: block k = 1..7,
    slot j = 0..4, company ``(2j + k) mod 5``, good ``(k - 1 + 3c) mod 7``."""
    tiles = []
    for k in range(1, NUM_BLOCKS + 1):
        for j in range(BLOCK):
            c = (2 * j + k) % NUM_COMPANIES
            g = (k - 1 + 3 * c) % NUM_GOODS
            tiles.append(NUM_GOODS * c + g)
    return np.array(tiles, dtype=np.int8)


FIXED_LAYOUT = fixed_layout()
