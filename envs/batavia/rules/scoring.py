"""Final scoring (§7): warehouses, most coins, the goal tile and the seals, per row.

Before the end the same formula on the public state is the score (exchange gold, the
warehouses as they stand, coins, the goal, the seals of the displays): a public estimate;
at the end the hands are on the displays (``effects._final_scoring``).
"""

from __future__ import annotations

import numpy as np

from envs.batavia.data import (
    GOAL_GOLD,
    GOOD_TIE_VALUE,
    GOOD_VALUE,
    MAX_PLAYERS,
    MOST_COINS_GOLD,
    MOST_COINS_TIE_GOLD,
    NUM_COMPANIES,
    NUM_GOODS,
    SEAL_GOLD,
)
from envs.core.jit import local_zeros, njit

PARTS = ("exchange", "warehouses", "coins", "goal", "seals")
NUM_PARTS = len(PARTS)
_GOOD_VALUE = GOOD_VALUE.astype(np.int64)
_GOOD_TIE_VALUE = GOOD_TIE_VALUE.astype(np.int64)


@njit
def score_parts_row(s, r, out):
    """Each part of the §7 score of every seat into ``out`` (5, P) int64, in ``PARTS``
    order, on row ``r`` as it stands."""
    players = s.coins.shape[1]
    crates = local_zeros((MAX_PLAYERS, NUM_GOODS), np.int64)  # seats past P stay 0
    for g in range(NUM_GOODS):
        for c in range(NUM_COMPANIES):
            owner = s.warehouse[r, g, c]
            if owner >= 0:
                crates[owner, g] += 1
    richest = s.coins[r, np.argmax(s.coins[r])]
    rich = 0
    for p in range(players):
        rich += s.coins[r, p] == richest
    for p in range(players):
        out[0, p] = s.gold[r, p]
        warehouses = 0
        for g in range(NUM_GOODS):
            most = crates[np.argmax(crates[:, g]), g]
            if most > 0 and crates[p, g] == most:
                leaders = 0
                for q in range(players):
                    leaders += crates[q, g] == most
                warehouses += _GOOD_VALUE[g] if leaders == 1 else _GOOD_TIE_VALUE[g]
        out[1, p] = warehouses
        if s.coins[r, p] == richest:
            out[2, p] = MOST_COINS_GOLD if rich == 1 else MOST_COINS_TIE_GOLD
        else:
            out[2, p] = 0
        out[3, p] = GOAL_GOLD if s.goal_holder[r] == p else 0
        seals = 0
        for c in range(NUM_COMPANIES):
            seals += s.seal[r, c] == p
        out[4, p] = seals * SEAL_GOLD


@njit
def score_row(s, r, out):
    """The gold of §7 of every seat into ``out`` (P,) float64 (the driver's ``score_row``)."""
    parts = local_zeros((NUM_PARTS, MAX_PLAYERS), np.int64)
    score_parts_row(s, r, parts)
    for p in range(s.coins.shape[1]):
        out[p] = parts[:, p].sum()


@njit
def ranking(s, r, keys):
    """The ranking keys (P, 1): the score (ties share, design.md)."""
    out = local_zeros(MAX_PLAYERS, np.float64)
    score_row(s, r, out)
    for p in range(keys.shape[0]):
        keys[p, 0] = out[p]
