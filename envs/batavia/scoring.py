"""Final scoring (§7): hands revealed, warehouses, most coins, the goal tile and the seals."""

from __future__ import annotations

import numpy as np

from envs.batavia.cards import recount_seals
from envs.batavia.data import (
    GOAL_GOLD,
    GOOD_TIE_VALUE,
    GOOD_VALUE,
    MOST_COINS_GOLD,
    MOST_COINS_TIE_GOLD,
    SEAL_GOLD,
)
from envs.batavia.state import BataviaState


def reveal_hands(state: BataviaState, rows: np.ndarray) -> None:
    """§7 steps 1-2: every hand goes onto its display, then the seals are recounted."""
    state.display[rows] += state.hand[rows]
    state.hand[rows] = 0
    state.known[rows] = 0
    state.unknown[rows] = 0
    recount_seals(state, rows)


def crates_per_good(state: BataviaState) -> np.ndarray:
    """(B, P, 7) each seat's crates in each warehouse (0-5)."""
    seats = np.arange(state.coins.shape[1])
    return (state.warehouse[:, None, :, :] == seats[None, :, None, None]).sum(axis=3)


def score_parts(state: BataviaState) -> dict[str, np.ndarray]:
    """(B, P) int of each part of the score of §7, on the state as it stands."""
    seats = np.arange(state.coins.shape[1])
    crates = crates_per_good(state)
    most = crates.max(axis=1, keepdims=True)
    lead = (crates == most) & (most > 0)
    alone = lead.sum(axis=1, keepdims=True) == 1
    warehouses = np.where(lead, np.where(alone, GOOD_VALUE, GOOD_TIE_VALUE), 0).sum(axis=2)
    coins = state.coins
    richest = coins == coins.max(axis=1, keepdims=True)
    sole = richest.sum(axis=1, keepdims=True) == 1
    coin_bonus = np.where(richest, np.where(sole, MOST_COINS_GOLD, MOST_COINS_TIE_GOLD), 0)
    goal = (state.goal_holder[:, None] == seats) * GOAL_GOLD
    seals = (state.seal[:, None, :] == seats[None, :, None]).sum(axis=2) * SEAL_GOLD
    return {"exchange": state.gold.astype(np.int64), "warehouses": warehouses,
            "coins": coin_bonus, "goal": goal, "seals": seals}


def scores(state: BataviaState) -> np.ndarray:
    """(B, P) int64: the gold of §7. After final scoring the final score; before, the same
    formula on the public state (the hands not counted)."""
    return sum(score_parts(state).values())
