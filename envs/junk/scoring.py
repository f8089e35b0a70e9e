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


def presence_bonus(vis: np.ndarray) -> np.ndarray:
    """(B, P) int: 4 per junk with a visible own crate, 25 for all five (§7, §8 #35)."""
    present = (vis > 0).sum(axis=1)  # vis (B, 5, P)
    return np.where(present == NUM_JUNKS, ALL_PRESENCE_VALUE, PRESENCE_VALUE * present)


def end_bonus(state: JunkState) -> np.ndarray:
    """(B, P) int: the END cards held face down whose conditions hold now."""
    vis = state.vis.transpose(0, 2, 1).astype(np.int64)  # (B, P, 5)
    held = state.held.astype(np.int64)
    eight = (held[:, :, BONUS8:BONUS8 + NUM_JUNKS] * (vis >= BONUS8_NEED)).sum(axis=2)
    twelve_ok = (vis[:, :, BONUS12_PAIRS[:, 0]] >= BONUS12_NEED_A) & (
        vis[:, :, BONUS12_PAIRS[:, 1]] >= BONUS12_NEED_B)
    twelve = (held[:, :, BONUS12:BONUS12 + NUM_JUNKS] * twelve_ok).sum(axis=2)
    return BONUS8_VALUE * eight + BONUS12_VALUE * twelve


def scores(state: JunkState) -> np.ndarray:
    """(B, P) int64 score of every seat by the formula of §7."""
    return state.money.astype(np.int64) + end_bonus(state) + presence_bonus(state.vis)
