"""Every table of Age of Discoveries (rules spec ``/work/shared/rules/discoveries.md``).

Values the spec marks [DESIGNED] (expedition cards, contract revenues, flagship pairs, the
completed-contracts track, the task sets) live only here, so a found source replaces them in
one place. Index conventions (§0): colours ``0 red, 1 yellow, 2 blue, 3 green, 4 white,
5 black``; ship type ``colour * 3 + (TV - 1)``; contract id ``colour * 4 + (TV - 3)``.
"""

from __future__ import annotations

import numpy as np

COLOUR_NAMES = ("red", "yellow", "blue", "green", "white", "black")
NUM_COLOURS = 6
NUM_TVS = 3  # a ship's transport value is 1, 2 or 3

# ---------------------------------------------------------------- regular ships (§2.3)
NUM_TYPES = NUM_COLOURS * NUM_TVS  # 18 ship types
TYPE_COLOUR = np.repeat(np.arange(NUM_COLOURS), NUM_TVS).astype(np.int8)  # (18,)
TYPE_TV = np.tile(np.arange(1, NUM_TVS + 1), NUM_COLOURS).astype(np.int8)  # (18,)
PRICE_BY_TV = (0, 3, 4, 5)  # coins per TV 1..3 [SOURCE]
COPIES_BY_TV = (0, 2, 3, 2)  # copies of each type per colour [SOURCE]
TYPE_PRICE = np.array([PRICE_BY_TV[t] for t in TYPE_TV], dtype=np.int16)  # (18,)
TYPE_COPIES = np.array([COPIES_BY_TV[t] for t in TYPE_TV], dtype=np.int8)  # (18,)
NUM_SHIPS = int(TYPE_COPIES.sum())  # 42
# Card id colour * 7 + k (k 0-1 TV1, 2-4 TV2, 5-6 TV3) -> ship type.
SHIP_CARD_TYPE = np.repeat(np.arange(NUM_TYPES), TYPE_COPIES).astype(np.int8)  # (42,)
TYPE_NAMES = tuple(f"{COLOUR_NAMES[c]}{t}" for c in range(NUM_COLOURS)
                   for t in range(1, NUM_TVS + 1))  # "red1" .. "black3"

# ---------------------------------------------------------------- the market and piles (§3)
MARKET_SLOTS = 5  # offer slots 0..4 and refill slots 0..4
NUM_PILES = 5
# The five face-down piles after the scoring cards are shuffled in, top of pile 1 first:
# they are drawn in this order (lowest-numbered non-empty pile first, §5.3), so they are kept
# as one sequence with a pointer.
PILE_SIZES = (6, 6, 7, 7, 8)
PILE_START = np.array([0, 6, 12, 19, 26], dtype=np.int16)
PILE_END = np.array([6, 12, 19, 26, 34], dtype=np.int16)
PILE_CARDS = 34  # 32 ships + the two scoring cards
FIRST_CARD = NUM_TYPES  # 18: the First Scoring card in the pile sequence
FINAL_CARD = NUM_TYPES + 1  # 19: the Final Scoring card
FIRST_PILE, FINAL_PILE = 2, 4  # piles 3 and 5 (0-based)
SHIPS_BEFORE_PILES = 2 * MARKET_SLOTS  # 10 ships dealt to the rows
# Ships of the piles before the scoring cards go in, by 0-based pile: (6, 6, 6, 7, 7).
SHIPS_PER_PILE = (6, 6, 6, 7, 7)

# ---------------------------------------------------------------- flagships (§2.4)
NUM_FLAGSHIPS = 6
FLAGSHIP_FEE = 2
SHIP_FEE = 1
# [DESIGNED] a 6-cycle: every colour appears on exactly two flagships.
FLAG_COLOURS = np.array([[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0]], dtype=np.int8)
# (6, 6) bool: flagship f carries colour c.
FLAG_CARRIES = np.zeros((NUM_FLAGSHIPS, NUM_COLOURS), dtype=bool)
FLAG_CARRIES[np.arange(NUM_FLAGSHIPS)[:, None], FLAG_COLOURS] = True

