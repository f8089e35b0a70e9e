"""Final scoring (§7): money, the END cards whose conditions hold, and the presence bonus.

``scores`` applies the formula to the state as it stands, at any time (a game stopped by the
safety cap is ranked on it).
"""

from __future__ import annotations

import numpy as np

from envs.junk.data import (
    ALL_PRESENCE_VALUE,
    BONUS8,
    BONUS8_NEED,
    BONUS8_VALUE,
    BONUS12,
    BONUS12_NEED_A,
    BONUS12_NEED_B,
    BONUS12_PAIRS,
    BONUS12_VALUE,
    NUM_JUNKS,
    PRESENCE_VALUE,
)
from envs.junk.state import JunkState


def presence_of(vis: np.ndarray) -> np.ndarray:
    """Presence bonus of one seat's visible crates ``vis`` (..., 5): 4 per junk with a
    visible own crate, 25 for all five (§7, §8 #35)."""
    present = (vis > 0).sum(axis=-1)
    return np.where(present == NUM_JUNKS, ALL_PRESENCE_VALUE, PRESENCE_VALUE * present)


def end_bonus_of(held: np.ndarray, vis: np.ndarray) -> np.ndarray:
    """The END cards' bonuses of face-down cards ``held`` (..., 21) with one seat's visible
    crates ``vis`` (..., 5): every card whose condition holds now."""
    held = held.astype(np.int64)
    eight = (held[..., BONUS8:BONUS8 + NUM_JUNKS] * (vis >= BONUS8_NEED)).sum(axis=-1)
    twelve_ok = (vis[..., BONUS12_PAIRS[:, 0]] >= BONUS12_NEED_A) & (
        vis[..., BONUS12_PAIRS[:, 1]] >= BONUS12_NEED_B)
    twelve = (held[..., BONUS12:BONUS12 + NUM_JUNKS] * twelve_ok).sum(axis=-1)
    return BONUS8_VALUE * eight + BONUS12_VALUE * twelve


def presence_bonus(vis: np.ndarray) -> np.ndarray:
    """(B, P) presence bonus of every seat from the holds' ``vis`` (B, 5, P)."""
    return presence_of(vis.transpose(0, 2, 1))


def scores(state: JunkState) -> np.ndarray:
    """(B, P) int64 score of every seat by the formula of §7."""
    vis = state.vis.transpose(0, 2, 1).astype(np.int64)  # (B, P, 5)
    return state.money.astype(np.int64) + end_bonus_of(state.held, vis) + presence_of(vis)