# ---------------------------------------------------------------- expeditions (§2.5)
NUM_EXPEDITIONS = 12
MAX_EXP_SHIPS = 8  # the largest limit is 8 and every TV is at least 1
# [DESIGNED] except Abreu's name and limit, and six names from public pages.
EXPEDITION_NAMES = ("Antonio de Abreu", "Bartolomeu Dias", "Pedro Alvares Cabral",
                    "Jacques Cartier", "John Cabot", "Amerigo Vespucci", "Hernan Cortes",
                    "Francisco Pizarro", "Francis Drake", "Vasco da Gama", "Ferdinand Magellan",
                    "Christopher Columbus")
EXP_COLOUR = np.array([3, 0, 1, 4, 2, 5, 5, 2, 4, 1, 0, 3], dtype=np.int8)
EXP_LIMIT = np.array([3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8], dtype=np.int8)
FIRST_OFF = np.array([3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 1, 1], dtype=np.int16)
FIRST_SAME = np.array([4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 2, 2], dtype=np.int16)
FINAL_OFF = np.array([5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3], dtype=np.int16)
FINAL_SAME = np.array([7, 7, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4], dtype=np.int16)

# ---------------------------------------------------------------- trade contracts (§2.6)
NUM_CONTRACTS = 24
CONTRACT_COLOUR = np.repeat(np.arange(NUM_COLOURS), 4).astype(np.int8)  # (24,)
CONTRACT_TV = np.tile(np.arange(3, 7), NUM_COLOURS).astype(np.int8)  # (24,) required TV
MAX_REQUIREMENT = 6
DURATIONS = 3  # a voyage lasts 1, 2 or 3 of the owner's turns
# [DESIGNED] revenue = 2 * TV for 2 turns, 2 less for 1 turn, 2 more for 3 turns.
REVENUE_BY_TV = {3: (4, 6, 8), 4: (6, 8, 10), 5: (8, 10, 12), 6: (10, 12, 14)}
# (24, 3) coins paid by contract c on the voyage of d = 1..3 turns (column d - 1).
CONTRACT_REVENUE = np.array([REVENUE_BY_TV[int(t)] for t in CONTRACT_TV], dtype=np.int16)
CONTRACT_NAMES = tuple(f"{COLOUR_NAMES[c // 4]}{c % 4 + 3}" for c in range(NUM_CONTRACTS))
DISPLAY_SLOTS = 4
START_HAND = 2
HAND_LIMIT = 4
CONTRACT_FEE = 1

# ---------------------------------------------------------------- special tasks (§2.7)
TASK_NAMES = ("AT_LEAST_ONE", "HALF", "MAJORITY", "ALL")
NUM_TASK_KINDS = 4
AT_LEAST_ONE, HALF, MAJORITY, ALL = range(NUM_TASK_KINDS)

# ---------------------------------------------------------------- the VP board (§2.8)
# [DESIGNED] except 5 -> 5: VP per qualifying expedition by completed contracts (>= 12: 9).
TRACK = np.array([0, 1, 2, 3, 4, 5, 6, 6, 7, 7, 8, 8] + [9] * 13, dtype=np.int16)  # (25,)
TRACK_MAX = 9

# ---------------------------------------------------------------- action cards (§2.9)
JOKERS_PER_PLAYER = {2: 3, 3: 2, 4: 2}
RESERVATIONS_PER_PLAYER = {2: 2, 3: 1, 4: 1}
MAX_JOKERS, MAX_RESERVATIONS = 3, 2

# ---------------------------------------------------------------- money and turns
START_COINS = 6
COINS_ACTION = 2
MAX_TURNS = 300  # the safety cap on global turns (amendment 1)
MAX_DECISIONS = 890  # 2 * 300 + 290 (§4.4)
MAX_CHAIN = 7  # automatic decisions one step applies at most (§4.5)
# Finite bounds of the observation (§9.2), derived from the rules.
COINS_BOUND = 570
VP_BOUND = 581
REVENUE_BOUND = 264
SHIPS_BOUND = 43
COINS_SCALE, VP_SCALE, REVENUE_SCALE = 30, 150, 30
